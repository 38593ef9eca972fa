/* Plain libc calls through the PLT; built lazy, -z now, and with IBT
 * (.plt.sec) by the plt_* tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *p = malloc(32);
	size_t n = strlen("hello");

	puts("hello");
	printf("%s %d\n", "fmt", (int)n);
	free(p);
	return 0;
}
