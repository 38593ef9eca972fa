/* A conf file's own type named fd (ltrace 0.7.3 has no fd type, so a
 * file written for it may define one) wins over the builtin fd within
 * that file; the builtin still serves the files that do not. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	int fd = open("/dev/null", O_RDONLY);

	fsync(fd);
	close(fd);
	return 0;
}
