/* A thread other than the main one execs: the process continues under
 * the leader's pid, the old thread id vanishes without an exit report,
 * and the tracer must neither wait for it nor lose the new image. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *run(void *arg)
{
	(void)arg;
	execl("/proc/self/exe", "prog", "again", (char *)NULL);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	if (argc > 1) {
		puts(argv[1]);
		return 4;
	}
	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	return 1;
}
