/* The target of sig_fork: sigfork NCHILD [USEC].  A SIGALRM every USEC
 * microseconds (default 500: 2 kHz; a handler that counts) falls on main, which loops on strlen, while a second
 * thread forks NCHILD children one after the other; each child makes
 * 100 strlen calls and exits 0 if all were right.  Prints "ok" and
 * exits 0 if every child did, else says which did not. */
#include <pthread.h>
#include <stdlib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static const char text[] = "a string that strlen measures again and again";
static volatile sig_atomic_t alarms;
static volatile int done, bad;
static int nchild;

static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void *forker(void *arg)
{
	(void)arg;
	for (int i = 0; i < nchild && !bad; i++) {
		pid_t c = fork();
		if (c == 0) {
			for (int k = 0; k < 100; k++)
				if (strlen(text) != sizeof(text) - 1)
					_exit(1);
			_exit(0);
		}
		int st = 0;
		if (c < 0 || waitpid(c, &st, 0) != c || st != 0) {
			printf("child %d: status %#x\n", i, st);
			bad = 1;
		}
	}
	done = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	nchild = atoi(argv[1]);
	long usec = argc > 2 ? atol(argv[2]) : 500;
	if (usec < 1 || usec > 999999)
		return 2;
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, usec }, { 0, usec } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t t;
	if (pthread_create(&t, NULL, forker, NULL))
		return 2;
	while (!done)
		if (strlen(text) != sizeof(text) - 1)
			bad = 1;
	pthread_join(t, NULL);
	if (bad)
		return 1;
	printf("ok\n");
	return 0;
}
