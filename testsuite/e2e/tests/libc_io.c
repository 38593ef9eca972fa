/* unistd I/O through the shipped libc.so.conf: open flags in octal, modes
 * in octal, buffers shown as exactly the bytes transferred (read: the
 * return value; write: the count; readv/writev: each iovec's length). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

int main(void)
{
	char buf[64];
	char a[4], b[7];
	struct iovec out[2] = { { "head", 4 }, { "er\nbody", 7 } };
	struct iovec in[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	int fd;

	fd = open("data", O_WRONLY | O_CREAT | O_TRUNC, 0640);
	write(fd, "hello, world\n", 13);
	pwrite64(fd, "HELLO", 5, 0);
	writev(fd, out, 2);
	close(fd);
	fd = open("data", O_RDONLY | O_CLOEXEC);
	read(fd, buf, 5);
	pread64(fd, buf, sizeof(buf), 7);
	lseek(fd, 0, SEEK_SET);
	readv(fd, in, 2);
	preadv(fd, in, 2, 13);
	read(fd, buf, sizeof(buf));
	close(fd);
	unlink("data");
	return 0;
}
