/* A program that keeps a library function's address, read in its GOT
 * slot, and calls it after the tracer has gone.  Its free() is called
 * through the stub and read as an address (keep = free), so the slot is
 * a GLOB_DAT one that both use; with --fast it held the recorder's
 * trampoline while traced.
 *
 *   addrkeep attach NAME: writes NAME.ready, frees in a loop; at
 *	NAME.act keeps free's address, writes NAME.acted; at NAME.call
 *	(the tracer gone) calls it 10000 times, prints "ok", exits 0.
 *   addrkeep fork: keeps free's address after 10 calls, forks; the
 *	child calls it 100000 times (more than a ring holds) and exits 0;
 *	prints "ok" if it did, else its wait status, and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stepfile.h"

static void (*volatile keep)(void *);

static void once(void)
{
	char *volatile p = malloc(16);
	free(p);
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "attach")) {
		step_put(argv[2], "ready");
		while (!step_there(argv[2], "act")) {
			once();
			usleep(2000);
		}
		keep = free;
		step_put(argv[2], "acted");
		while (!step_there(argv[2], "call")) {
			once();
			usleep(2000);
		}
		for (int i = 0; i < 10000; i++)
			keep(malloc(16));
		puts("ok");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "fork")) {
		for (int i = 0; i < 10; i++)
			once();
		keep = free;
		pid_t c = fork();
		if (c == 0) {
			for (int i = 0; i < 100000; i++)
				keep(malloc(16));
			_exit(0);
		}
		int st = -1;
		if (c < 0 || waitpid(c, &st, 0) != c || st != 0) {
			printf("child wait status %#x\n", st);
			return 1;
		}
		puts("ok");
		return 0;
	}
	return 2;
}
