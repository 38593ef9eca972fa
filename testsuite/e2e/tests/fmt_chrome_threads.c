/* Two threads, one after the other, each making one call: with -f,
 * chrome shows each on its own track. */
#include <pthread.h>
#include <string.h>

static void *worker(void *arg)
{
	return (void *)strlen(arg);
}

int main(void)
{
	unsigned long n = 0;
	for (int i = 0; i < 2; i++) {
		pthread_t t;
		void *r;
		pthread_create(&t, NULL, worker, i ? "second" : "first");
		pthread_join(t, &r);
		n += (unsigned long)r;
	}
	return n != 11;
}
