/* A growable byte buffer for building text.  The contents are always
 * NUL-terminated.  Lifecycle: strbuf_init / strbuf_destroy. */
#ifndef LTRACE_STRBUF_H
#define LTRACE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
};

void strbuf_init(struct strbuf *sb);
void strbuf_destroy(struct strbuf *sb);
void strbuf_reset(struct strbuf *sb);
void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Make room for at least n more bytes. */
void strbuf_grow(struct strbuf *sb, size_t n);
void strbuf_truncate(struct strbuf *sb, size_t len);

#endif
