/* A thread other than the main one execs: the process continues under
 * the leader's pid, the old thread id vanishes without an exit report,
 * and the tracer must neither wait for it nor lose the new program.  The
 * thread waits on a flag the main thread sets with no traced call, after
 * pthread_create has returned, so the trace does not depend on timing. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static atomic_int go;

static void *run(void *arg)
{
	(void)arg;
	while (!atomic_load(&go))
		;
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
	atomic_store(&go, 1);
	for (;;)
		;	/* until the exec replaces us */
}
