/* libone.so for libs_dlopen.c: calls libtwo's two_sum and libc's strlen
 * through its PLT. */
#include <string.h>

int two_sum(int a, int b);

int one_calc(int i)
{
	return two_sum(i, (int)strlen("abc"));
}
