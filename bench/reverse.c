/* reverse-lines workload (after Debian bug #1042065): print the lines of
 * a file in reverse order.  The file is read from its end in 64 KiB chunks
 * with pread64(); the lines are written with writev() of up to 1024 iovecs,
 * one line each.  Build with -fno-builtin -D_FORTIFY_SOURCE=0 so that every
 * call goes through the PLT.
 *
 * usage: reverse FILE   (lines go to stdout)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#define CHUNK (64 * 1024)
#define NIOV 1024

static struct iovec iov[NIOV];
static int niov;

static void flush(void)
{
	int i = 0;
	while (i < niov) {
		ssize_t n = writev(1, iov + i, niov - i);
		if (n < 0) {
			perror("writev");
			exit(1);
		}
		/* partial writes: skip what went out */
		while (i < niov && (size_t)n >= iov[i].iov_len)
			n -= iov[i++].iov_len;
		if (i < niov && n > 0) {
			iov[i].iov_base = (char *)iov[i].iov_base + n;
			iov[i].iov_len -= n;
		}
	}
	niov = 0;
}

static void add(char *p, size_t len)
{
	iov[niov].iov_base = p;
	iov[niov].iov_len = len;
	if (++niov == NIOV)
		flush();
}

int main(int argc, char **argv)
{
	struct stat st;
	char *buf, *carry;
	size_t ncarry = 0, cap;
	off_t pos;
	int fd;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	/* buf holds one chunk followed by the start of the line that the
	 * previous (later in the file) chunk began in the middle of. */
	cap = 2 * CHUNK;
	buf = malloc(cap);
	carry = malloc(cap);
	if (!buf || !carry)
		return 1;
	pos = st.st_size;
	while (pos > 0) {
		size_t len = pos > CHUNK ? CHUNK : (size_t)pos;
		ssize_t got;
		size_t end, i;

		pos -= len;
		if (len + ncarry > cap) {
			cap = 2 * (len + ncarry);
			buf = realloc(buf, cap);
			if (!buf)
				return 1;
		}
		got = pread64(fd, buf, len, pos);
		if (got != (ssize_t)len) {
			perror("pread64");
			return 1;
		}
		memcpy(buf + len, carry, ncarry);
		end = len + ncarry;
		/* lines end at '\n'; walk back over them */
		i = end;
		while (i > 0) {
			size_t j = i - 1; /* the newline (or last byte) of a line */
			while (j > 0 && buf[j - 1] != '\n')
				j--;
			if (j == 0 && pos > 0)
				break; /* incomplete: carry it to the next chunk */
			add(buf + j, i - j);
			i = j;
		}
		flush(); /* the iovecs point into buf */
		if (i > cap)
			return 1;
		if (i > 0 && ncarry + i > cap) {
			carry = realloc(carry, 2 * i);
			if (!carry)
				return 1;
		}
		memcpy(carry, buf, i);
		ncarry = i;
	}
	flush();
	close(fd);
	return 0;
}
