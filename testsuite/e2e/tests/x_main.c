/* -x on the program's own functions in a PIE: a global one and a static
 * one it calls, each call a line of its own, nested as ltrace nests
 * them; the program's library calls are traced as without -x. */
#include <stdio.h>

static int twice(int v)
{
	return 2 * v;
}

int add_twice(int a, int b)
{
	return twice(a) + b;
}

int main(void)
{
	int s = 0;

	for (int i = 0; i < 2; i++)
		s += add_twice(i, 10);
	printf("%d\n", s);
	return 0;
}
