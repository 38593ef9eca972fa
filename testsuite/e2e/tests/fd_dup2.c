/* -y: dup2 onto an open descriptor shows the file it replaces at the
 * entry and the one it holds at the return; dup's return names the file
 * it copies. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	int a, b, c, i;

	for (i = 0; i < 2; i++) {
		a = open("a.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		b = open("b.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(a, b);
		write(b, "a", 1);
		c = dup(b);
		close(c);
		close(b);
		close(a);
	}
	return 0;
}
