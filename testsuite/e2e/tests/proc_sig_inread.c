/* A signal arrives inside a blocking traced call: read() on a pipe is
 * interrupted by SIGALRM, whose handler makes traced calls, and returns
 * -1 (EINTR, no SA_RESTART).  The signal is sent by a child (untraced
 * without -f) once /proc shows the parent blocked in read(2), so the order
 * is fixed; SIGCHLD is blocked so that it adds no line. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void handler(int sig)
{
	write(1, "alarm\n", strlen("alarm\n"));
}

int main(void)
{
	struct sigaction sa;
	sigset_t set;
	int fds[2], st;
	char c, path[64], buf[128];
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	pipe(fds);
	pid_t pid = fork();
	if (pid == 0) {
		/* Wait (bounded) for the parent to block in read(2) on fds[0]. */
		snprintf(path, sizeof path, "/proc/%d/syscall", (int)getppid());
		for (int i = 0; i < 100000; i++) {
			FILE *f = fopen(path, "r");
			if (f) {
				int nr = -1;
				unsigned long fd = ~0UL;
				if (fgets(buf, sizeof buf, f) &&
				    sscanf(buf, "%d %lx", &nr, &fd) == 2 &&
				    nr == 0 && fd == (unsigned long)fds[0]) {
					fclose(f);
					kill(getppid(), SIGALRM);
					_exit(0);
				}
				fclose(f);
			}
			usleep(1000);
		}
		_exit(1);
	}
	ssize_t r = read(fds[0], &c, 1);
	waitpid(pid, &st, 0);
	printf("read %d child %d\n", (int)r, WEXITSTATUS(st));
	return 0;
}
