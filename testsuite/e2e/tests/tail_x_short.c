/* A tail call from a function that --fast patches into the recorder
 * (tail1: its first instruction, a load of g, is long enough for the
 * patch's jump) to one it cannot patch (tail2: 4 bytes on x86_64, fewer
 * than the jump: it keeps its breakpoint).  tail2's entry comes with
 * the recorder's hook as its return address; it must be shown, and its
 * one return end both calls, as in ptrace mode. */
#include <stdio.h>

volatile int g;

#if defined(__x86_64__)
__asm__(".text\n.globl tail2\n.type tail2, @function\ntail2:\n"
	"\tlea 1(%rdi), %eax\n\tret\n.size tail2, .-tail2\n");
#elif defined(__aarch64__)
__asm__(".text\n.globl tail2\n.type tail2, %function\ntail2:\n"
	"\tadd w0, w0, #1\n\tret\n.size tail2, .-tail2\n");
#endif
int tail2(int x);

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
