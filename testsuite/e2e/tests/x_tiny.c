/* -x on functions whose first five bytes end in a ret or a jmp: their
 * whole body (lea; ret), a tail call (jmp rel32), and a jump through a
 * RIP-relative pointer (jmp *p(%rip)).  --fast patches them: the copy
 * of those bytes runs the ret or jmp itself, with no way back. */
#include <stdio.h>

int tiny_lea(int x);
int tiny_jmp(int x);
int tiny_ind(int x);

__attribute__((noipa)) int tiny_target(int x)
{
	return x + 100;
}

int (*tiny_ptr)(int) = tiny_target;

__asm__(".text\n"
	".globl tiny_lea\n.type tiny_lea, @function\n"
	"tiny_lea:\n\tlea 1(%rdi,%rdi,2), %eax\n\tret\n"
	".size tiny_lea, . - tiny_lea\n"
	/* jmp rel32, whatever the assembler would pick */
	".globl tiny_jmp\n.type tiny_jmp, @function\n"
	"tiny_jmp:\n\t.byte 0xe9\n\t.long tiny_target - . - 4\n"
	".size tiny_jmp, . - tiny_jmp\n"
	".globl tiny_ind\n.type tiny_ind, @function\n"
	"tiny_ind:\n\tjmp *tiny_ptr(%rip)\n"
	".size tiny_ind, . - tiny_ind\n");

int main(void)
{
	int s = 0;
	for (int i = 0; i < 3; i++)
		s += tiny_lea(i) + tiny_jmp(i) + tiny_ind(i);
	printf("%d\n", s);
	return 0;
}
