/* The entry point and the system call of the programs without libc
 * (syscall_basic.c, syscall_upstream_conf.c), for x86_64 and aarch64:
 * _start calls cmain(sp), where the stack holds argc, argv..., NULL,
 * envp...; restore_rt is what a signal handler returns to (SA_RESTORER);
 * sys6 makes a system call.  Only the architecture's numbers
 * (asm/unistd.h) differ in what the tests trace. */
#include <asm/unistd.h>

#define NOLIBC_STR(x) #x
#define NOLIBC_XSTR(x) NOLIBC_STR(x)

void cmain(long *sp);
void restore_rt(void);

#if defined(__x86_64__)
__asm__(".globl _start\n"
	"_start:\n"
	"	mov %rsp, %rdi\n"
	"	and $-16, %rsp\n"
	"	call cmain\n"
	"	hlt\n"
	"restore_rt:\n"
	"	mov $" NOLIBC_XSTR(__NR_rt_sigreturn) ", %eax\n"
	"	syscall\n");

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	long ret;
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}
#elif defined(__aarch64__)
/* The stack pointer is 16-byte aligned at the entry; brk as hlt. */
__asm__(".globl _start\n"
	"_start:\n"
	"	mov x0, sp\n"
	"	bl cmain\n"
	"	brk #0\n"
	"restore_rt:\n"
	"	mov x8, #" NOLIBC_XSTR(__NR_rt_sigreturn) "\n"
	"	svc #0\n");

static long sys6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	__asm__ volatile("svc #0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4),
			   "r"(x5)
			 : "memory");
	return x0;
}
#else
#error "no _start and system call for this architecture"
#endif
