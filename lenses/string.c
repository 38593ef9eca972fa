/* string(T): character arrays as "text".  At most -s characters are read
 * (one more, to tell whether there is more), in chunks through the page
 * cache.  Arrays of 2- or 4-byte integers are wide strings, printed as
 * UTF-8 without an L prefix, as ltrace prints string(array(uint, zero)*);
 * an integer alone is one character ('a', 'Ф'). */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "lens.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

#define CHUNK 256
#define MAX_CHUNK (64 * 1024)

/* Reads the elements of one string in chunks that double from CHUNK up
 * to MAX_CHUNK, so a short string costs one small read and a 1 MiB one
 * (-s 9999999) a few dozen bulk reads; the printers take what a chunk
 * holds at once. */
struct chars {
	struct fmt_ctx *c;
	uint64_t addr;
	const unsigned char *local;
	size_t esz, want, pos, have, at;
	unsigned char *buf;
	size_t bufsz;
	unsigned char small[CHUNK];
};

/* Room for the next chunk: the inline buffer first, then a heap one of
 * twice the last size. */
static void grow_chunk(struct chars *s)
{
	if (!s->buf) {
		s->buf = s->small;
		s->bufsz = CHUNK;
	} else if (s->bufsz < MAX_CHUNK) {
		if (s->buf != s->small)
			free(s->buf);
		s->bufsz *= 2;
		s->buf = xmalloc(s->bufsz);
	}
}

/* The next chunk of elements into the buffer: false when not one of
 * them can be read. */
static bool refill(struct chars *s)
{
	grow_chunk(s);
	size_t room = s->bufsz / s->esz * s->esz;
	size_t k = (s->want - s->pos) * s->esz;
	if (k > room)
		k = room;
	if (s->local)
		memcpy(s->buf, s->local + s->pos * s->esz, k);
	else
		k = memsrc_read(s->c->mem, s->addr + s->pos * s->esz, s->buf,
				k);
	s->have = k;
	s->at = 0;
	return k >= s->esz;
}

/* How many elements the buffer holds from the next one on, refilled
 * when it holds none: 0 at the end of what may and can be read. */
static size_t avail(struct chars *s)
{
	if (s->pos >= s->want)
		return 0;
	if (s->at + s->esz > s->have && !refill(s))
		return 0;
	return (s->have - s->at) / s->esz;
}

static void advance(struct chars *s, size_t n)
{
	s->at += n * s->esz;
	s->pos += n;
}

/* The first NUL of P[0..N), or NULL: short strings (the lines of a
 * writev, -A 9999999) by a loop, cheaper there than the call. */
static const unsigned char *find_nul(const unsigned char *p, size_t n)
{
	if (n > 32)
		return memchr(p, 0, n);
	for (size_t i = 0; i < n; i++)
		if (!p[i])
			return p + i;
	return NULL;
}

/* Bytes go to the writer a chunk at a time, up to the first NUL of a
 * zero form and the cap: true when the cap left characters out.  N:
 * what the buffer holds (avail). */
static bool print_bytes(struct fmt_ctx *c, struct chars *s, size_t n, bool zero,
			size_t cap)
{
	size_t shown = 0;

	for (; n; n = avail(s)) {
		const unsigned char *p = s->buf + s->at;
		const unsigned char *nul = zero ? find_nul(p, n) : NULL;
		size_t k = nul ? (size_t)(nul - p) : n;

		if (k > cap - shown) {
			emit_chars(c, p, cap - shown);
			return true;
		}
		emit_chars(c, p, k);
		if (nul)
			return false;
		shown += k;
		advance(s, n);
	}
	return false;
}

/* The value of the wide character (2 or 4 bytes, little-endian) at P. */
static uint32_t wide_at(const unsigned char *p, size_t esz)
{
	uint32_t ch = 0;

	if (esz == 2)
		ch = p[0] | (uint32_t)p[1] << 8;
	else
		memcpy(&ch, p, 4);
	return ch;
}

/* Wide characters one by one, as print_bytes does bytes. */
static bool print_wide(struct fmt_ctx *c, struct chars *s, bool zero,
		       size_t cap)
{
	size_t shown = 0;
	size_t n;

	while ((n = avail(s))) {
		for (size_t i = 0; i < n; i++, shown++) {
			uint32_t ch = wide_at(s->buf + s->at, s->esz);

			if (zero && !ch)
				return false;
			if (shown == cap)
				return true;
			emit_wchar(c, ch, '"');
			advance(s, 1);
		}
	}
	return false;
}

/* A string that its first chunk of N bytes ends (its NUL, the cap, or
 * all it may have), in one emit_string: what print_bytes would show,
 * with no read after that chunk, as it would make none.  False: not so. */
static bool whole(struct fmt_ctx *c, const struct chars *s, size_t n, bool zero,
		  size_t cap)
{
	const unsigned char *p = s->buf + s->at;
	const unsigned char *nul = zero ? find_nul(p, n) : NULL;
	size_t k = nul ? (size_t)(nul - p) : n;

	if (k > cap)
		emit_string(c, p, cap, true);
	else if (nul || s->pos + n == s->want)
		emit_string(c, p, k, false);
	else
		return false;
	return true;
}

/* A string of length L (the NUL-scan length for zero forms, min'ed with
 * any zero(N) cap; N itself for fixed lengths, whose NULs are printed as
 * \0, as ltrace 0.7.3 does) shows min(L, -s) characters and gets the
 * ellipsis when L > -s.  ltrace adds it at L == -s too, which claims a
 * complete string was cut; we don't. */
static void print_elts(struct fmt_ctx *c, uint64_t addr,
		       const unsigned char *local, size_t esz, int64_t len,
		       bool zero, size_t cap)
{
	struct chars s; /* not zeroed: SMALL is written before it is read */

	s.c = c;
	s.addr = addr;
	s.local = local;
	s.esz = esz;
	s.pos = s.have = s.at = 0;
	s.buf = NULL;
	s.bufsz = 0;
	s.want = cap + 1;
	if (len >= 0 && (uint64_t)len < s.want)
		s.want = (size_t)len;
	size_t n = avail(&s);
	if (!n && s.want) {
		emit_addr(c, addr); /* nothing readable */
	} else if (esz == 1 && n && whole(c, &s, n, zero, cap)) {
		/* shown */
	} else {
		emit_begin(c, EMIT_STRING);
		bool more = esz == 1 ? print_bytes(c, &s, n, zero, cap) :
				       print_wide(c, &s, zero, cap);
		emit_end(c, EMIT_STRING, more);
	}
	if (s.buf != s.small)
		free(s.buf);
}

void lens_chars(struct fmt_ctx *c, uint64_t addr, const unsigned char *local,
		int64_t len, bool zero, size_t cap)
{
	print_elts(c, addr, local, 1, len, zero, cap);
}

/* Characters of array type T at ADDR (or LOCAL). */
static void string_array(struct fmt_ctx *c, const struct type *t, uint64_t addr,
			 const unsigned char *local)
{
	size_t esz = type_char_size(t->elt);

	if (!esz) {
		struct value v = {
			.type = t, .remote = !local, .addr = addr, .buf = local
		};
		lens_default(c, &v);
		return;
	}
	bool zero = expr_is_zero(t->len);
	int64_t len = -1;
	if (t->len && expr_eval(t->len, c->env, &len) < 0 && !zero)
		len = 0;
	/* never read past an inline array's storage */
	if (local && (len < 0 || (uint64_t)len * esz > type_sizeof(t)))
		len = (int64_t)(type_sizeof(t) / esz);
	print_elts(c, addr, local, esz, len, zero, c->limits->strlen);
}

static void string_pointer(struct fmt_ctx *c, const struct value *v)
{
	const struct type *to = v->type->elt;
	int64_t p;

	if (value_int(c, v, &p) < 0) {
		emit_addr(c, v->addr);
	} else if (!p) {
		emit_nil(c);
	} else if (to->kind == TYPE_ARRAY) {
		string_array(c, to, (uint64_t)p, NULL);
	} else if (type_char_size(to)) {
		print_elts(c, (uint64_t)p, NULL, type_char_size(to), -1, true,
			   c->limits->strlen);
	} else {
		lens_pointer(c, v);
	}
}

/* The value of integer V as the unsigned number its bytes hold. */
static uint64_t unsigned_of(const struct value *v, int64_t x)
{
	size_t n = type_sizeof(v->type);

	return n < 8 ? (uint64_t)x & ((1ULL << (8 * n)) - 1) : (uint64_t)x;
}

/* string(T) of a wider integer T is one wide character, a code point
 * (typedef wchar_t = string(uint)): 'Ф', in single quotes, escaped as in
 * strings when not printable.  WEOF (-1, or all ones in 32 bits) is
 * shown by its name, as ltrace shows EOF. */
static void wide_char(struct fmt_ctx *c, const struct value *v)
{
	int64_t x;

	if (!lens_int_value(c, v, &x))
		return;
	uint64_t u = unsigned_of(v, x);
	if (x == -1 || u == 0xffffffff) {
		emit_symbol(c, "WEOF", x, true);
		return;
	}
	emit_begin(c, EMIT_CHAR);
	if (u > 0xffffffff)
		emit_bad_wchar(c, u);
	else
		emit_wchar(c, (uint32_t)u, '\'');
	emit_end(c, EMIT_CHAR, false);
}

void lens_string(struct fmt_ctx *c, const struct value *v)
{
	switch (v->type->kind) {
	case TYPE_POINTER:
		string_pointer(c, v);
		break;
	case TYPE_ARRAY:
		string_array(c, v->type, v->addr, v->remote ? NULL : v->buf);
		break;
	case TYPE_SHORT:
	case TYPE_USHORT:
	case TYPE_INT:
	case TYPE_UINT:
	case TYPE_LONG:
	case TYPE_ULONG:
	case TYPE_LLONG:
	case TYPE_ULLONG:
		wide_char(c, v);
		break;
	default: /* string(char) is a char already */
		lens_default(c, v);
		break;
	}
}
