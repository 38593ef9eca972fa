/* Functions that end in tail calls, built -O2: tail1 ends in `jmp
 * tail2`, tail2 in `jmp tail3` (noipa: no inlining, no clones; the asm
 * keeps each a function of its own).  tail3's one return ends all three
 * calls. */
#include <stdio.h>

__attribute__((noipa)) int tail3(int x)
{
	__asm__ volatile("");
	return x * 3 + 1;
}

__attribute__((noipa)) int tail2(int x)
{
	__asm__ volatile("");
	return tail3(x + 2);
}

__attribute__((noipa)) int tail1(int x)
{
	__asm__ volatile("");
	return tail2(x + 1);
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += tail1(i);
	printf("%d\n", s);
	return 0;
}
