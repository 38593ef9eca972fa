/* Threads share the breakpoints.  Without -f their calls are serviced
 * but not shown, as ltrace does; the main thread's calls are. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *worker(void *arg)
{
	unsigned long n = 0;
	for (int i = 0; i < 1000; i++) {
		char *p = malloc(32);
		n += strlen(strcpy(p, (const char *)arg));
		free(p);
	}
	return (void *)n;
}

int main(void)
{
	pthread_t t[4];
	void *r;
	unsigned long total = 0;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, "worker");
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		total += (unsigned long)r;
	}
	printf("%lu\n", total);
	return 0;
}
