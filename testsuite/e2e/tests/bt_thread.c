/* -w -f in a thread: its frames are its own stack's, unwound from its
 * registers in the process's address space. */
#include <pthread.h>
#include <string.h>

static size_t g(const char *s)
{
	return strlen(s); /* line 8 */
}

static void *worker(void *arg)
{
	return (void *)g(arg); /* line 13 */
}

int main(void)
{
	pthread_t t;
	void *ret = NULL;

	pthread_create(&t, NULL, worker, "thread");
	pthread_join(t, &ret);
	return ret == (void *)6 ? 0 : 1;
}
