/* A shared library (built with -Wl,-soname,libfixture.so.1) that calls
 * libc through its own PLT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t fixture_call(const char *s)
{
	char *p = malloc(strlen(s) + 1);

	puts(s);
	free(p);
	return strlen(s);
}
