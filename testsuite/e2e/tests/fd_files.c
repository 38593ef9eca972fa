/* -y: descriptors of files named by their paths, at the entry (read,
 * close) and in return values (open); a closed descriptor is its number
 * alone, an unlinked file's path is followed by "(deleted)".  Each call
 * is made twice, so that --fast records the second. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char buf[8];
	int fd, i;

	for (i = 0; i < 2; i++) {
		fd = open("data.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		write(fd, "hello", 5);
		close(fd);
		fd = open("data.txt", O_RDONLY, 0);
		read(fd, buf, 5);
		lseek(fd, 1, SEEK_SET);
		close(fd);
		close(fd);
	}
	for (i = 0; i < 2; i++) {
		fd = open("gone.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		unlink("gone.txt");
		write(fd, "x", 1);
		close(fd);
	}
	return 0;
}
