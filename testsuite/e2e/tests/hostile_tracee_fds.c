/* A program that takes over every file descriptor: it lists its open
 * descriptors (traced, the list must be the untraced run's: the tracer
 * leaks none of its own, its -o file included), closes them all
 * (close_range 0..~0), opens /dev/null and dup2s it over 0..1023, then
 * makes more traced calls.  The tracer's own descriptors live in its own
 * table, so the trace goes on to the end.  Exit status: 0 if the
 * program then holds exactly 1024 descriptors. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The open descriptors but the listing's own, printed; the calls go
 * through pointers, untraced, since what the environment holds open
 * varies: the trace is the same everywhere, and stdout, which the test
 * compares with the untraced run's, says whether the tracer leaked a
 * descriptor. */
static void list_fds(void)
{
	DIR *(*volatile op)(const char *) = opendir;
	struct dirent *(*volatile rd)(DIR *) = readdir;
	int (*volatile fdof)(DIR *) = dirfd;
	int (*volatile cl)(DIR *) = closedir;
	int (*volatile pr)(const char *, ...) = printf;
	long (*volatile num)(const char *, char **, int) = strtol;
	DIR *d = op("/proc/self/fd");
	struct dirent *e;
	if (!d)
		return;
	while ((e = rd(d))) {
		int fd = (int)num(e->d_name, NULL, 10);
		if (e->d_name[0] != '.' && fd != fdof(d))
			pr("fd %d\n", fd);
	}
	cl(d);
}

/* How many of the descriptors below 2048 are open, asked through a
 * pointer: 2048 calls the trace need not show. */
static int count_fds(void)
{
	int (*volatile getfd)(int, int, ...) = fcntl;
	int n = 0;
	for (int fd = 0; fd < 2048; fd++)
		n += getfd(fd, F_GETFD) >= 0;
	return n;
}

int main(void)
{
	list_fds();
	fflush(stdout);
	close_range(0, ~0U, 0);
	int nul = open("/dev/null", O_RDWR);
	/* Through a pointer: 1023 calls the trace need not show. */
	int (*volatile dup_to)(int, int) = dup2;
	for (int fd = 1; fd < 1024; fd++)
		dup_to(nul, fd);
	size_t n = strlen("after the takeover");
	write(1, "to /dev/null\n", n > 0 ? 13 : 0);
	return count_fds() == 1024 ? 0 : 1;
}
