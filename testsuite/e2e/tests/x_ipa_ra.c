/* -x on a function of the program's own whose callers, built with
 * -fipa-ra, count on it leaving the caller-saved registers it does not
 * use alone: the recorder's entry and return must keep every general
 * register.  keep_add touches rax only; the caller (in asm, so that the
 * registers it keeps are known) checks the others after each call and
 * exits 1 if one changed. */
#include <stdio.h>

__asm__(".text\n"
	".globl keep_add\n"
	".type keep_add, @function\n"
	"keep_add:\n"
	"	mov %rdi, %rax\n"
	"	add $1, %rax\n"
	"	ret\n"
	".size keep_add, . - keep_add\n");

/* keep_add(X) with known values in rcx rdx rsi rdi r8..r11: 0 when the
 * call left them and returned X + 1. */
static int call_keep(long x)
{
	long r[9];
	__asm__ volatile("mov $0x1111, %%rcx\n\t"
			 "mov $0x2222, %%rdx\n\t"
			 "mov $0x3333, %%rsi\n\t"
			 "mov $0x4444, %%r8\n\t"
			 "mov $0x5555, %%r9\n\t"
			 "mov $0x6666, %%r10\n\t"
			 "mov $0x7777, %%r11\n\t"
			 "mov %[x], %%rdi\n\t"
			 "call keep_add\n\t"
			 "mov %%rax, 0(%[r])\n\t"
			 "mov %%rcx, 8(%[r])\n\t"
			 "mov %%rdx, 16(%[r])\n\t"
			 "mov %%rsi, 24(%[r])\n\t"
			 "mov %%r8, 32(%[r])\n\t"
			 "mov %%r9, 40(%[r])\n\t"
			 "mov %%r10, 48(%[r])\n\t"
			 "mov %%r11, 56(%[r])\n\t"
			 "mov %%rdi, 64(%[r])"
			 :
			 : [x] "r"(x), [r] "b"(r)
			 : "rax", "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10",
			   "r11", "memory", "cc");
	static const long want[9] = { 0,      0x1111, 0x2222, 0x3333, 0x4444,
				      0x5555, 0x6666, 0x7777, 0 };
	int bad = r[0] != x + 1 || r[8] != x;
	for (int i = 1; i < 8; i++)
		bad |= r[i] != want[i];
	return bad;
}

int main(void)
{
	int bad = 0;
	for (long i = 41; i < 43; i++)
		bad |= call_keep(i);
	puts(bad ? "clobbered" : "kept");
	return bad;
}
