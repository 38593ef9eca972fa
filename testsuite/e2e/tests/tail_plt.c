/* Calls of a library function whose calls into its own library end in
 * tail calls through the library's PLT (tail_plt_lib.c). */
#include <stdio.h>

int tail_top(int x);

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += tail_top(i);
	printf("%d\n", s);
	return 0;
}
