/* SIGTRAP in a second thread, traced with -f: the thread runs a trap
 * instruction (int3, brk) right after a traced call (under the tracer's
 * return breakpoint) and another elsewhere, raises SIGTRAP, and gets one
 * from the main thread (pthread_kill); its handler runs each time, in
 * that thread, as untraced.  Main waits for it at each step, so the order
 * is fixed. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "trap.h"

static volatile int n, wrong;
static pthread_t worker_id;
static volatile int go;

static void on_trap(int sig)
{
	(void)sig;
	if (!pthread_equal(pthread_self(), worker_id))
		wrong++;
	n++;
}
TRAP_HANDLER(on_trap)

static void *worker(void *arg)
{
	(void)arg;
	puts("worker");
	TRAP();
	n += 10;
	TRAP();
	raise(SIGTRAP);
	go = 1;
	while (n < 14)
		;
	printf("worker handled %d\n", n);
	return NULL;
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	on_trap_install();
	pthread_create(&worker_id, NULL, worker, NULL);
	while (!go)
		;
	pthread_kill(worker_id, SIGTRAP);
	pthread_join(worker_id, NULL);
	/* Not traced: its line would race the worker's exit line. */
	fprintf(stdout, "handled %d, %d in another thread\n", n, wrong);
	return n;
}
