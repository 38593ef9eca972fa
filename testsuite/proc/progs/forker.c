/* fork, optionally exec in the child: forker [exec PROG ARG].  SIGCHLD is
 * blocked so that no signal line lands at a timing-dependent place. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t set;
	int st;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid_t pid = fork();
	if (pid == 0) {
		printf("child %zu\n", strlen("child"));
		fflush(stdout);
		if (argc > 3 && strcmp(argv[1], "exec") == 0) {
			execl(argv[2], argv[2], argv[3], (char *)NULL);
			_exit(127);
		}
		exit(3);
	}
	waitpid(pid, &st, 0);
	printf("parent %d\n", WEXITSTATUS(st));
	return 0;
}
