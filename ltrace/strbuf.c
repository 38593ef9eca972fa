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

static const char two_digits[201] = "00010203040506070809"
				    "10111213141516171819"
				    "20212223242526272829"
				    "30313233343536373839"
				    "40414243444546474849"
				    "50515253545556575859"
				    "60616263646566676869"
				    "70717273747576777879"
				    "80818283848586878889"
				    "90919293949596979899";

char *strbuf_udec_digits(char *end, uint64_t u)
{
	char *p = end;

	while (u >= 100) {
		unsigned r = (unsigned)(u % 100);
		u /= 100;
		p -= 2;
		memcpy(p, two_digits + 2 * r, 2);
	}
	if (u >= 10) {
		p -= 2;
		memcpy(p, two_digits + 2 * u, 2);
	} else {
		*--p = (char)('0' + u);
	}
	return p;
}

void strbuf_add_udec_w(struct strbuf *sb, uint64_t u, unsigned width, char pad)
{
	char b[20];
	char *p = strbuf_udec_digits(b + sizeof(b), u);
	size_t n = (size_t)(b + sizeof(b) - p);
	size_t fill = width > n ? width - n : 0;
	char *o = strbuf_reserve(sb, fill + n);

	memset(o, pad, fill);
	memcpy(o + fill, p, n);
	strbuf_commit(sb, o + fill + n);
}

void strbuf_add_dec(struct strbuf *sb, int64_t x)
{
	if (x < 0) {
		strbuf_addch(sb, '-');
		strbuf_add_udec(sb, -(uint64_t)x);
	} else {
		strbuf_add_udec(sb, (uint64_t)x);
	}
}

void strbuf_add_hex(struct strbuf *sb, uint64_t u)
{
	char b[16];
	char *p = b + sizeof(b);

	do
		*--p = "0123456789abcdef"[u & 15];
	while (u >>= 4);
	strbuf_add(sb, p, (size_t)(b + sizeof(b) - p));
}

void strbuf_add_oct(struct strbuf *sb, uint64_t u)
{
	char b[22];
	char *p = b + sizeof(b);

	do
		*--p = (char)('0' + (u & 7));
	while (u >>= 3);
	strbuf_add(sb, p, (size_t)(b + sizeof(b) - p));
}
