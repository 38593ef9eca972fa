/* Job control seen by the real parent: the child stops itself, the parent
 * sees it stopped (WUNTRACED), continues it, sees it continued
 * (WCONTINUED) and then its exit.  The output must be the same traced
 * (with -f, the child traced) as untraced.  The child prints only after
 * the parent has (a pipe orders them). */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void)
{
	int st, fds[2];
	char c;
	pid_t pid;
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pipe(fds);
	pid = fork();
	if (pid == 0) {
		raise(SIGSTOP);
		read(fds[0], &c, 1);
		printf("child %zu\n", strlen("continued"));
		fflush(stdout);
		_exit(4);
	}
	waitpid(pid, &st, WUNTRACED);
	printf("stopped %d sig %d\n", WIFSTOPPED(st), WIFSTOPPED(st) ? WSTOPSIG(st) : 0);
	fflush(stdout);
	kill(pid, SIGCONT);
	waitpid(pid, &st, WCONTINUED);
	printf("continued %d\n", WIFCONTINUED(st));
	fflush(stdout);
	write(fds[1], "x", 1);
	waitpid(pid, &st, 0);
	printf("exited %d status %d\n", WIFEXITED(st), WEXITSTATUS(st));
	return 0;
}
