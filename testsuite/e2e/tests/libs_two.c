/* libtwo.so for libs_dlopen.c: calls libc through its PLT. */
#include <stdio.h>
#include <stdlib.h>

int two_sum(int a, int b)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", a + b);
	return atoi(buf);
}
