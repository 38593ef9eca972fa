/* format: a printf-style parameter pack.  The format string is read in
 * full (to FORMAT_MAX) whatever -s says, since its conversions decide
 * which arguments follow; only its display is cut at -s. */
#include <stdlib.h>
#include <string.h>

#include "callfmt.h"
#include "expr.h"
#include "fetch.h"
#include "lens.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

#define FORMAT_MAX 65536

static struct expr zero_expr = { .kind = EXPR_ZERO };
static struct type t_char = { .kind = TYPE_CHAR };
static struct type t_int = { .kind = TYPE_INT };
static struct type t_short = { .kind = TYPE_SHORT };
static struct type t_ushort = { .kind = TYPE_USHORT };
static struct type t_uint = { .kind = TYPE_UINT };
static struct type t_long = { .kind = TYPE_LONG };
static struct type t_ulong = { .kind = TYPE_ULONG };
static struct type t_double = { .kind = TYPE_DOUBLE };
static struct type t_xuint = { .kind = TYPE_UINT, .lens = LENS_HEX };
static struct type t_xulong = { .kind = TYPE_ULONG, .lens = LENS_HEX };
static struct type t_ouint = { .kind = TYPE_UINT, .lens = LENS_OCT };
static struct type t_oulong = { .kind = TYPE_ULONG, .lens = LENS_OCT };
static struct type t_void = { .kind = TYPE_VOID };
static struct type t_addr = { .kind = TYPE_POINTER, .lens = LENS_ADDR,
			      .elt = &t_void };
static struct type t_chars = { .kind = TYPE_ARRAY, .elt = &t_char,
			       .len = &zero_expr };
static struct type t_string = { .kind = TYPE_POINTER, .lens = LENS_STRING,
				.elt = &t_chars };
static struct type t_wchars = { .kind = TYPE_ARRAY, .elt = &t_int,
				.len = &zero_expr };
static struct type t_wstring = { .kind = TYPE_POINTER, .lens = LENS_STRING,
				 .elt = &t_wchars };

/* The NUL-terminated string at ADDR, read in growing chunks; NULL if
 * nothing is readable.  *LEN excludes the NUL. */
static char *read_format(struct memsrc *m, uint64_t addr, size_t *len)
{
	size_t cap = 256, have = 0, got;
	char *s = xmalloc(cap + 1);

	for (;;) {
		got = memsrc_read(m, addr + have, s + have, cap - have);
		if (memchr(s + have, 0, got) || got < cap - have ||
		    cap >= FORMAT_MAX) {
			have += got;
			break;
		}
		have = cap;
		cap *= 2;
		s = xrealloc(s, cap + 1);
	}
	if (!have) {
		free(s);
		return NULL;
	}
	s[have] = 0;
	*len = strlen(s);
	return s;
}

/* The type a conversion CONV with length modifier LONGS ('l' count, 'L'
 * and friends count as one; -1 for h, -2 for hh) consumes, or NULL for
 * none.  Like ltrace, %hhd shows a char and %hd a short. */
static const struct type *conv_type(char conv, int longs)
{
	switch (conv) {
	case 'd': case 'i':
		if (longs < 0)
			return longs == -1 ? &t_short : &t_char;
		return longs ? &t_long : &t_int;
	case 'u':
		if (longs == -1)
			return &t_ushort;
		return longs > 0 ? &t_ulong : &t_uint;
	case 'o':
		return longs > 0 ? &t_oulong : &t_ouint;
	case 'x': case 'X':
		return longs > 0 ? &t_xulong : &t_xuint;
	case 'e': case 'E': case 'f': case 'F':
	case 'g': case 'G': case 'a': case 'A':
		return &t_double;
	case 'c':
		return longs > 0 ? &t_int : &t_char;
	case 'C':
		return &t_int;
	case 's':
		return longs > 0 ? &t_wstring : &t_string;
	case 'S':
		return &t_wstring;
	case 'p': case 'n':
		return &t_addr;
	default:
		return NULL;
	}
}

struct pack {
	struct fmt_ctx *c;
	size_t idx;
};

/* Fetch, show and return (as an int) the next argument, of type T. */
static int pack_arg(struct pack *pk, const struct type *t)
{
	unsigned char buf[16] = { 0 };
	struct value v = { .type = t, .buf = buf };
	int i;

	fetch_arg(pk->c->fetch, pk->c->cs, t, buf);
	out_sep(pk->c, OUT_ARGS, pk->idx++);
	lens_format(pk->c, &v);
	memcpy(&i, buf, sizeof(i));
	return i;
}

/* Skip a width or precision at *P and return it; a '*' takes an int
 * argument.  -1 if there is none. */
static int number_or_star(struct pack *pk, const char **p)
{
	int n = -1;

	if (**p == '*') {
		(*p)++;
		return pack_arg(pk, &t_int);
	}
	while (**p >= '0' && **p <= '9') {
		n = (n < 0 ? 0 : n * 10) + (**p - '0');
		if (n > FORMAT_MAX)
			n = FORMAT_MAX;
		(*p)++;
	}
	return n;
}

/* A %.Ns string argument: at most N characters, as printf prints it
 * (ltrace 0.7.3 does the same for %.Ns and %.*s; it also cuts at a bare
 * width, "%2s", which printf does not). */
static void pack_string_prec(struct pack *pk, int prec)
{
	struct expr num = { .kind = EXPR_NUM, .num = prec };
	struct expr zero = { .kind = EXPR_ZERO, .sub = &num };
	struct type chars = { .kind = TYPE_ARRAY, .elt = &t_char,
			      .len = &zero };
	struct type str = { .kind = TYPE_POINTER, .lens = LENS_STRING,
			    .elt = &chars };

	pack_arg(pk, &str);
}

/* One conversion after its '%'; returns the position after it. */
static const char *pack_conv(struct pack *pk, const char *p)
{
	int longs = 0, prec = -1;
	const struct type *t;

	while (*p && strchr("-+ #0'I", *p))
		p++;
	number_or_star(pk, &p);
	if (*p == '$')		/* positional: not followed */
		return p + 1;
	if (*p == '.') {
		p++;
		prec = number_or_star(pk, &p);
		if (prec < 0 && p[-1] == '.')
			prec = 0;	/* "%.s" */
	}
	for (; *p && strchr("hlqLjtzZ", *p); p++)
		longs += *p == 'h' ? -1 : 1;
	if (!*p)
		return p;
	t = conv_type(*p, longs);
	if (t == &t_string && prec >= 0)
		pack_string_prec(pk, prec);
	else if (t)
		pack_arg(pk, t);
	return p + 1;
}

static void pack_args(struct pack *pk, const char *fmt)
{
	const char *p = fmt;

	while ((p = strchr(p, '%'))) {
		if (p[1] == '%') {
			p += 2;
			continue;
		}
		p = pack_conv(pk, p + 1);
	}
}

void lens_format_pack(struct fmt_ctx *c, const struct value *v)
{
	struct pack pk = { c, 1 };
	size_t len;
	int64_t a;
	char *fmt;

	if (value_int(c, v, &a) < 0 || !a) {
		out_nil(c);
		return;
	}
	fmt = read_format(c->mem, (uint64_t)a, &len);
	if (!fmt) {
		out_addr(c, (uint64_t)a);
		return;
	}
	lens_chars(c, 0, (const unsigned char *)fmt, (int64_t)len + 1, true,
		   c->o->strlen);
	if (c->fetch && c->cs)
		pack_args(&pk, fmt);
	free(fmt);
}
