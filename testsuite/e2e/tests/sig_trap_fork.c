/* SIGTRAP in forked children, traced with -f: one with a handler runs
 * a trap instruction (int3, brk) right after a traced call (under the
 * tracer's return breakpoint), one elsewhere, and raises SIGTRAP, and its
 * handler runs each time; one at SIGTRAP's default dies of its trap
 * instruction, as untraced.  The parent waits for each child before it
 * goes on, so the trace's order is fixed. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trap.h"

static volatile int n;

static void on_trap(int sig)
{
	(void)sig;
	n++;
}
TRAP_HANDLER(on_trap)

static void handled(void)
{
	on_trap_install();
	puts("child 1");
	TRAP();
	n += 10;
	TRAP();
	raise(SIGTRAP);
	printf("child 1 handled %d\n", n);
	exit(n);
}

static void dies(void)
{
	puts("child 2");
	TRAP();
	puts("not reached");
	exit(0);
}

static int run(void (*child)(void))
{
	int st = 0;
	pid_t c = fork();
	if (c == 0)
		child();
	waitpid(c, &st, 0);
	return st;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	int a = run(handled);
	int b = run(dies);
	printf("exited %d, killed by %d\n", WEXITSTATUS(a), WTERMSIG(b));
	return 0;
}
