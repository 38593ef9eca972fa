/* libfoo.so for libs_main.c: calls libc and libbar through its PLT. */
#include <stdlib.h>
#include <string.h>

int bar_add(int a, int b);

size_t foo_len(const char *s)
{
	char *d = strdup(s);
	size_t n = strlen(d);

	free(d);
	return n + bar_add(1, 2);
}
