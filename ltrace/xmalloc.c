#include "xmalloc.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

static void *check(void *p)
{
	if (!p)
		error_msg_and_die("out of memory");
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xcalloc(size_t n, size_t size)
{
	return check(calloc(n ? n : 1, size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return check(realloc(p, size ? size : 1));
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		error_msg_and_die("out of memory");
	return xrealloc(p, n * size);
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n));
}
