/* The program leaves a traced call from a signal handler: read() on a
 * pipe blocks, a child (untraced without -f) sends SIGALRM once /proc
 * shows the parent blocked in read(2), and the handler, by ARGV[1]:
 *   _exit    calls _exit(7);
 *   exit     calls exit(5), which runs an atexit handler;
 *   longjmp  siglongjmps back to main, which reads again (the child has
 *            gone: the pipe is at its end) and exits 0.
 *   thread   calls _exit(9) while a second thread is blocked in a
 *            traced read() of its own (traced with -f).
 * The trace must end with the program's own status, the read left
 * unfinished where it never returned. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char mode; /* ARGV[1]'s first letter: no traced strcmp */
static sigjmp_buf env;

static void at_end(void)
{
	puts("atexit");
}

static int idle[2]; /* the second thread's pipe, never written */

static void *blocked(void *arg)
{
	char c;
	(void)arg;
	read(idle[0], &c, 1);
	return NULL;
}

static void handler(int sig)
{
	(void)sig;
	if (mode == '_')
		_exit(7);
	if (mode == 't')
		_exit(9);
	if (mode == 'e')
		exit(5);
	siglongjmp(env, 1);
}

/* Wait (bounded) for PARENT to block in read(2) on FD, then SIGALRM it. */
static void alarm_in_read(pid_t parent, int fd)
{
	char path[64], buf[128];
	snprintf(path, sizeof path, "/proc/%d/syscall", (int)parent);
	for (int i = 0; i < 100000; i++) {
		FILE *f = fopen(path, "r");
		int nr = -1;
		unsigned long got = ~0UL;
		if (f && fgets(buf, sizeof buf, f) &&
		    sscanf(buf, "%d %lx", &nr, &got) == 2 && nr == 0 &&
		    got == (unsigned long)fd) {
			kill(parent, SIGALRM);
			_exit(0);
		}
		if (f)
			fclose(f);
		usleep(1000);
	}
	_exit(1);
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t set;
	int fds[2];
	char c;
	mode = argc > 1 ? argv[1][0] : 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = handler;
	sigaction(SIGALRM, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
	atexit(at_end);
	if (mode == 't') {
		pthread_t t;
		pipe(idle);
		pthread_create(&t, NULL, blocked, NULL);
	}
	pipe(fds);
	pid_t pid = fork();
	if (pid == 0) /* it holds the write end until it exits */
		alarm_in_read(getppid(), fds[0]);
	close(fds[1]);
	if (sigsetjmp(env, 1) == 0) {
		read(fds[0], &c, 1);
		puts("not reached");
		return 1;
	}
	ssize_t r = read(fds[0], &c, 1); /* the child has gone: EOF */
	printf("jumped, then read %d\n", (int)r);
	return 0;
}
