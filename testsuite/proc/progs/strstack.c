/* strstack NTHREADS NCALLS: each thread formats a string on its own
 * stack with snprintf and takes its strlen, NCALLS times; main prints
 * the total.  The strings live on thread stacks mapped after the start,
 * the case where a recorder's copy must go by system call until the
 * tracer learns the mapping. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <string.h>

static long ncalls;

static void *worker(void *arg)
{
	long id = (long)arg, n = 0;
	char buf[64];
	for (long i = 0; i < ncalls; i++) {
		int want = snprintf(buf, sizeof(buf), "t%ld-%ld", id, i % 10);
		if (strlen(buf) != (size_t)want)
			return (void *)-1L;
		n += want;
	}
	return (void *)n;
}

int main(int argc, char **argv)
{
	pthread_t t[10];
	int nt = argc > 1 ? atoi(argv[1]) : 4;
	long total = 0;
	void *r;
	ncalls = argc > 2 ? atol(argv[2]) : 1000;
	if (nt < 1 || nt > 10)
		return 2;
	for (long i = 0; i < nt; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < nt; i++) {
		pthread_join(t[i], &r);
		total += (long)r;
	}
	printf("total %ld\n", total);
	return 0;
}
