/* -S with -x on a leaf function whose system call runs on the stack
 * pointer the function was entered with, as glibc's umask or getpid on
 * aarch64, where a call leaves nothing on the stack: the system call
 * nests inside the function's call, whose return is still shown.  No
 * libc, so that the trace holds these lines only. */

#if defined(__x86_64__)
__asm__(".globl _start\n"
	"_start:\n"
	"	and $-16, %rsp\n"
	"	call cmain\n"
	"	hlt\n");

static long sys1(long nr, long a)
{
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "0"(nr), "D"(a)
			 : "rcx", "r11", "memory");
	return ret;
}
#define NR_UMASK 95
#define NR_EXIT_GROUP 231
#elif defined(__aarch64__)
__asm__(".globl _start\n"
	"_start:\n"
	"	bl cmain\n"
	"	brk #1\n");

static long sys1(long nr, long a)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	__asm__ volatile("svc #0" : "+r"(x0) : "r"(x8) : "memory");
	return x0;
}
#define NR_UMASK 166
#define NR_EXIT_GROUP 94
#endif

/* umask(MASK), the old mask: at -O1, no frame and no stack. */
__attribute__((noinline)) long run_leaf(long mask)
{
	return sys1(NR_UMASK, mask);
}

void cmain(void)
{
	run_leaf(077);
	sys1(NR_EXIT_GROUP, run_leaf(022) == 077 ? 3 : 4);
	for (;;)
		continue;
}
