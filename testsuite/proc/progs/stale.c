/* stale: a traced call gets a pointer to memory the program has just
 * unmapped or protected, or to a file's page past its end.  The prototype
 * file says labs takes a string, but labs only looks at the number: under
 * --fast the recorder's direct copy of that "string" faults, and the
 * program must never see that fault.
 *
 *   stale unmap|protect|bus
 *
 * Prints "done", or "caught SIG" and exits 3 if a SIGSEGV or SIGBUS
 * reached it, or "handler lost" if its handler is no longer installed. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define PAGE 4096

/* In the executable's own mapping, there before the tracer first reads
 * the process's mappings. */
static volatile long sink;
static char area[3 * PAGE] __attribute__((aligned(PAGE)));

static void on_fault(int sig)
{
	char msg[32];
	int n = snprintf(msg, sizeof(msg), "caught %d\n", sig);
	(void)!write(1, msg, (size_t)n);
	_exit(3);
}

static int stale_file(void)
{
	FILE *f = tmpfile();
	if (!f || fputs("in the file", f) < 0 || fflush(f))
		return -1;
	char *m = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fileno(f), 0);
	if (m == MAP_FAILED)
		return -1;
	/* Until the tracer has read the new mapping in (its copies miss
	 * it until then). */
	for (int i = 0; i < 100; i++) {
		sink += labs((long)(uintptr_t)m);
		usleep(2000);
	}
	/* The second page lies past the file's end: SIGBUS. */
	sink += labs((long)(uintptr_t)(m + PAGE));
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "unmap";
	struct sigaction sa = { .sa_handler = on_fault };
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	char *p = area + PAGE;
	strcpy(p, "mapped");
	for (int i = 0; i < 3; i++)
		sink += labs((long)(uintptr_t)p);
	if (!strcmp(mode, "bus")) {
		if (stale_file())
			return 1;
	} else {
		int rc = !strcmp(mode, "unmap") ? munmap(p, PAGE) :
						  mprotect(p, PAGE, PROT_NONE);
		if (rc)
			return 1;
		sink += labs((long)(uintptr_t)p);
		sink += labs((long)(uintptr_t)(p + 8));
	}
	struct sigaction old;
	sigaction(SIGSEGV, NULL, &old);
	if (old.sa_handler != on_fault) {
		puts("handler lost");
		return 1;
	}
	puts("done");
	return 0;
}
