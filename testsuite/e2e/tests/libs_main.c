/* A program linked with two libraries of its own (libs_foo.c,
 * libs_bar.c): it calls into both, libfoo calls libc and libbar through
 * its own PLT.  For the selection tests (libs_*.opts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t foo_len(const char *s);
int bar_add(int a, int b);

int main(void)
{
	size_t n = foo_len("abc");
	int s = bar_add(2, 3);
	char *p = malloc(16);

	memset(p, 'x', 15);
	p[15] = '\0';
	printf("%zu %d %zu\n", n, s, strlen(p));
	free(p);
	return 0;
}
