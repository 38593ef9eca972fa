/* Tail calls between functions whose entries --fast patches: built
 * -O2, tail1 ends in `jmp tail2`, tail2 in `jmp tail3`, and each starts
 * with a load of g, an instruction long enough for the patch's jump
 * (tail_x's start with a 3-byte add and a jump: they keep their
 * breakpoints).  tail3's one return ends all three calls. */
#include <stdio.h>

volatile int g;

__attribute__((noipa)) int tail3(int x)
{
	g += x;
	return x * 3 + 1;
}

__attribute__((noipa)) int tail2(int x)
{
	g += x;
	return tail3(x + 2);
}

__attribute__((noipa)) int tail1(int x)
{
	g += x;
	return tail2(x + 1);
}

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += tail1(i);
	printf("%d %d\n", s, g);
	return 0;
}
