/* sigrate USEC [ITERS]: three threads (main included) make ITERS
 * (default 30000) strlen calls each while a SIGALRM comes every USEC
 * microseconds (setitimer ITIMER_REAL), its handler one strlen call.
 * Prints "deliveries N sum S" once the signal is blocked and the timer
 * off: a traced run must show 3 * ITERS + N strlen calls, N signal
 * lines, and S (the lengths' sum) as untraced. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t count;
static int iters;

static void handler(int sig)
{
	(void)sig;
	if (strlen("alarm-handler") == 13)
		__sync_fetch_and_add(&count, 1);
}

static void *loop(void *arg)
{
	long s = 0;
	for (int i = 0; i < iters; i++)
		s += (long)strlen((const char *)arg + i % 4);
	return (void *)s;
}

int main(int argc, char **argv)
{
	long us = argc > 1 ? atol(argv[1]) : 200;
	iters = argc > 2 ? atoi(argv[2]) : 30000;
	struct sigaction sa = { .sa_handler = handler };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, us }, { 0, us } };
	setitimer(ITIMER_REAL, &it, NULL);
	pthread_t th[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, loop, "thread");
	long sum = (long)loop("main");
	for (int i = 0; i < 2; i++) {
		void *r;
		pthread_join(th[i], &r);
		sum += (long)r;
	}
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("deliveries %d sum %ld\n", (int)count, sum);
	return 0;
}
