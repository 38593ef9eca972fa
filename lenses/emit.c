/* The lens writer: every bracket, separator, quote, escape and ellipsis
 * of a rendered value comes from here, in ltrace 0.7.3's layout.  Lenses
 * decide what to show; these functions decide how it is punctuated. */
#include <stdarg.h>

#include "lens.h"
#include "strbuf.h"

static const struct {
	const char *open, *close, *sep;
} groups[] = {
	[EMIT_ARRAY] = { "[ ", " ]", ", " },
	[EMIT_STRUCT] = { "{ ", " }", ", " },
	[EMIT_STRING] = { "\"", "\"", "" },
	[EMIT_CHAR] = { "'", "'", "" },
	[EMIT_BITVEC] = { "<", ">", "," },
	[EMIT_BITVEC_NOT] = { "~<", ">", "," },
	[EMIT_ARGS] = { "", "", ", " },
};

void emit_begin(struct fmt_ctx *c, enum emit_group g)
{
	strbuf_addstr(c->sb, groups[g].open);
}

/* Arrays put the ellipsis inside the bracket ("[ 1, 2... ]"), strings
 * after the closing quote ("\"abc\"..."). */
void emit_end(struct fmt_ctx *c, enum emit_group g, bool more)
{
	if (more && g != EMIT_STRING)
		emit_ellipsis(c);
	strbuf_addstr(c->sb, groups[g].close);
	if (more && g == EMIT_STRING)
		emit_ellipsis(c);
}

void emit_sep(struct fmt_ctx *c, enum emit_group g, size_t idx)
{
	if (!idx)
		return;
	size_t at = c->sb->len;
	strbuf_addstr(c->sb, groups[g].sep);
	if (g == EMIT_ARGS && c->on_pack_sep)
		c->on_pack_sep(c->pack_sep_data, at, c->sb->len);
}

void emit_text(struct fmt_ctx *c, const char *s)
{
	strbuf_addstr(c->sb, s);
}

/* Numbers can be long: %f of 1e300 has 300 digits. */
void emit_printf(struct fmt_ctx *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf_vaddf(c->sb, fmt, ap);
	va_end(ap);
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
	default:
		return 0;
	}
}

/* Escapes as ltrace prints them; we also escape '"' inside strings
 * (ltrace 0.7.3 leaves it bare, which makes the output ambiguous). */
void emit_char(struct fmt_ctx *c, unsigned char ch, char quote)
{
	char l = escape_letter(ch);

	if (l) {
		strbuf_addch(c->sb, '\\');
		strbuf_addch(c->sb, l);
	} else if (ch == '"' && quote == '"') {
		strbuf_addstr(c->sb, "\\\"");
	} else if (ch < 0x20 || ch >= 0x7f) {
		emit_printf(c, "\\%03o", ch);
	} else {
		strbuf_addch(c->sb, (char)ch);
	}
}

void emit_nil(struct fmt_ctx *c)
{
	strbuf_addstr(c->sb, "nil");
}

void emit_ellipsis(struct fmt_ctx *c)
{
	strbuf_addstr(c->sb, "...");
}

void emit_recurse(struct fmt_ctx *c, size_t up)
{
	strbuf_addstr(c->sb, "recurse");
	while (up--)
		strbuf_addch(c->sb, '^');
}

/* Address 0 is NULL, "nil" as for pointers to typed data (ltrace 0.7.3
 * printed "0" for addr and void *; later ltrace prints "nil"). */
void emit_addr(struct fmt_ctx *c, uint64_t a)
{
	if (a)
		emit_printf(c, "%#llx", (unsigned long long)a);
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
	if (cp < 0xa0 || (cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff) {
		emit_printf(c, "\\x{%x}", (unsigned)cp);
		return;
	}
	size_t n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	char u[4] = { (char)(lead[n] | cp >> (6 * (n - 1))) };
	for (size_t i = 1; i < n; i++)
		u[i] = (char)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3f));
	strbuf_add(c->sb, u, n);
}
