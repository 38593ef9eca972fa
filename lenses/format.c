/* Printf-style packs: the format(T) lens of a format string and the
 * arguments that follow it.  The format string is read in full (to
 * FORMAT_MAX) whatever -s says, since its conversions decide which
 * arguments follow; only its display is cut at -s.
 *
 * Conversions (C11 7.21.6.1 and glibc): flags, width and precision with
 * '*' or '*N$', length modifiers hh h l ll q L j z Z t, conversions
 * d i o u x X e E f F g G a A c C s S p n m and %%.  %n is shown as the
 * pointer it is, never written through; %m takes no argument.  Positional
 * arguments (%2$d) are shown in argument order. */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "fetch.h"
#include "lens.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

#define FORMAT_MAX 65536
#define MAX_POS 64 /* positional arguments followed */

/* %hhu: an unsigned byte, shown through a ushort whose high byte is
 * cleared (see pack_arg); a type of its own so that pack_arg can tell it
 * from %hu. */
static const struct type *uchar_type(void)
{
	static struct type *t;

	if (!t)
		t = type_new(type_builtin_arena(), TYPE_USHORT);
	return t;
}

/* The elements of ESZ bytes at ADDR before the first zero one, at most
 * FORMAT_MAX, read in chunks that double from 256 elements: into *RAW
 * (allocated), their count into *N.  False if nothing is readable. */
static bool read_elts(struct memsrc *m, uint64_t addr, size_t esz,
		      unsigned char **raw, size_t *n)
{
	size_t cap = 256;
	size_t have = 0;

	*raw = xmalloc(cap * esz);
	for (;;) {
		size_t bytes = memsrc_read(m, addr + have * esz,
					   *raw + have * esz,
					   (cap - have) * esz);
		size_t got = bytes / esz;
		size_t i = have;
		while (i < have + got &&
		       memcmp(*raw + i * esz, "\0\0\0\0", esz))
			i++;
		if (i < have + got || got < cap - have || cap >= FORMAT_MAX) {
			*n = i;
			return i || got;
		}
		have = cap;
		cap *= 2;
		*raw = xrealloc(*raw, cap * esz);
	}
}

/* The format string at ADDR with elements of ESZ bytes (1, or 2/4 for a
 * wide format), narrowed for parsing: wide characters past ASCII become
 * '?', which no conversion uses.  NULL if nothing is readable. */
static char *read_format(struct memsrc *m, uint64_t addr, size_t esz)
{
	unsigned char *raw;
	size_t n;

	if (!read_elts(m, addr, esz, &raw, &n)) {
		free(raw);
		return NULL;
	}
	char *s = xmalloc(n + 1);
	for (size_t i = 0; i < n; i++) {
		uint32_t ch = 0;

		memcpy(&ch, raw + i * esz, esz);
		s[i] = ch < 0x80 ? (char)ch : '?';
	}
	s[n] = 0;
	free(raw);
	return s;
}

/* One conversion specification. */
struct spec {
	int pos; /* N of %N$, 0 when not positional */
	/* '*' width/precision: -1 none, 0 next argument, N for *N$ */
	int wstar, pstar;
	int prec;  /* -1 when absent */
	int longs; /* -2 hh, -1 h, 1 l/j/z/t, 2 ll/q */
	bool ldbl; /* L */
	char conv;
};

/* What '*' widths and precisions read, and a position nothing names. */
static const struct type *int_type(void)
{
	return type_builtin(TYPE_INT, LENS_DEFAULT);
}

/* The kind an integer conversion of S's length reads, unsigned with U:
 * hh char, h short, l/ll (and L for unsigned) long, else int. */
static enum type_kind int_kind(const struct spec *s, bool u)
{
	if (s->longs < 0)
		return s->longs < -1 ? TYPE_CHAR : u ? TYPE_USHORT : TYPE_SHORT;
	if (s->longs > 0 || (u && s->ldbl))
		return u ? TYPE_ULONG : TYPE_LONG;
	return u ? TYPE_UINT : TYPE_INT;
}

/* The type conversion S consumes, or NULL for none.  Like ltrace, %hhd
 * shows a char and %hd a short. */
static const struct type *conv_type(const struct spec *s)
{
	switch (s->conv) {
	case 'd':
	case 'i':
		return type_builtin(int_kind(s, false), LENS_DEFAULT);
	case 'u':
		if (s->longs < -1)
			return uchar_type();
		return type_builtin(int_kind(s, true), LENS_DEFAULT);
	case 'o':
		return type_builtin(int_kind(s, true), LENS_OCT);
	case 'x':
	case 'X':
		return type_builtin(int_kind(s, true), LENS_HEX);
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		return type_builtin(s->ldbl ? TYPE_LDOUBLE : TYPE_DOUBLE,
				    LENS_DEFAULT);
	case 'c':
		return type_builtin(s->longs > 0 ? TYPE_INT : TYPE_CHAR,
				    LENS_DEFAULT);
	case 'C':
		return type_builtin(TYPE_INT, LENS_DEFAULT);
	case 's':
		return type_builtin_string(s->longs > 0 ? TYPE_INT : TYPE_CHAR);
	case 'S':
		return type_builtin_string(TYPE_INT);
	case 'p':
	case 'n':
		return type_builtin(TYPE_POINTER, LENS_ADDR);
	default:
		return NULL;
	}
}

/* Digits at *P as a number (capped), or -1 if there are none. */
static int number(const char **p)
{
	int n = -1;

	while (**p >= '0' && **p <= '9') {
		n = (n < 0 ? 0 : n * 10) + (**p - '0');
		if (n > FORMAT_MAX)
			n = FORMAT_MAX;
		(*p)++;
	}
	return n;
}

/* '*' or '*N$' at *P: 0 or N; -1 if no star. */
static int star(const char **p)
{
	if (**p != '*')
		return -1;
	const char *q = *p + 1;
	int n = number(&q);
	if (n > 0 && *q == '$') {
		*p = q + 1;
		return n;
	}
	*p += 1;
	return 0;
}

/* Length modifiers at P into S; returns the position after them. */
static const char *parse_length(const char *p, struct spec *s)
{
	for (; *p && strchr("hlqLjtzZ", *p); p++) {
		if (*p == 'h')
			s->longs--;
		else if (*p == 'L')
			s->ldbl = true;
		else
			s->longs += *p == 'q' ? 2 : 1;
	}
	if (s->longs > 2)
		s->longs = 2;
	return p;
}

/* Parse the specification after a '%' at P into S; returns the position
 * after it. */
static const char *parse_spec(const char *p, struct spec *s)
{
	memset(s, 0, sizeof(*s));
	s->prec = -1;
	const char *q = p;
	int n = number(&q);
	if (n > 0 && *q == '$') {
		s->pos = n;
		p = q + 1;
	}
	while (*p && strchr("-+ #0'I", *p))
		p++;
	s->wstar = star(&p);
	if (s->wstar < 0)
		number(&p);
	s->pstar = -1;
	if (*p == '.') {
		p++;
		s->pstar = star(&p);
		if (s->pstar < 0) {
			n = number(&p);
			s->prec = n < 0 ? 0 : n; /* "%.s" is "%.0s" */
		}
	}
	p = parse_length(p, s);
	s->conv = *p;
	return *p ? p + 1 : p;
}

/* The next conversion specification of the format at *P, parsed into S
 * ("%%" is none); *P moves past it.  False at the end of the format. */
static bool next_spec(const char **p, struct spec *s)
{
	const char *q = *p;

	while ((q = strchr(q, '%')) && q[1] == '%')
		q += 2;
	if (!q)
		return false;
	*p = parse_spec(q + 1, s);
	return true;
}

struct pack {
	struct fmt_ctx *c;
	size_t idx;
};

/* Fetch, show and return (as an int) the next argument, of type T. */
static int pack_arg(struct pack *pk, const struct type *t)
{
	unsigned char buf[32] = { 0 };

	fetch_arg(pk->c->fetch, pk->c->cs, t, buf);
	if (t == uchar_type())
		buf[1] = 0;
	emit_sep(pk->c, EMIT_ARGS, pk->idx++);
	lens_arg_start(pk->c);
	struct value v = { .type = t, .buf = buf };
	lens_render(pk->c, &v);
	int i;
	memcpy(&i, buf, sizeof(i));
	return i;
}

/* A %.Ns string argument: at most N characters, as printf prints it
 * (ltrace 0.7.3 does the same for %.Ns and %.*s; it also cuts at a bare
 * width, "%2s", which printf does not). */
static void pack_string_prec(struct pack *pk, const struct type *st, int prec)
{
	struct expr num = { .kind = EXPR_NUM, .num = prec };
	struct expr zero = { .kind = EXPR_ZERO, .sub = &num };
	struct type chars = *st->elt;
	struct type str = *st;

	chars.len = &zero;
	str.elt = &chars;
	pack_arg(pk, &str);
}

/* Arguments in order of the conversions. */
static void pack_sequential(struct pack *pk, const char *fmt)
{
	struct spec s;

	while (next_spec(&fmt, &s)) {
		int prec;

		if (s.wstar >= 0)
			pack_arg(pk, int_type());
		prec = s.pstar >= 0 ? pack_arg(pk, int_type()) : s.prec;
		const struct type *t = conv_type(&s);
		if (!t && s.conv != 'm')
			return; /* unknown: cannot follow the rest */
		if (t && t->lens == LENS_STRING && prec >= 0)
			pack_string_prec(pk, t, prec);
		else if (t)
			pack_arg(pk, t);
	}
}

static void set_pos(const struct type **types, int pos, const struct type *t,
		    int *max)
{
	if (pos < 1 || pos > MAX_POS)
		return;
	types[pos - 1] = t;
	if (pos > *max)
		*max = pos;
}

/* %N$ arguments: every position's type is collected first, then the
 * arguments are shown in order 1, 2, ...  (a position no conversion
 * names is taken as an int). */
static void pack_positional(struct pack *pk, const char *fmt)
{
	const struct type *types[MAX_POS] = { 0 };
	int max = 0;
	struct spec s;

	while (next_spec(&fmt, &s)) {
		set_pos(types, s.wstar, int_type(), &max);
		set_pos(types, s.pstar, int_type(), &max);
		if (conv_type(&s))
			set_pos(types, s.pos, conv_type(&s), &max);
	}
	for (int i = 0; i < max; i++)
		pack_arg(pk, types[i] ? types[i] : int_type());
}

static bool is_positional(const char *fmt)
{
	struct spec s;

	while (next_spec(&fmt, &s))
		if (s.pos)
			return true;
	return false;
}

/* The element size of format(T)'s characters: 1 for plain format. */
static size_t format_esz(const struct type *t)
{
	const struct type *s = t->elt;

	if (!s || s->kind != TYPE_POINTER || !s->elt)
		return 1;
	s = s->elt;
	if (s->kind == TYPE_ARRAY && s->elt)
		s = s->elt;
	return type_sizeof(s) == 2 || type_sizeof(s) == 4 ? type_sizeof(s) : 1;
}

void lens_format_pack(struct fmt_ctx *c, const struct value *v)
{
	int64_t a;

	if (value_int(c, v, &a) < 0 || !a) {
		emit_nil(c);
		return;
	}
	char *fmt = read_format(c->mem, (uint64_t)a, format_esz(v->type));
	if (!fmt) {
		emit_addr(c, (uint64_t)a);
		return;
	}
	/* format(T): T is a string pointer (type_check refuses others,
	 * which the 16-byte argument buffer could not hold) */
	if (v->type->elt && v->type->elt->kind == TYPE_POINTER) {
		struct value sv = *v;
		sv.type = v->type->elt;
		lens_render(c, &sv);
	} else {
		lens_chars(c, 0, (const unsigned char *)fmt,
			   (int64_t)strlen(fmt) + 1, true, c->limits->strlen);
	}
	if (c->fetch && c->cs) {
		struct pack pk = { c, 1 };
		if (is_positional(fmt))
			pack_positional(&pk, fmt);
		else
			pack_sequential(&pk, fmt);
	}
	free(fmt);
}
