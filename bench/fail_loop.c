/* errno workload: N calls of open() that fail with ENOENT, then N calls
 * of strtol() on a number that fits (errno(changed): errno is read at
 * its entry and at its return).
 * usage: fail_loop N */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 50000;
	long fails = 0, sum = 0;

	for (long i = 0; i < n; i++)
		fails += open("/nonexistent/fail_loop", O_RDONLY) < 0;
	for (long i = 0; i < n; i++) {
		errno = 0;
		sum += strtol("42", NULL, 10);
	}
	return fails == n && sum == 42 * n ? 0 : 1;
}
