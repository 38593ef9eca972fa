/* Calls bar_add of libbar.so (libs_bar.c) twice: the first call goes
 * through lazy binding, the second straight to the function. */
#include <stdio.h>

int bar_add(int a, int b);

int main(void)
{
	int a = bar_add(1, 2);
	int b = bar_add(a, 4);

	printf("%d\n", b);
	return 0;
}
