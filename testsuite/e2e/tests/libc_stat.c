/* The stat family through the shipped prototypes: dev, ino, nlink, mode
 * (octal), uid, gid, size and mtime of struct stat; statx's mask, nlink,
 * uid, gid, mode, ino, size and mtime. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct stat st;
	struct statx sx;
	struct timespec t[2] = { { 1000000000, 0 }, { 1234567890, 500 } };
	int fd = creat("f", 0600);

	ftruncate(fd, 4096);
	futimens(fd, t);
	fchmod(fd, 0641);
	fstat(fd, &st);
	close(fd);
	stat("f", &st);
	lstat("f", &st);
	fstatat(AT_FDCWD, "f", &st, AT_SYMLINK_NOFOLLOW);
	statx(AT_FDCWD, "f", 0, STATX_BASIC_STATS, &sx);
	stat("missing", &st);
	unlink("f");
	return 0;
}
