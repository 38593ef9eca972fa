/* The program's own breakpoint instruction, for the sig_trap tests:
 * TRAP() runs it (int3; brk #0).  On x86_64 the trap leaves the program
 * counter after the instruction; on aarch64 on it, so that a SIGTRAP
 * handler that returns must step over it: TRAP_HANDLER(NAME), for a
 * handler NAME(int), defines NAME_install(), which installs for SIGTRAP
 * a handler that steps over the trap instruction and calls NAME (with
 * SA_RESTART, as signal() installs one). */
#include <signal.h>
#include <string.h>

#if defined(__x86_64__)
#define TRAP() __asm__ volatile("int3")
#define TRAP_SKIP(si, uc) ((void)(si), (void)(uc))
#elif defined(__aarch64__)
#define TRAP() __asm__ volatile("brk #0")
/* brk's SIGTRAP has si_code TRAP_BRKPT (1, declared by <signal.h> for
 * X/Open only); raise's and kill's are not positive. */
#ifndef TRAP_BRKPT
#define TRAP_BRKPT 1
#endif
#define TRAP_SKIP(si, uc)                                          \
	do {                                                       \
		if ((si)->si_code == TRAP_BRKPT)                   \
			((ucontext_t *)(uc))->uc_mcontext.pc += 4; \
	} while (0)
#else
#error "no breakpoint instruction for this architecture"
#endif

#define TRAP_HANDLER(name)                                             \
	static void name(int sig);                                     \
	static void name##_trap(int sig, siginfo_t *si, void *uc)      \
	{                                                              \
		TRAP_SKIP(si, uc);                                     \
		name(sig);                                             \
	}                                                              \
	static void name##_install(void)                               \
	{                                                              \
		struct sigaction sa;                                   \
		memset(&sa, 0, sizeof(sa));                            \
		sa.sa_sigaction = name##_trap;                         \
		sa.sa_flags = SA_SIGINFO | SA_RESTART;                 \
		sigaction(SIGTRAP, &sa, NULL);                         \
	}
