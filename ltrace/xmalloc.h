/* Allocation for tracer-internal data: dies with a message on failure. */
#ifndef LTRACE_XMALLOC_H
#define LTRACE_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
/* realloc to n * size, checking the multiplication. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

#endif
