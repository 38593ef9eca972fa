/* The target of sig_detach: traploop READY OUT STOP.  Two threads loop:
 * a traced call, raise(SIGTRAP), a trap instruction (int3, brk: the e2e
 * tests' trap.h), each followed by a check that the SIGTRAP handler ran
 * exactly once for it (in that thread).  Once both run, main writes its pid to READY.  When the file STOP exists it
 * writes "ok N" (N loops) to OUT and exits 0; a SIGTRAP lost or extra
 * writes "lost ..." or "extra ..." and exits 4. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../e2e/tests/trap.h"

static __thread volatile long handled;
static volatile int running, stop;
static const char *out;

static void on_trap(int sig)
{
	(void)sig;
	handled++;
}
TRAP_HANDLER(on_trap)

static void put(const char *path, const char *text)
{
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f || fputs(text, f) < 0 || fclose(f) || rename(tmp, path))
		exit(5);
}

static void check(long want, const char *what)
{
	char buf[64];
	if (handled == want)
		return;
	snprintf(buf, sizeof buf, "%s %s\n", handled < want ? "lost" : "extra",
		 what);
	put(out, buf);
	_exit(4);
}

static void *loop(void *arg)
{
	long n = 0;
	(void)arg;
	__sync_fetch_and_add(&running, 1);
	while (!stop) {
		if (atol("7") != 7)
			abort();
		raise(SIGTRAP);
		check(++n, "raise");
		TRAP();
		check(++n, "trap");
	}
	return (void *)n;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	out = argv[2];
	on_trap_install();
	pthread_t t;
	pthread_create(&t, NULL, loop, NULL);
	while (running < 1)
		usleep(1000);
	char buf[64];
	snprintf(buf, sizeof buf, "%d\n", (int)getpid());
	put(argv[1], buf);
	while (access(argv[3], F_OK) != 0)
		usleep(10000);
	stop = 1;
	void *n;
	pthread_join(t, &n);
	snprintf(buf, sizeof buf, "ok %ld\n", (long)n > 0 ? 1L : 0L);
	put(out, buf);
	return 0;
}
