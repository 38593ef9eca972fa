/* xthreads NTHREADS NCALLS [READY STOP]: NTHREADS threads start
 * together (a barrier) and each calls the program's own function
 * xlen(its tag) NCALLS times (traced with -x), checking the results,
 * while one more thread waits in read() on a pipe that main writes to
 * once they are done; main prints the total.  With READY and STOP
 * (attach): main writes its pid to READY once the threads run, and
 * they call until the file STOP exists, with a 100 us sleep every 8
 * calls; main prints "ok" if every result was right. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long ncalls;
static const char *stop;
static pthread_barrier_t go;
static int pfd[2];
static volatile int bad;
static const char *tags[] = { "t0", "t01", "t012", "t0123", "t01234",
	"t012345", "t0123456", "t01234567", "t012345678", "t0123456789" };

__attribute__((noinline)) long xlen(const char *s)
{
	long n = 0;
	while (s[n])
		n++;
	return n;
}

static void *worker(void *arg)
{
	long i, n = 0;
	const char *tag = arg;
	long want = 0;
	while (tag[want])
		want++;
	pthread_barrier_wait(&go);
	for (i = 0; stop ? access(stop, F_OK) != 0 : i < ncalls; i++) {
		long l = xlen(tag);
		if (l != want) {
			bad = 1;
			return (void *)-1L;
		}
		n += l;
		if (stop && i % 8 == 7)
			usleep(100); /* a trace that an attach test can read */
	}
	return (void *)n;
}

/* In read() the whole time: an interrupt must restart it, not fail it. */
static void *reader(void *arg)
{
	char c = 0;
	(void)arg;
	return (void *)(long)(read(pfd[0], &c, 1) == 1 && c == 'x' ? 0 : -1);
}

int main(int argc, char **argv)
{
	pthread_t t[10], rd;
	int i, nt = argc > 1 ? atoi(argv[1]) : 4;
	long total = 0;
	void *r;
	ncalls = argc > 2 ? atol(argv[2]) : 1000;
	stop = argc > 4 ? argv[4] : NULL;
	if (nt < 1 || nt > 10 || pipe(pfd))
		return 2;
	pthread_create(&rd, NULL, reader, NULL);
	pthread_barrier_init(&go, NULL, nt + 1);
	for (i = 0; i < nt; i++)
		pthread_create(&t[i], NULL, worker, (void *)tags[i]);
	pthread_barrier_wait(&go);
	if (stop) {
		char tmp[4096];
		FILE *f;
		snprintf(tmp, sizeof tmp, "%s.tmp", argv[3]);
		f = fopen(tmp, "w");
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
		rename(tmp, argv[3]);
	}
	for (i = 0; i < nt; i++) {
		pthread_join(t[i], &r);
		if ((long)r < 0) {
			printf("thread %d got a wrong result\n", i);
			return 1;
		}
		total += (long)r;
	}
	if (write(pfd[1], "x", 1) != 1)
		return 1;
	pthread_join(rd, &r);
	if ((long)r != 0) {
		puts("read() failed");
		return 1;
	}
	if (stop)
		puts(bad ? "wrong result" : "ok");
	else
		printf("total %ld\n", total);
	return 0;
}
