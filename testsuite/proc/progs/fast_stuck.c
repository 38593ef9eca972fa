/* A program that reserves a record of the --fast recorder's ring and
 * never commits it (one atomic add on the ring's head), then makes N
 * calls of strlen, with a 1 ms timer signal in "timer" mode, or of its
 * own function own_len in "x" mode (for -x own_len: its entry patched);
 * then, when given READY and STOP, it creates READY and waits for STOP
 * to exist; last it prints its total.  Untraced, or in ptrace mode,
 * there is no ring: the calls are made all the same.  Usage: fast_stuck
 * N plain|timer|x [READY STOP] */
#include <signal.h>
#include <stdlib.h>
#include <sys/time.h>
#include <unistd.h>

#include "recfind.h"

static volatile sig_atomic_t ticks;

__attribute__((noinline)) long own_len(const char *s)
{
	const char *p = s;
	while (*p)
		p++;
	__asm__ volatile("" ::: "memory");
	return p - s;
}

static void on_alarm(int sig)
{
	(void)sig;
	ticks++;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	long n = atol(argv[1]), total = 0;
	int timer = !strcmp(argv[2], "timer"), own = !strcmp(argv[2], "x");
	if (timer) {
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGALRM, &sa, NULL);
		struct itimerval it = { { 0, 1000 }, { 0, 1000 } };
		setitimer(ITIMER_REAL, &it, NULL);
	}
	for (int i = 0; i < 5; i++)
		total += own ? own_len("warm") : (long)strlen("warm");
	/* No call between the attack and the recorded calls stops in
	 * ptrace mode: they go into the ring, behind the reservation. */
	struct rec_shared *s = rec_find();
	if (s)
		__atomic_fetch_add(&s->head, 64, __ATOMIC_ACQ_REL);
	for (long i = 0; i < n; i++)
		total += own ? own_len("recorded") : (long)strlen("recorded");
	if (argc > 4) {
		FILE *r = fopen(argv[3], "w");
		if (!r)
			return 1;
		fputs("ready\n", r);
		fclose(r);
		while (access(argv[4], F_OK))
			usleep(1000);
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("total %ld\n", total);
	return 0;
}
