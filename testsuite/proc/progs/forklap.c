/* Writes 300 times 512 lines with writev to /dev/null, and forks a
 * child that exits at once before every 10th: after each fork the
 * parent's --fast ring is shared copy-on-write, and the pages of its
 * next records are new pages (fast_lap's fork variant).  Lines are
 * "L<n>\n"; the program prints the number of writev calls. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define NIOV 512

static char text[NIOV][16];
static struct iovec iov[NIOV];

int main(void)
{
	int fd = open("/dev/null", O_WRONLY);
	int calls = 0;

	if (fd < 0)
		return 1;
	for (int round = 0; round < 300; round++) {
		if (round % 10 == 0) {
			pid_t c = fork();
			if (c == 0)
				_exit(0);
			if (c < 0 || waitpid(c, NULL, 0) != c)
				return 1;
		}
		for (int i = 0; i < NIOV; i++) {
			int n = snprintf(text[i], sizeof(text[i]), "L%d\n",
					 round * NIOV + i);
			iov[i].iov_base = text[i];
			iov[i].iov_len = (size_t)n;
		}
		if (writev(fd, iov, NIOV) < 0)
			return 1;
		calls++;
	}
	printf("%d\n", calls);
	return 0;
}
