/* A fork child that moves the --fast recorder's ring head more than a
 * lap ahead of its tail, then makes N calls of strlen; the parent waits
 * for it.  Untraced, or in ptrace mode, there is no ring: the calls are
 * made all the same.  Usage: fast_forkhead N */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "recfind.h"

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, total = 0;
	for (int i = 0; i < 5; i++)
		total += (long)strlen("warm");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct rec_shared *s = rec_find();
		if (s)
			__atomic_fetch_add(&s->head, 3 * s->size,
					   __ATOMIC_ACQ_REL);
		for (long i = 0; i < n; i++)
			total += (long)strlen("child");
		printf("child %ld\n", total);
		return 0;
	}
	int st = 0;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	for (long i = 0; i < n; i++)
		total += (long)strlen("parent");
	printf("parent %ld, child status %d\n", total, st);
	return 0;
}
