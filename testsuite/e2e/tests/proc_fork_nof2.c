/* Without -f a forked child runs untraced and correctly although it keeps
 * calling the functions that have breakpoints in the parent, forks a
 * grandchild and execs; none of their calls shows. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	sigset_t set;
	int st, i;
	size_t n = 0;
	if (argc > 1) { /* the exec'd program */
		printf("exec'd %zu\n", strlen(argv[1]));
		return 9;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pid_t pid = fork();
	if (pid == 0) {
		for (i = 0; i < 1000; i++)
			n += strlen("untraced");
		pid_t g = fork();
		if (g == 0) {
			printf("grandchild %zu\n", strlen("gc"));
			fflush(stdout);
			_exit(2);
		}
		waitpid(g, &st, 0);
		printf("child %zu %d\n", n, WEXITSTATUS(st));
		fflush(stdout);
		execl(argv[0], argv[0], "exec", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	printf("parent %d %zu\n", WEXITSTATUS(st), strlen("end"));
	return 0;
}
