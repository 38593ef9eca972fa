/* SIGTRAPs that are the program's own reach its handler, as untraced:
 * a trap instruction (int3, brk) it runs right after a traced call
 * returns (under the tracer's return breakpoint), one it runs elsewhere,
 * raise, kill of itself, and a kill from another process (its child). */
#include <signal.h>
#include <stdio.h>
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

int main(void)
{
	on_trap_install();
	printf("start\n");
	TRAP();
	printf("after a trap at a return: %d\n", n);
	n += 10;
	TRAP();
	printf("after a trap: %d\n", n);
	raise(SIGTRAP);
	printf("after raise: %d\n", n);
	kill(getpid(), SIGTRAP);
	printf("after kill: %d\n", n);
	int pipefd[2];
	pipe(pipefd);
	pid_t c = fork();
	if (c == 0) {
		kill(getppid(), SIGTRAP);
		_exit(0);
	}
	waitpid(c, NULL, 0);
	while (n < 15)
		;
	printf("after a kill from another process: %d\n", n);
	return n;
}
