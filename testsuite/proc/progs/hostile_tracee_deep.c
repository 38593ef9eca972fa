/* N nested traced calls (default 100000): bsearch's comparison callback
 * calls bsearch again, N deep, on a thread with a stack large enough.
 * With READY STOP arguments, once every call has returned it writes its
 * pid to READY and waits for STOP (testsuite/proc/tests/
 * hostile_tracee_deep.sh reads the tracer's peak memory meanwhile). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long depth_max, reached;
static const int one = 1;

static int cmp(const void *key, const void *elt)
{
	long d = *(const long *)key;
	(void)elt;
	if (d > reached)
		reached = d;
	if (d < depth_max) {
		long next = d + 1;
		if (!bsearch(&next, &one, 1, sizeof(one), cmp))
			return 1;
	}
	return 0;
}

static void *run(void *arg)
{
	long start = 1;
	(void)arg;
	return bsearch(&start, &one, 1, sizeof(one), cmp);
}

int main(int argc, char **argv)
{
	pthread_attr_t a;
	pthread_t t;
	void *r;
	depth_max = argc > 1 ? atol(argv[1]) : 100000;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, (size_t)depth_max * 512 + (1 << 20));
	if (pthread_create(&t, &a, run, NULL) || pthread_join(t, &r))
		return 2;
	printf("depth %ld found %d\n", reached, r != NULL);
	fflush(stdout);
	if (argc > 3) {
		FILE *f = fopen(argv[2], "w");
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		while (access(argv[3], F_OK))
			usleep(10000);
	}
	return r ? 0 : 1;
}
