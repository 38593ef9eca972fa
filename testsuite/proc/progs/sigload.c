/* sigload ITERS THREADS FLAGS USEC: a SIGALRM every USEC microseconds
 * whose handler makes one traced call (strlen), while THREADS threads
 * (main included) call atoi and leaf() in a loop ITERS times.  FLAGS:
 * n (SA_NODEFER: handlers may nest), s (each turn also makes a system
 * call, getppid), - (neither).  Prints "deliveries N" once the signal
 * is blocked and the timer off: N handler runs, each one strlen call;
 * a traced run must show N signal lines and N such calls. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t count;
static int iters;
static int syscalls;

__attribute__((noinline)) int leaf(int x)
{
	asm volatile("" ::: "memory");
	return x + 1;
}

static void handler(int sig)
{
	(void)sig;
	if (strlen("alarm-handler") == 13)
		__sync_fetch_and_add(&count, 1);
}

static void *loop(void *arg)
{
	long s = 0;
	for (int i = 0; i < iters; i++) {
		s += atoi("12") + leaf(i);
		if (syscalls)
			s += getppid() > 0;
	}
	return (void *)s;
}

int main(int argc, char **argv)
{
	iters = argc > 1 ? atoi(argv[1]) : 100000;
	int nthreads = argc > 2 ? atoi(argv[2]) : 1;
	const char *flags = argc > 3 ? argv[3] : "";
	syscalls = strchr(flags, 's') != NULL;
	struct sigaction sa = { .sa_handler = handler };
	if (strchr(flags, 'n'))
		sa.sa_flags |= SA_NODEFER;
	sigaction(SIGALRM, &sa, NULL);
	long us = argc > 4 ? atol(argv[4]) : 2000;
	struct itimerval it = { { 0, us }, { 0, us } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t th[16];
	for (int i = 1; i < nthreads && i < 16; i++)
		pthread_create(&th[i], NULL, loop, NULL);
	loop(NULL);
	for (int i = 1; i < nthreads && i < 16; i++)
		pthread_join(th[i], NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("deliveries %d\n", (int)count);
	return 0;
}
