/* The attach target: loop READY STOP [NTHREADS].  Writes its pid to
 * READY once running, then NTHREADS threads (default 1: main alone) loop
 * making traced calls and checking their results until the file STOP
 * exists; prints "ok" and exits 0 if every result was right, else prints
 * what went wrong and exits 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *stop;
static volatile int bad;

static void *worker(void *arg)
{
	long i = 0;
	char buf[64];
	(void)arg;
	while (access(stop, F_OK) != 0) {
		snprintf(buf, sizeof buf, "%ld", i);
		if (atol(buf) != i || strlen(buf) != (size_t)snprintf(NULL, 0, "%ld", i)) {
			bad = 1;
			break;
		}
		i++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[16];
	int i, nt;
	FILE *f;
	char tmp[4096];
	if (argc < 3)
		return 2;
	stop = argv[2];
	nt = argc > 3 ? atoi(argv[3]) : 1;
	if (nt < 1 || nt > 16)
		return 2;
	for (i = 1; i < nt; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	rename(tmp, argv[1]);
	worker(NULL);
	for (i = 1; i < nt; i++)
		pthread_join(t[i], NULL);
	if (bad) {
		puts("wrong result");
		return 1;
	}
	puts("ok");
	return 0;
}
