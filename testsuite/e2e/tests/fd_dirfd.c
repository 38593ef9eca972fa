/* The *at calls' directory descriptors: AT_FDCWD by name, with -y
 * followed by the working directory, as strace -y shows it; a directory
 * opened with O_DIRECTORY names itself. */
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
	int d, f, i;

	mkdir("sub", 0755);
	for (i = 0; i < 2; i++) {
		d = open("sub", O_RDONLY | O_DIRECTORY, 0);
		f = openat(d, "f.txt", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		close(f);
		unlinkat(d, "f.txt", 0);
		f = openat(AT_FDCWD, "sub", O_RDONLY | O_DIRECTORY, 0);
		close(f);
		close(d);
	}
	rmdir("sub");
	return 0;
}
