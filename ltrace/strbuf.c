#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

void strbuf_init(struct strbuf *sb)
{
	sb->s = NULL;
	sb->len = 0;
	sb->cap = 0;
	strbuf_grow(sb, 64);
}

void strbuf_destroy(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}

void strbuf_grow(struct strbuf *sb, size_t n)
{
	if (sb->len + n + 1 <= sb->cap)
		return;
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < sb->len + n + 1)
		cap *= 2;
	sb->s = xrealloc(sb->s, cap);
	sb->cap = cap;
	sb->s[sb->len] = '\0';
}

/* Formatted in place: into the room there is, and again after growing
 * when that was too small. */
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, ap);
	if (n >= 0 && (size_t)n >= sb->cap - sb->len) {
		strbuf_grow(sb, n);
		vsnprintf(sb->s + sb->len, sb->cap - sb->len, fmt, again);
	}
	va_end(again);
	if (n >= 0)
		sb->len += n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}
