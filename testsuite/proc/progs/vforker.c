/* vfork and exec PROG ARG in the child: vforker PROG ARG. */
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
	if (argc < 3)
		return 2;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid_t pid = vfork();
	if (pid == 0) {
		execl(argv[1], argv[1], argv[2], (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	printf("parent %d %zu\n", WEXITSTATUS(st), strlen("done"));
	return 0;
}
