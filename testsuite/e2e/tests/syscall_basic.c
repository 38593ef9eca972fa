/* System calls (-S) of a program without libc, so that the trace holds
 * its own system calls only, from its first instruction: no dynamic
 * linker, no library call.  argv[1] picks the scenario (the tests
 * syscall_*.opts). */
#include <linux/time.h>

#include "nolibc.h"

struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	unsigned long mask;
};

#define SA_RESTORER 0x04000000
#define SIGALRM 14
#define SIGCHLD 17
#define ITIMER_REAL 0

static long sys(long nr, long a, long b, long c)
{
	return sys6(nr, a, b, c, 0, 0, 0);
}

static int same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* A missing file, a write to stdout, a bad descriptor, the exit. */
static void run_basic(void)
{
	sys(__NR_openat, -100, (long)"/nonexistent/x", 0);
	sys(__NR_write, 1, (long)"hi\n", 3);
	sys(__NR_close, -1, 0, 0);
}

/* Out-parameters (pipe2's descriptors, read's buffer), a number no
 * kernel names, a system call syscalls.conf does not declare. */
static void run_args(void)
{
	int fds[2];
	char buf[16];
	sys(__NR_pipe2, (long)fds, 0, 0);
	sys(__NR_write, fds[1], (long)"abc", 3);
	sys(__NR_read, fds[0], (long)buf, sizeof(buf));
	sys6(1000, 1, 2, 3, 4, 5, 6);
	sys(__NR_getcpu, 0, 0, 0);
}

static void on_alarm(int sig)
{
	sys(__NR_write, 1, (long)"alarm\n", 6);
}

/* pause() interrupted by a signal with a handler: its exit shows the
 * kernel's ERESTARTNOHAND, the handler runs, rt_sigreturn gives EINTR
 * back to the program. */
static void run_signal(void)
{
	struct ksigaction sa = { on_alarm, SA_RESTORER, restore_rt, 0 };
	struct itimerval it = { { 0, 0 }, { 0, 10000 } };
	sys6(__NR_rt_sigaction, SIGALRM, (long)&sa, 0, 8, 0, 0);
	sys(__NR_setitimer, ITIMER_REAL, (long)&it, 0);
#ifdef __NR_pause
	sys(__NR_pause, 0, 0, 0);
#else
	/* aarch64 has no pause: ppoll waiting for nothing, as libc's */
	sys6(__NR_ppoll, 0, 0, 0, 0, 8, 0);
#endif
}

/* execve that fails, then one that succeeds (this program again). */
static void run_exec(char **envp)
{
	char *argv[] = { "prog", "execd", 0 };
	sys(__NR_execve, (long)"/nonexistent/prog", (long)argv, (long)envp);
	sys(__NR_execve, (long)"/proc/self/exe", (long)argv, (long)envp);
}

/* A child: its lines carry its pid (-f). */
static void run_fork(void)
{
#ifdef __NR_fork
	long pid = sys(__NR_fork, 0, 0, 0);
#else
	/* aarch64 has no fork: clone as libc's */
	long pid = sys(__NR_clone, SIGCHLD, 0, 0);
#endif
	if (pid == 0) {
		sys(__NR_write, 1, (long)"child\n", 6);
		sys(__NR_exit_group, 4, 0, 0);
	}
	sys6(__NR_wait4, pid, 0, 0, 0, 0, 0);
}

void cmain(long *sp)
{
	long argc = sp[0];
	char **argv = (char **)(sp + 1);
	const char *what = argc > 1 ? argv[1] : "basic";
	if (same(what, "basic"))
		run_basic();
	else if (same(what, "args"))
		run_args();
	else if (same(what, "signal"))
		run_signal();
	else if (same(what, "exec"))
		run_exec(argv + argc + 1);
	else if (same(what, "fork"))
		run_fork();
	sys(__NR_exit_group, 3, 0, 0);
}
