/* A growable byte buffer for building text.  The contents are always
 * NUL-terminated.  Lifecycle: strbuf_init / strbuf_destroy. */
#ifndef LTRACE_STRBUF_H
#define LTRACE_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct strbuf {
	char *s;
	size_t len;
	size_t cap;
};

void strbuf_init(struct strbuf *sb);
void strbuf_destroy(struct strbuf *sb);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* Make room for at least n more bytes. */
void strbuf_grow(struct strbuf *sb, size_t n);

static inline void strbuf_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->s[len] = '\0';
	}
}

/* Inline, as appending below: every traced call resets a few. */
static inline void strbuf_reset(struct strbuf *sb)
{
	strbuf_truncate(sb, 0);
}

/* Appending is inline: the formatter appends a byte or a short run at a
 * time, millions of times for a large trace (issue 12), and the call
 * would cost more than the copy.  strbuf_grow is the slow path. */
static inline void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (sb->len + len + 1 > sb->cap)
		strbuf_grow(sb, len);
	memcpy(sb->s + sb->len, data, len);
	sb->len += len;
	sb->s[sb->len] = '\0';
}

static inline void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

static inline void strbuf_addch(struct strbuf *sb, char c)
{
	if (sb->len + 2 > sb->cap)
		strbuf_grow(sb, 1);
	sb->s[sb->len++] = c;
	sb->s[sb->len] = '\0';
}

/* Room for N more bytes, written by the caller at strbuf_end and
 * committed with strbuf_commit: for writers that know an upper bound of
 * what they append (an escaped run is at most 4 bytes a byte). */
static inline char *strbuf_reserve(struct strbuf *sb, size_t n)
{
	if (sb->len + n + 1 > sb->cap)
		strbuf_grow(sb, n);
	return sb->s + sb->len;
}

/* Take the bytes written up to END (within the last strbuf_reserve). */
static inline void strbuf_commit(struct strbuf *sb, char *end)
{
	sb->len = (size_t)(end - sb->s);
	sb->s[sb->len] = '\0';
}

/* Numbers without printf (its format parsing cost more than the digits
 * in a trace of many small values, issue 28).  Each appends what the
 * printf conversion in its comment would. */

/* "%0*" PRIu64 with WIDTH and PAD '0', "%*" PRIu64 with PAD ' ' (WIDTH
 * 0: "%" PRIu64); a number wider than WIDTH is never cut. */
void strbuf_add_udec_w(struct strbuf *sb, uint64_t u, unsigned width, char pad);
/* "%" PRId64 */
void strbuf_add_dec(struct strbuf *sb, int64_t x);
/* "%" PRIx64, lower case, no "0x" */
void strbuf_add_hex(struct strbuf *sb, uint64_t u);
/* "%" PRIo64 */
void strbuf_add_oct(struct strbuf *sb, uint64_t u);

/* The decimal digits of U, written backwards from END (room for 20):
 * the first digit.  Two digits a step, from a table. */
char *strbuf_udec_digits(char *end, uint64_t u);

/* "%" PRIu64 */
static inline void strbuf_add_udec(struct strbuf *sb, uint64_t u)
{
	char b[20];
	char *p = strbuf_udec_digits(b + sizeof(b), u);

	strbuf_add(sb, p, (size_t)(b + sizeof(b) - p));
}

#endif
