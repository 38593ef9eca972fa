/* N rounds of two calls whose text is read at the return (run passes
 * -DN): pread64 of 8 bytes of the file ARGV[1] (an out-parameter,
 * "+string[retval]") and getenv (a returned string).  Under --fast both
 * are recorded in the process, their memory copied as they return. */
#define _LARGEFILE64_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef N
#define N 10000
#endif

int main(int argc, char **argv)
{
	char buf[8];
	long sum = 0;

	if (argc < 2 || setenv("BUDGET_VAL", "seen", 1))
		return 2;
	int fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return 2;
	for (int i = 0; i < N; i++) {
		sum += pread64(fd, buf, sizeof(buf), 0);
		const char *v = getenv("BUDGET_VAL");
		sum += v && !strcmp(v, "seen");
	}
	return sum == (long)N * 9 ? 0 : 1;
}
