/* errno after failed calls whose prototypes say when they fail
 * (errno(...) in libc.so.conf): fopen and opendir (nil), open, openat,
 * close, read and write (-1), each with the errno the thread's libc
 * set, also as root (no permission failure: root has them all).  Calls
 * that succeed show none, though errno keeps the last failure's. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	char c;
	FILE *f = fopen("/nonexistent/x", "r");
	int fd = open("/nonexistent", O_RDONLY, 0);
	fd = open(".", O_WRONLY, 0);
	fd = openat(AT_FDCWD, "/dev/null/x", O_RDONLY, 0);
	DIR *d = opendir("/nonexistent");
	d = opendir("/dev/null");
	close(-1);
	read(-1, &c, 1);
	/* errno is ENOTDIR, EBADF...: these succeed and show none */
	fd = open("/dev/null", O_RDWR, 0);
	write(fd, "x", 1);
	read(fd, &c, 1);
	f = fopen("/dev/null", "r");
	fclose(f);
	close(fd);
	d = opendir("/");
	return d == NULL;
}
