/* writev of several iovecs and pread64 of big buffers under
 * -A 9999999 -s 9999999 (fast_bigcopy.opts): in --fast, recorded (a
 * loop over the iovecs; records up to 1 MiB; a call whose bytes pass a
 * record read at a stop), with the same text as in ptrace mode. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char lines[40][8];
	struct iovec iov[40];
	char *buf = calloc(1, 1600001);
	int fd = argc > 1 ? open(argv[1], O_RDONLY) : -1;
	int out = open("/dev/null", O_WRONLY);

	if (!buf || fd < 0 || out < 0)
		return 1;
	for (int i = 0; i < 40; i++) {
		snprintf(lines[i], sizeof(lines[i]), "l%02d\n", i);
		iov[i].iov_base = lines[i];
		iov[i].iov_len = 4;
	}
	pread64(fd, buf, 100000, 0);
	pread64(fd, buf, 1500000, 0);
	writev(out, iov, 5);
	writev(out, iov, 40);
	struct iovec big[2] = { { buf, 1200000 }, { lines[7], 4 } };
	writev(out, big, 2);
	return 0;
}
