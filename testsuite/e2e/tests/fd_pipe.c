/* -y: a pipe's ends and an eventfd, as strace -y spells them:
 * "pipe:[INODE]" and "anon_inode:[eventfd]"; pipe's out array of two
 * descriptors shown at the return. */
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

int main(void)
{
	uint64_t one = 1;
	char buf[8];
	int p[2], e, i;

	for (i = 0; i < 2; i++) {
		pipe(p);
		write(p[1], "ab", 2);
		read(p[0], buf, sizeof(buf));
		close(p[1]);
		close(p[0]);
		e = eventfd(0, 0);
		write(e, &one, sizeof(one));
		close(e);
	}
	return 0;
}
