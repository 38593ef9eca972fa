/* The types and expressions of the conf language: see conftype.h and
 * ltrace.conf(5).  A type is a base (a C type, a typedef name, a lens
 * over a type, string, enum, array, struct, format) followed by any
 * number of '*'; an expression is a number, argN, eltN, retval, zero
 * or zero(EXPR). */
#include <stdio.h>
#include <string.h>

#include "conftype.h"
#include "expr.h"
#include "protolib.h"
#include "type.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Enter one more level of nesting, or report that it is too deep. */
static bool nest(struct conf_parser *ps)
{
	if (ps->depth >= CONF_MAX_NESTING) {
		lex_error(&ps->lx, "nested too deeply: ",
			  "more than 64 levels of types or expressions");
		return false;
	}
	ps->depth++;
	return true;
}

/* ---- expressions ---- */

static struct expr *new_expr(struct conf_parser *ps, enum expr_kind k, long num,
			     struct expr *sub)
{
	return expr_new(ps->a, k, num, sub);
}

static struct expr *parse_expr_in(struct conf_parser *ps);

static struct expr *parse_expr(struct conf_parser *ps)
{
	if (ps->lx.failed || !nest(ps))
		return NULL;
	struct expr *e = parse_expr_in(ps);
	ps->depth--;
	return e;
}

static struct expr *parse_expr_in(struct conf_parser *ps)
{
	long n;
	if (lex_number(&ps->lx, &n))
		return new_expr(ps, EXPR_NUM, n, NULL);
	char id[64];
	if (!lex_ident(&ps->lx, id, sizeof(id))) {
		lex_error(&ps->lx, "expected ", "expression");
		return NULL;
	}
	if (!strcmp(id, "retval"))
		return new_expr(ps, EXPR_RETVAL, 0, NULL);
	if ((n = lex_index(id, "arg")) >= 0)
		return new_expr(ps, n ? EXPR_ARG : EXPR_RETVAL, n, NULL);
	if ((n = lex_index(id, "elt")) >= 0)
		return new_expr(ps, EXPR_ELT, n, NULL);
	if (!strcmp(id, "zero")) {
		struct expr *sub = NULL;

		if (lex_accept(&ps->lx, '(')) {
			sub = parse_expr(ps);
			if (!lex_expect(&ps->lx, ')'))
				return NULL;
		}
		return new_expr(ps, EXPR_ZERO, 0, sub);
	}
	lex_error_tok(&ps->lx,
		      "expected expression (number, argN, eltN, "
		      "retval, zero or zero(EXPR)), got ",
		      id);
	return NULL;
}

/* ---- types ---- */

/* T seen through LENS; NULL when T failed to parse. */
static struct type *lensed(struct conf_parser *ps, struct type *t,
			   enum lens_kind lens)
{
	if (!t)
		return NULL;
	return type_with_lens(ps->a, t, lens);
}

/* string(array(char, LEN)*) */
static struct type *char_string(struct conf_parser *ps, struct expr *len)
{
	return type_string(ps->a, TYPE_CHAR, len);
}

static struct type *parse_string(struct conf_parser *ps, const char *id)
{
	/* stringN and string[E] are zero(argN) and zero(E) as in ltrace:
	 * at most that many characters, up to the first NUL. */
	long n = lex_index(id, "string");
	if (n >= 0)
		return char_string(
			ps, new_expr(ps, EXPR_ZERO, 0,
				     new_expr(ps, n ? EXPR_ARG : EXPR_RETVAL, n,
					      NULL)));
	if (lex_accept(&ps->lx, '[')) {
		struct expr *len = parse_expr(ps);
		if (!lex_expect(&ps->lx, ']'))
			return NULL;
		return char_string(ps, new_expr(ps, EXPR_ZERO, 0, len));
	}
	if (lex_accept(&ps->lx, '(')) {
		struct type *t = conftype_parse(ps);
		if (!lex_expect(&ps->lx, ')'))
			return NULL;
		return lensed(ps, t, LENS_STRING);
	}
	return char_string(ps, new_expr(ps, EXPR_ZERO, 0, NULL));
}

static bool add_enum(struct conf_parser *ps, struct type *t, long *next)
{
	char id[256];
	if (!lex_ident(&ps->lx, id, sizeof(id))) {
		lex_error(&ps->lx, "expected ", "enum name");
		return false;
	}
	if (lex_accept(&ps->lx, '=')) {
		long v;
		if (!lex_number(&ps->lx, &v)) {
			lex_error(&ps->lx, "expected ",
				  "number after '=' in enum");
			return false;
		}
		*next = v;
	}
	type_add_enum(t, id, *next);
	/* the next one follows, wrapping as C's unsigned long would */
	*next = (long)((unsigned long)*next + 1);
	return true;
}

/* enum(A, B=5, C) or enum[TYPE](...) */
static struct type *parse_enum(struct conf_parser *ps)
{
	struct type *base;
	if (lex_accept(&ps->lx, '[')) {
		base = conftype_parse(ps);
		if (!lex_expect(&ps->lx, ']'))
			return NULL;
	} else {
		base = type_basic(ps->a, TYPE_INT);
	}
	struct type *t = lensed(ps, base, LENS_ENUM);
	if (!t || !lex_expect(&ps->lx, '('))
		return NULL;
	if (lex_accept(&ps->lx, ')'))
		return t;
	long next = 0;
	do {
		if (!add_enum(ps, t, &next))
			return NULL;
	} while (lex_accept(&ps->lx, ','));
	return lex_expect_close(&ps->lx) ? t : NULL;
}

static struct type *parse_array(struct conf_parser *ps)
{
	if (!lex_expect(&ps->lx, '('))
		return NULL;
	struct type *elt = conftype_parse(ps);
	if (!elt)
		return NULL;
	if (!lex_accept(&ps->lx, ',')) {
		lex_error(&ps->lx, "expected ", "',' and the array length");
		return NULL;
	}
	struct expr *len = parse_expr(ps);
	if (!len || !lex_expect(&ps->lx, ')'))
		return NULL;
	return type_array(ps->a, elt, len);
}

struct type *conftype_struct_body(struct conf_parser *ps, struct type *t)
{
	if (!lex_expect(&ps->lx, '('))
		return NULL;
	if (lex_accept(&ps->lx, ')'))
		return t;
	do {
		struct type *f = conftype_parse(ps);
		if (!f)
			return NULL;
		type_add_field(t, f);
	} while (lex_accept(&ps->lx, ','));
	return lex_expect_close(&ps->lx) ? t : NULL;
}

/* LENS(TYPE) */
static struct type *parse_lens(struct conf_parser *ps, enum lens_kind lens)
{
	if (!lex_expect(&ps->lx, '('))
		return NULL;
	struct type *t = conftype_parse(ps);
	if (!t || !lex_expect(&ps->lx, ')'))
		return NULL;
	return lensed(ps, t, lens);
}

/* format, or format(T) with T the type of the format string (for wide
 * formats: format(string(array(uint, zero)*))). */
static struct type *parse_format(struct conf_parser *ps)
{
	struct type *t = type_new(ps->a, TYPE_PACK);

	lex_skip_ws(&ps->lx);
	if (*ps->lx.p != '(')
		return t;
	ps->lx.p++;
	struct type *s = conftype_parse(ps);
	if (!s || !lex_expect(&ps->lx, ')'))
		return NULL;
	t->elt = s;
	return t;
}

static const struct {
	const char *name;
	enum type_kind kind;
} simple_types[] = {
	{ "void", TYPE_VOID },	   { "char", TYPE_CHAR },
	{ "short", TYPE_SHORT },   { "ushort", TYPE_USHORT },
	{ "int", TYPE_INT },	   { "itn", TYPE_INT },
	{ "uint", TYPE_UINT },	   { "long", TYPE_LONG },
	{ "ulong", TYPE_ULONG },   { "llong", TYPE_LLONG },
	{ "ullong", TYPE_ULLONG }, { "float", TYPE_FLOAT },
	{ "double", TYPE_DOUBLE }, { "ldouble", TYPE_LDOUBLE },
};

static const struct {
	const char *name;
	enum lens_kind lens;
} lens_names[] = {
	{ "hex", LENS_HEX },	   { "oct", LENS_OCT },
	{ "octal", LENS_OCT },	   { "bool", LENS_BOOL },
	{ "bitvec", LENS_BITVEC }, { "hide", LENS_HIDE },
	{ "guess", LENS_GUESS },   { "fd", LENS_FD },
};

/* Lenses that also stand alone as a type over int. */
static struct type *parse_lens_word(struct conf_parser *ps, enum lens_kind lens)
{
	lex_skip_ws(&ps->lx);
	if (*ps->lx.p == '(')
		return parse_lens(ps, lens);
	if (lens == LENS_OCT || lens == LENS_BOOL || lens == LENS_GUESS ||
	    lens == LENS_HEX || lens == LENS_FD)
		return type_lensed(
			ps->a, lens == LENS_GUESS ? TYPE_LONG : TYPE_INT, lens);
	lex_error(&ps->lx, "expected ", "'(' after the lens name");
	return NULL;
}

/* file: a FILE *, shown as an address (and its descriptor under -y). */
static struct type *file_type(struct conf_parser *ps)
{
	struct type *t = type_addr(ps->a);

	t->lens = LENS_FD;
	return t;
}

static struct type *parse_named(struct conf_parser *ps, const char *id)
{
	/* fd is newer than ltrace 0.7.3's names: a file written for it
	 * may define its own fd, which wins. */
	struct type *own = strcmp(id, "fd") ? NULL :
					      protolib_lookup_type(ps->pl, id);
	if (own)
		return own;
	for (size_t i = 0; i < ARRAY_SIZE(simple_types); i++)
		if (!strcmp(id, simple_types[i].name))
			return type_basic(ps->a, simple_types[i].kind);
	for (size_t i = 0; i < ARRAY_SIZE(lens_names); i++)
		if (!strcmp(id, lens_names[i].name))
			return parse_lens_word(ps, lens_names[i].lens);
	if (!strcmp(id, "addr"))
		return type_addr(ps->a);
	if (!strcmp(id, "file"))
		return file_type(ps);
	if (!strcmp(id, "format"))
		return parse_format(ps);
	struct type *t = protolib_lookup_type(ps->pl, id);
	if (t)
		return t;
	lex_error_tok(&ps->lx, "unknown type ", id);
	return NULL;
}

static struct type *parse_base(struct conf_parser *ps)
{
	char id[256];

	if (!lex_ident(&ps->lx, id, sizeof(id))) {
		lex_error(&ps->lx, "expected ", "type");
		return NULL;
	}
	if (!strncmp(id, "string", 6) &&
	    (!id[6] || lex_index(id, "string") >= 0))
		return parse_string(ps, id);
	if (!strcmp(id, "enum"))
		return parse_enum(ps);
	if (!strcmp(id, "array"))
		return parse_array(ps);
	if (!strcmp(id, "struct"))
		return conftype_struct_body(ps, type_new(ps->a, TYPE_STRUCT));
	return parse_named(ps, id);
}

struct type *conftype_parse(struct conf_parser *ps)
{
	if (ps->lx.failed || !nest(ps))
		return NULL;
	struct type *t = parse_base(ps);
	while (t && lex_accept(&ps->lx, '*'))
		t = type_pointer(ps->a, t);
	ps->depth--;
	return t;
}

struct type *conftype_hold(struct conf_parser *ps, struct type *t,
			   const char *at)
{
	const char *why;
	char msg[256];
	int v;

	struct type *h = type_hold(ps->a, t, &v, &why);
	if (v == TYPE_CHECK_OK)
		return t;
	snprintf(msg, sizeof(msg), "%s%s", why,
		 v == TYPE_CHECK_WARN	 ? "" :
		 h->kind == TYPE_POINTER ? "; shown as an address" :
					   "; shown as a hex number");
	lex_warn_at(&ps->lx, at, msg);
	return h;
}
