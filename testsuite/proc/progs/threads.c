/* threads NTHREADS NCALLS: each thread calls strlen(its own tag) NCALLS
 * times and checks the results; main prints the total. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long ncalls;
static const char *tags[] = { "t0", "t01", "t012", "t0123", "t01234",
	"t012345", "t0123456", "t01234567", "t012345678", "t0123456789" };

static void *worker(void *arg)
{
	long i, n = 0;
	const char *tag = arg;
	size_t want = 0;
	while (tag[want])	/* not strlen: only the loop's calls count */
		want++;
	for (i = 0; i < ncalls; i++) {
		size_t l = strlen(tag);
		if (l != want)
			return (void *)-1L;
		n += l;
	}
	return (void *)n;
}

int main(int argc, char **argv)
{
	pthread_t t[10];
	int i, nt = argc > 1 ? atoi(argv[1]) : 4;
	long total = 0;
	void *r;
	ncalls = argc > 2 ? atol(argv[2]) : 1000;
	if (nt < 1 || nt > 10)
		return 2;
	for (i = 0; i < nt; i++)
		pthread_create(&t[i], NULL, worker, (void *)tags[i]);
	for (i = 0; i < nt; i++) {
		pthread_join(t[i], &r);
		if ((long)r < 0) {
			printf("thread %d got a wrong result\n", i);
			return 1;
		}
		total += (long)r;
	}
	printf("total %ld\n", total);
	return 0;
}
