/* Error conventions other than errno: pthread_mutex_trylock returns
 * the error number itself (errno(ret)), getaddrinfo an EAI_* code (an
 * enum; errno only for EAI_SYSTEM); unsetenv sets errno. */
#include <netdb.h>
#include <pthread.h>
#include <stdlib.h>

int main(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	struct addrinfo *r = NULL, h = { .ai_socktype = 42 };

	pthread_mutex_lock(&m);
	pthread_mutex_trylock(&m);
	pthread_mutex_unlock(&m);
	pthread_mutex_trylock(&m);
	pthread_mutex_unlock(&m);
	getaddrinfo(NULL, NULL, NULL, &r);
	getaddrinfo("127.0.0.1", "80", &h, &r);
	h.ai_socktype = 0;
	h.ai_family = 4242;
	getaddrinfo("127.0.0.1", "80", &h, &r);
	unsetenv("A=B");
	unsetenv("A");
	return 0;
}
