/* Without -f a forked child runs untraced: its copy of the breakpoints is
 * removed before it is let go.  SIGCHLD is blocked so that no signal line
 * lands at a timing-dependent place. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	sigset_t set;
	int st;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid_t pid = fork();
	if (pid == 0) {
		printf("child %zu\n", strlen("untraced"));
		fflush(stdout);
		_exit(7);
	}
	waitpid(pid, &st, 0);
	printf("parent %d\n", WEXITSTATUS(st));
	return 0;
}
