/* The lens writer: every bracket, separator, quote, escape and ellipsis
 * of a rendered value comes from here, in ltrace 0.7.3's layout, or as
 * JSON when c->json is set (lenses/emitjson.c).  Lenses decide what to
 * show; these functions decide how it is written. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emitjson.h"
#include "lens.h"
#include "strbuf.h"

/* The lengths are kept: a group's punctuation is written millions of
 * times in a large trace (issue 12). */
#define S(lit) lit, sizeof(lit) - 1

const struct emit_punct emit_groups[] = {
	[EMIT_ARRAY] = { { S("[ ") }, { S(" ]") }, { S(", ") } },
	[EMIT_STRUCT] = { { S("{ ") }, { S(" }") }, { S(", ") } },
	[EMIT_RECORD] = { { S("{ ") }, { S(" }") }, { S(", ") } },
	[EMIT_STRING] = { { S("\"") }, { S("\"") }, { S("") } },
	[EMIT_CHAR] = { { S("'") }, { S("'") }, { S("") } },
	[EMIT_BITVEC] = { { S("<") }, { S(">") }, { S(",") } },
	[EMIT_BITVEC_NOT] = { { S("~<") }, { S(">") }, { S(",") } },
	[EMIT_ARGS] = { { S("") }, { S("") }, { S(", ") } },
};

void emit_begin_json(struct fmt_ctx *c, enum emit_group g)
{
	json_begin(c, g);
}

/* Arrays put the ellipsis inside the bracket ("[ 1, 2... ]"), strings
 * after the closing quote ("\"abc\"..."). */
void emit_end_slow(struct fmt_ctx *c, enum emit_group g, bool more)
{
	if (c->json) {
		json_end(c, g, more);
		return;
	}
	if (more && g != EMIT_STRING)
		emit_ellipsis(c);
	emit_put(c->sb, &emit_groups[g].close);
	if (more && g == EMIT_STRING)
		emit_ellipsis(c);
}

void emit_sep_slow(struct fmt_ctx *c, enum emit_group g, size_t idx)
{
	if (!idx)
		return;
	size_t at = c->sb->len;
	if (c->json)
		strbuf_addch(c->sb, ',');
	else
		emit_put(c->sb, &emit_groups[g].sep);
	if (g == EMIT_ARGS && c->on_pack_sep)
		c->on_pack_sep(c->pack_sep_data, at, c->sb->len);
}

void emit_field_json(struct fmt_ctx *c, size_t idx, const char *name, size_t i)
{
	emit_sep_slow(c, EMIT_RECORD, idx);
	if (name) {
		json_string(c->sb, name);
	} else {
		strbuf_add(c->sb, "\"#", 2);
		strbuf_add_udec(c->sb, i);
		strbuf_addch(c->sb, '"');
	}
	strbuf_addch(c->sb, ':');
}

void emit_text(struct fmt_ctx *c, const char *s)
{
	if (c->json)
		json_string(c->sb, s);
	else
		strbuf_addstr(c->sb, s);
}

/* Numbers can be long: %f of 1e300 has 300 digits. */
void emit_printf(struct fmt_ctx *c, const char *fmt, ...)
{
	struct strbuf tmp;
	struct strbuf *sb = c->sb;
	va_list ap;

	if (c->json) {
		strbuf_init(&tmp);
		sb = &tmp;
	}
	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	if (c->json) {
		json_string(c->sb, tmp.s ? tmp.s : "");
		strbuf_destroy(&tmp);
	}
}

/* The letter of a C escape for CH, or 0. */
static char escape_letter(unsigned char ch)
{
	switch (ch) {
	case 0:
		return '0';
	case '\a':
		return 'a';
	case '\b':
		return 'b';
	case '\t':
		return 't';
	case '\n':
		return 'n';
	case '\v':
		return 'v';
	case '\f':
		return 'f';
	case '\r':
		return 'r';
	case '\\':
		return '\\';
	case '"':
		return '"';
	default:
		return 0;
	}
}

/* Each byte as it shows inside "": itself (length 1: PLAIN), a letter
 * escape or a 3-digit octal one.  Built once, so that a string costs a
 * table lookup a byte and a copy a run of plain bytes (issue 12). */
static struct {
	bool ready;
	bool plain[256];
	unsigned char len[256];
	char text[256][4];
} esc;

static void esc_init(void)
{
	for (unsigned ch = 0; ch < 256; ch++) {
		char l = escape_letter((unsigned char)ch);
		char *t = esc.text[ch];

		if (l) {
			t[0] = '\\';
			t[1] = l;
			esc.len[ch] = 2;
		} else if (ch < 0x20 || ch >= 0x7f) {
			t[0] = '\\';
			t[1] = (char)('0' + (ch >> 6));
			t[2] = (char)('0' + ((ch >> 3) & 7));
			t[3] = (char)('0' + (ch & 7));
			esc.len[ch] = 4;
		} else {
			t[0] = (char)ch;
			esc.len[ch] = 1;
			esc.plain[ch] = true;
		}
	}
	esc.ready = true;
}

/* Escapes as ltrace prints them; we also escape '"' inside strings
 * (ltrace 0.7.3 leaves it bare, which makes the output ambiguous). */
void emit_char(struct fmt_ctx *c, unsigned char ch, char quote)
{
	if (c->json) {
		json_bytes(c, &ch, 1);
		json_flush(c);
		return;
	}
	if (!esc.ready)
		esc_init();
	if (ch == '"' && quote != '"')
		strbuf_addch(c->sb, '"');
	else
		strbuf_add(c->sb, esc.text[ch], esc.len[ch]);
}

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* The high bit of each byte of X (8 bytes, little-endian) that is not
 * plain inside "": below ' ', '"', '\\', DEL and up.  Only the lowest
 * one is exact (a borrow or carry out of a flagged byte may flag the
 * next), which is all that finding the end of a run needs. */
static uint64_t unplain8(uint64_t x)
{
	uint64_t q = x ^ (ONES * '"');
	uint64_t b = x ^ (ONES * '\\');
	uint64_t ctl = (x - ONES * ' ') & ~x;

	q = (q - ONES) & ~q;
	b = (b - ONES) & ~b;
	return (ctl | (x + ONES) | x | q | b) & HIGHS;
}

/* One byte escaped at O (room for 4): past it. */
static char *escape_at(char *o, unsigned char ch)
{
	memcpy(o, esc.text[ch], 4);
	return o + esc.len[ch];
}

/* N bytes at P escaped at O (room for 4 N): past them.  Runs of plain
 * bytes are found eight bytes at a time and copied whole, the tail at
 * once (below) or a byte at a time by the table; the output is reserved
 * at its largest (4 bytes a byte) once, which leaves room for the 8-byte
 * moves (at input offset I <= N - 8 the output is at most 4 I + 8 <=
 * 4 N). */
static char *escape_run(char *o, const unsigned char *p, size_t n)
{
	const unsigned char *start = p;
	const unsigned char *end = p + n;
	char *o0 = o;

	if (!esc.ready)
		esc_init();
	while (end - p >= 8) {
		uint64_t x;

		memcpy(&x, p, 8);
		uint64_t m = unplain8(x);
		memcpy(o, p, 8);
		if (!m) {
			o += 8;
			p += 8;
			continue;
		}
		size_t k = (size_t)__builtin_ctzll(m) / 8;
		o = escape_at(o + k, p[k]);
		p += k + 1;
	}
	/* The tail at once, as the last eight bytes copied again, when they
	 * are plain and nothing before them was escaped (the output so far
	 * is the input): most strings are short and plain. */
	if (p < end && n >= 8 && o - o0 == p - start) {
		uint64_t x;

		memcpy(&x, end - 8, 8);
		if (!unplain8(x)) {
			memcpy(o - (8 - (end - p)), end - 8, 8);
			o += end - p;
			p = end;
		}
	}
	for (; p < end; p++) {
		if (esc.plain[*p])
			*o++ = (char)*p;
		else
			o = escape_at(o, *p);
	}
	return o;
}

void emit_chars(struct fmt_ctx *c, const unsigned char *p, size_t n)
{
	if (c->json) {
		json_bytes(c, p, n);
		return;
	}
	char *o = strbuf_reserve(c->sb, 4 * n);
	strbuf_commit(c->sb, escape_run(o, p, n));
}

/* One reservation for the quotes, the bytes and the ellipsis: the
 * strings of a writev's iovecs are short and many. */
void emit_string(struct fmt_ctx *c, const unsigned char *p, size_t n, bool more)
{
	if (c->json) {
		emit_begin(c, EMIT_STRING);
		emit_chars(c, p, n);
		emit_end(c, EMIT_STRING, more);
		return;
	}
	char *o = strbuf_reserve(c->sb, 4 * n + 5);
	*o++ = '"';
	o = escape_run(o, p, n);
	*o++ = '"';
	if (more) {
		memcpy(o, "...", 3);
		o += 3;
	}
	strbuf_commit(c->sb, o);
}

/* Numbers are written by hand (strbuf.h): snprintf's parsing of the
 * format cost more than the digits in a trace of many small structs
 * (issues 12, 28). */
void emit_udec(struct fmt_ctx *c, uint64_t u)
{
	strbuf_add_udec(c->sb, u);
}

void emit_dec(struct fmt_ctx *c, int64_t x)
{
	strbuf_add_dec(c->sb, x);
}

/* JSON: a string, "0x..." (emit_hex shows addresses and guesses). */
void emit_hex(struct fmt_ctx *c, uint64_t u)
{
	char b[20];
	char *p = b + sizeof(b);

	if (c->json)
		*--p = '"';
	if (!u && !c->json) {
		strbuf_addch(c->sb, '0');
		return;
	}
	do
		*--p = "0123456789abcdef"[u & 15];
	while (u >>= 4);
	*--p = 'x';
	*--p = '0';
	if (c->json)
		*--p = '"';
	strbuf_add(c->sb, p, (size_t)(b + sizeof(b) - p));
}

void emit_nil(struct fmt_ctx *c)
{
	if (c->json)
		strbuf_add(c->sb, "null", 4);
	else
		strbuf_add(c->sb, "nil", 3);
}

/* JSON: a value left out, {"cut":true}. */
void emit_ellipsis(struct fmt_ctx *c)
{
	if (c->json)
		strbuf_addstr(c->sb, "{\"cut\":true}");
	else
		strbuf_add(c->sb, "...", 3);
}

/* JSON: {"recurse":UP}. */
void emit_recurse(struct fmt_ctx *c, size_t up)
{
	if (c->json) {
		strbuf_addstr(c->sb, "{\"recurse\":");
		strbuf_add_udec(c->sb, up);
		strbuf_addch(c->sb, '}');
		return;
	}
	strbuf_addstr(c->sb, "recurse");
	while (up--)
		strbuf_addch(c->sb, '^');
}

/* Address 0 is NULL, "nil" as for pointers to typed data (ltrace 0.7.3
 * printed "0" for addr and void *; later ltrace prints "nil"). */
void emit_addr(struct fmt_ctx *c, uint64_t a)
{
	if (a)
		emit_hex(c, a);
	else
		emit_nil(c);
}

/* UTF-8 for printable code points; ASCII as emit_char; C1 controls,
 * surrogates and values past U+10FFFF as \x{...}. */
void emit_wchar(struct fmt_ctx *c, uint32_t cp, char quote)
{
	static const unsigned char lead[] = {
		[2] = 0xc0, [3] = 0xe0, [4] = 0xf0
	};

	if (cp < 0x80) {
		emit_char(c, (unsigned char)cp, quote);
		return;
	}
	if (c->json) {
		json_wchar(c, cp);
		return;
	}
	if (cp < 0xa0 || (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff) {
		emit_bad_wchar(c, cp);
		return;
	}
	size_t n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	char u[4] = { (char)(lead[n] | cp >> (6 * (n - 1))) };
	for (size_t i = 1; i < n; i++)
		u[i] = (char)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3f));
	strbuf_add(c->sb, u, n);
}

void emit_void(struct fmt_ctx *c)
{
	if (c->json)
		strbuf_add(c->sb, "null", 4);
}

void emit_bool(struct fmt_ctx *c, bool b)
{
	strbuf_addstr(c->sb, b ? "true" : "false");
}

void emit_oct(struct fmt_ctx *c, uint64_t u)
{
	if (c->json) {
		emit_udec(c, u);
	} else {
		strbuf_addch(c->sb, '0');
		strbuf_add_oct(c->sb, u);
	}
}

void emit_hexint(struct fmt_ctx *c, uint64_t u)
{
	if (c->json)
		emit_udec(c, u);
	else
		emit_hex(c, u);
}

/* JSON has no infinities or NaNs: they are strings. */
static bool json_nonfinite(struct fmt_ctx *c, long double d)
{
	if (isnan(d))
		strbuf_addstr(c->sb, "\"nan\"");
	else if (isinf(d))
		strbuf_addstr(c->sb, d < 0 ? "\"-inf\"" : "\"inf\"");
	else
		return false;
	return true;
}

/* JSON: the fewest digits that read back as D (3.14159, not
 * 3.1415899999999999). */
void emit_double(struct fmt_ctx *c, const char *fmt, double d)
{
	char b[32];

	if (!c->json) {
		strbuf_addf(c->sb, fmt, d);
		return;
	}
	if (json_nonfinite(c, d))
		return;
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(b, sizeof(b), "%.*g", prec, d);
		if (strtod(b, NULL) == d)
			break;
	}
	strbuf_addstr(c->sb, b);
}

void emit_ldouble(struct fmt_ctx *c, const char *fmt, long double d)
{
	if (!c->json)
		strbuf_addf(c->sb, fmt, d);
	else if (!json_nonfinite(c, d))
		strbuf_addf(c->sb, "%.21Lg", d);
}

static void add_int(struct fmt_ctx *c, int64_t x, bool sign)
{
	if (sign)
		emit_dec(c, x);
	else
		emit_udec(c, (uint64_t)x);
}

void emit_symbol(struct fmt_ctx *c, const char *name, int64_t x, bool sign)
{
	if (!c->json) {
		if (name)
			strbuf_addstr(c->sb, name);
		else
			add_int(c, x, sign);
		return;
	}
	strbuf_addstr(c->sb, "{\"symbol\":");
	if (name)
		json_string(c->sb, name);
	else
		strbuf_add(c->sb, "null", 4);
	strbuf_addstr(c->sb, ",\"value\":");
	add_int(c, x, sign);
	strbuf_addch(c->sb, '}');
}

void emit_bit_range(struct fmt_ctx *c, size_t lo, size_t hi)
{
	if (!c->json) {
		strbuf_add_udec(c->sb, lo);
		if (hi > lo) {
			strbuf_addch(c->sb, '-');
			strbuf_add_udec(c->sb, hi);
		}
		return;
	}
	for (size_t i = lo; i <= hi; i++) {
		if (i > lo)
			strbuf_addch(c->sb, ',');
		strbuf_add_udec(c->sb, i);
	}
}

void emit_bad_wchar(struct fmt_ctx *c, uint64_t u)
{
	if (c->json) {
		json_wchar(c, 0xfffd);
		return;
	}
	strbuf_add(c->sb, "\\x{", 3);
	strbuf_add_hex(c->sb, u);
	strbuf_addch(c->sb, '}');
}
