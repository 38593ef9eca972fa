/* The prototype library and the parser of the ltrace.conf(5) language.
 *
 * A file is a sequence of declarations, one per line (a declaration whose
 * parentheses are still open continues on the next line):
 *
 *	[function] TYPE NAME(PARAM, ...);
 *	typedef NAME = TYPE;		typedef NAME = struct;
 *	import "NAME";		(NAME.conf's definitions, through
 *				 the resolver; see proto.h)
 *
 * ';' and '#' start comments; text after a declaration's ';' is ignored.
 * A bad declaration is reported as "file:line:col: error: ..." and
 * skipped.  */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "proto.h"
#include "strbuf.h"
#include "type.h"
#include "xmalloc.h"

#define PL_BUCKETS 1024
/* Imports nest at most this deep (a cycle a -> b -> a stops here). */
#define IMPORT_DEPTH 8

struct named {
	char *name;
	struct prototype *proto;	/* a function, or */
	struct type *type;		/* a typedef */
	unsigned gen;			/* load that defined it */
	struct named *next;
};

struct protolib {
	struct type_arena arena;
	struct named *protos[PL_BUCKETS];
	struct named *types[PL_BUCKETS];
	unsigned gen;
	const struct protolib **imports;
	size_t nimports;
	protolib_import_fn resolve;
	void *resolve_ctx;
};

struct parser {
	struct protolib *pl;
	const char *file;
	int line;
	const char *start;	/* of the declaration's first line */
	const char *p;
	const char *tok;	/* start of the last identifier taken */
	int nerr;
	bool failed;
	int err_line, err_col;	/* of the failure, 1-based */
};

static unsigned name_hash(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h % PL_BUCKETS;
}

static struct named *named_find(struct named *const *tab, const char *name)
{
	struct named *n;

	for (n = tab[name_hash(name)]; n; n = n->next)
		if (!strcmp(n->name, name))
			return n;
	return NULL;
}

static struct named *named_add(struct named **tab, const char *name,
			       unsigned gen)
{
	struct named *n = xcalloc(1, sizeof(*n));
	unsigned h = name_hash(name);

	n->name = xstrdup(name);
	n->gen = gen;
	n->next = tab[h];
	tab[h] = n;
	return n;
}

struct protolib *protolib_new(void)
{
	return xcalloc(1, sizeof(struct protolib));
}

static void named_free_all(struct named **tab)
{
	struct named *n, *next;
	size_t i;

	for (i = 0; i < PL_BUCKETS; i++) {
		for (n = tab[i]; n; n = next) {
			next = n->next;
			prototype_free(n->proto);
			free(n->name);
			free(n);
		}
	}
}

void protolib_free(struct protolib *pl)
{
	if (!pl)
		return;
	named_free_all(pl->protos);
	named_free_all(pl->types);
	free(pl->imports);
	type_arena_destroy(&pl->arena);
	free(pl);
}

/* NAME in PL's own table (protos or types, by TYPES), then in its
 * imports in order, depth first. */
static struct named *lookup_deep(const struct protolib *pl, const char *name,
				 bool types, unsigned depth)
{
	struct named *n = named_find(types ? pl->types : pl->protos, name);
	size_t i;

	if (n || depth >= IMPORT_DEPTH)
		return n;
	for (i = 0; i < pl->nimports && !n; i++)
		if (pl->imports[i] != pl)
			n = lookup_deep(pl->imports[i], name, types, depth + 1);
	return n;
}

const struct prototype *protolib_lookup(const struct protolib *pl,
					const char *name)
{
	struct named *n = pl ? lookup_deep(pl, name, false, 0) : NULL;

	return n ? n->proto : NULL;
}

const struct type *protolib_lookup_type(const struct protolib *pl,
					const char *name)
{
	struct named *n = pl ? lookup_deep(pl, name, true, 0) : NULL;

	return n ? n->type : NULL;
}

void protolib_set_import_resolver(struct protolib *pl,
				  protolib_import_fn resolve, void *ctx)
{
	pl->resolve = resolve;
	pl->resolve_ctx = ctx;
}

void protolib_add_import(struct protolib *pl, const struct protolib *imp)
{
	size_t i;

	if (!imp || imp == pl)
		return;
	for (i = 0; i < pl->nimports; i++)
		if (pl->imports[i] == imp)
			return;
	pl->imports = xreallocarray(pl->imports, pl->nimports + 1,
				    sizeof(*pl->imports));
	pl->imports[pl->nimports++] = imp;
}

/* ---- lexing ---- */

static void skip_ws(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
	       *ps->p == '\r' || *ps->p == '\f' || *ps->p == '\v')
		ps->p++;
}

/* Report an error at AT (inside the declaration's text, which may span
 * lines): one message per declaration, the first problem found. */
static void perr_at(struct parser *ps, const char *at, const char *fmt,
		    const char *what)
{
	const char *s, *bol = ps->start;
	int line = ps->line;

	if (ps->failed)
		return;
	ps->failed = true;
	ps->nerr++;
	for (s = ps->start; s < at; s++)
		if (*s == '\n') {
			line++;
			bol = s + 1;
		}
	ps->err_line = line;
	ps->err_col = (int)(at - bol) + 1;
	fprintf(stderr, "%s:%d:%d: error: %s%s\n", ps->file, line,
		ps->err_col, fmt, what);
}

static void perr(struct parser *ps, const char *fmt, const char *what)
{
	const char *at = ps->p;

	/* point at the next token, not at the blanks before it */
	while (*at == ' ' || *at == '\t' || *at == '\n' || *at == '\r')
		at++;
	perr_at(ps, at, fmt, what);
}

/* "MSG 'ID'" at the identifier just taken. */
static void perr_tok(struct parser *ps, const char *msg, const char *id)
{
	char buf[320];

	snprintf(buf, sizeof(buf), "'%s'", id);
	perr_at(ps, ps->tok ? ps->tok : ps->p, msg, buf);
}

static bool accept(struct parser *ps, char c)
{
	skip_ws(ps);
	if (*ps->p != c)
		return false;
	ps->p++;
	return true;
}

static bool expect(struct parser *ps, char c)
{
	char what[4] = { '\'', c, '\'', 0 };

	if (ps->failed)
		return false;
	if (accept(ps, c))
		return true;
	perr(ps, "expected ", what);
	return false;
}

/* The end of a list: "expected ',' or ')'" when neither is there. */
static bool expect_close(struct parser *ps)
{
	if (ps->failed)
		return false;
	if (accept(ps, ')'))
		return true;
	perr(ps, "expected ", "',' or ')'");
	return false;
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The identifier at the cursor (copied into BUF), or false. */
static bool peek_ident(struct parser *ps, char *buf, size_t size)
{
	size_t n = 0;

	skip_ws(ps);
	if (!isalpha((unsigned char)*ps->p) && *ps->p != '_')
		return false;
	while (is_ident_char(ps->p[n]) && n + 1 < size) {
		buf[n] = ps->p[n];
		n++;
	}
	buf[n] = 0;
	return true;
}

static bool take_ident(struct parser *ps, char *buf, size_t size)
{
	if (!peek_ident(ps, buf, size))
		return false;
	ps->tok = ps->p;
	while (is_ident_char(*ps->p))
		ps->p++;
	return true;
}

static bool take_keyword(struct parser *ps, const char *kw)
{
	char buf[64];

	if (!peek_ident(ps, buf, sizeof(buf)) || strcmp(buf, kw))
		return false;
	ps->p += strlen(kw);
	return true;
}

static bool take_number(struct parser *ps, long *out)
{
	char *end;

	skip_ws(ps);
	if (!isdigit((unsigned char)*ps->p) &&
	    !(*ps->p == '-' && isdigit((unsigned char)ps->p[1])))
		return false;
	errno = 0;
	*out = strtol(ps->p, &end, 0);
	ps->p = end;
	return true;
}

/* ---- expressions ---- */

static struct expr *new_expr(struct parser *ps, enum expr_kind k, long num,
			     struct expr *sub)
{
	return expr_new(&ps->pl->arena, k, num, sub);
}

/* "argN"/"eltN" with a decimal N: N, or -1. */
static long ident_index(const char *id, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long v;

	if (strncmp(id, prefix, n) || !isdigit((unsigned char)id[n]))
		return -1;
	v = strtol(id + n, &end, 10);
	return *end ? -1 : v;
}

static struct expr *parse_expr(struct parser *ps)
{
	char id[64];
	long n;

	if (ps->failed)
		return NULL;
	if (take_number(ps, &n))
		return new_expr(ps, EXPR_NUM, n, NULL);
	if (!take_ident(ps, id, sizeof(id))) {
		perr(ps, "expected ", "expression");
		return NULL;
	}
	if (!strcmp(id, "retval"))
		return new_expr(ps, EXPR_RETVAL, 0, NULL);
	if ((n = ident_index(id, "arg")) >= 0)
		return new_expr(ps, n ? EXPR_ARG : EXPR_RETVAL, n, NULL);
	if ((n = ident_index(id, "elt")) >= 0)
		return new_expr(ps, EXPR_ELT, n, NULL);
	if (!strcmp(id, "zero")) {
		struct expr *sub = NULL;

		if (accept(ps, '(')) {
			sub = parse_expr(ps);
			if (!expect(ps, ')'))
				return NULL;
		}
		return new_expr(ps, EXPR_ZERO, 0, sub);
	}
	perr_tok(ps, "expected expression (number, argN, eltN, retval, "
		 "zero or zero(EXPR)), got ", id);
	return NULL;
}

/* ---- types ---- */

static struct type *parse_type(struct parser *ps);

/* T seen through LENS; NULL when T failed to parse. */
static struct type *lensed(struct parser *ps, struct type *t,
			   enum lens_kind lens)
{
	if (!t)
		return NULL;
	return type_with_lens(&ps->pl->arena, t, lens);
}

/* string(array(char, LEN)*) */
static struct type *char_string(struct parser *ps, struct expr *len)
{
	return type_string(&ps->pl->arena, TYPE_CHAR, len);
}

static struct type *parse_string(struct parser *ps, const char *id)
{
	struct expr *len;
	long n;
	struct type *t;

	/* stringN and string[E] are zero(argN) and zero(E) as in ltrace:
	 * at most that many characters, up to the first NUL. */
	if ((n = ident_index(id, "string")) >= 0)
		return char_string(ps, new_expr(ps, EXPR_ZERO, 0,
			new_expr(ps, n ? EXPR_ARG : EXPR_RETVAL, n, NULL)));
	if (accept(ps, '[')) {
		len = parse_expr(ps);
		if (!expect(ps, ']'))
			return NULL;
		return char_string(ps, new_expr(ps, EXPR_ZERO, 0, len));
	}
	if (accept(ps, '(')) {
		t = parse_type(ps);
		if (!expect(ps, ')'))
			return NULL;
		return lensed(ps, t, LENS_STRING);
	}
	return char_string(ps, new_expr(ps, EXPR_ZERO, 0, NULL));
}

static bool add_enum(struct parser *ps, struct type *t, long *next)
{
	char id[256];
	long v;

	if (!take_ident(ps, id, sizeof(id))) {
		perr(ps, "expected ", "enum name");
		return false;
	}
	if (accept(ps, '=')) {
		if (!take_number(ps, &v)) {
			perr(ps, "expected ", "number after '=' in enum");
			return false;
		}
		*next = v;
	}
	type_add_enum(t, id, (*next)++);
	return true;
}

/* enum(A, B=5, C) or enum[TYPE](...) */
static struct type *parse_enum(struct parser *ps)
{
	struct type *base, *t;
	long next = 0;

	if (accept(ps, '[')) {
		base = parse_type(ps);
		if (!expect(ps, ']'))
			return NULL;
	} else {
		base = type_basic(&ps->pl->arena, TYPE_INT);
	}
	t = lensed(ps, base, LENS_ENUM);
	if (!t || !expect(ps, '('))
		return NULL;
	if (accept(ps, ')'))
		return t;
	do {
		if (!add_enum(ps, t, &next))
			return NULL;
	} while (accept(ps, ','));
	return expect_close(ps) ? t : NULL;
}

static struct type *parse_array(struct parser *ps)
{
	struct type *elt;
	struct expr *len;

	if (!expect(ps, '('))
		return NULL;
	elt = parse_type(ps);
	if (!elt)
		return NULL;
	if (!accept(ps, ',')) {
		perr(ps, "expected ", "',' and the array length");
		return NULL;
	}
	len = parse_expr(ps);
	if (!len || !expect(ps, ')'))
		return NULL;
	return type_array(&ps->pl->arena, elt, len);
}

/* Fill T's members from "(T, ...)"; T may be a forward declaration. */
static struct type *parse_struct_body(struct parser *ps, struct type *t)
{
	struct type *f;

	if (!expect(ps, '('))
		return NULL;
	if (accept(ps, ')'))
		return t;
	do {
		f = parse_type(ps);
		if (!f)
			return NULL;
		type_add_field(t, f);
	} while (accept(ps, ','));
	return expect_close(ps) ? t : NULL;
}

/* LENS(TYPE) */
static struct type *parse_lens(struct parser *ps, enum lens_kind lens)
{
	struct type *t;

	if (!expect(ps, '('))
		return NULL;
	t = parse_type(ps);
	if (!t || !expect(ps, ')'))
		return NULL;
	return lensed(ps, t, lens);
}

/* format, or format(T) with T the type of the format string (for wide
 * formats: format(string(array(uint, zero)*))). */
static struct type *parse_format(struct parser *ps)
{
	struct type *t = type_new(&ps->pl->arena, TYPE_PACK), *s;

	skip_ws(ps);
	if (*ps->p != '(')
		return t;
	ps->p++;
	s = parse_type(ps);
	if (!s || !expect(ps, ')'))
		return NULL;
	t->elt = s;
	return t;
}

static const struct {
	const char *name;
	enum type_kind kind;
} simple_types[] = {
	{ "void", TYPE_VOID },     { "char", TYPE_CHAR },
	{ "short", TYPE_SHORT },   { "ushort", TYPE_USHORT },
	{ "int", TYPE_INT },       { "itn", TYPE_INT },
	{ "uint", TYPE_UINT },     { "long", TYPE_LONG },
	{ "ulong", TYPE_ULONG },   { "llong", TYPE_LLONG },
	{ "ullong", TYPE_ULLONG }, { "float", TYPE_FLOAT },
	{ "double", TYPE_DOUBLE }, { "ldouble", TYPE_LDOUBLE },
};

static const struct {
	const char *name;
	enum lens_kind lens;
} lens_names[] = {
	{ "hex", LENS_HEX },	 { "oct", LENS_OCT },
	{ "octal", LENS_OCT },	 { "bool", LENS_BOOL },
	{ "bitvec", LENS_BITVEC }, { "hide", LENS_HIDE },
	{ "guess", LENS_GUESS },
};

/* Lenses that also stand alone as a type over int. */
static struct type *parse_lens_word(struct parser *ps, enum lens_kind lens)
{
	skip_ws(ps);
	if (*ps->p == '(')
		return parse_lens(ps, lens);
	if (lens == LENS_OCT || lens == LENS_BOOL || lens == LENS_GUESS ||
	    lens == LENS_HEX)
		return type_lensed(&ps->pl->arena,
				   lens == LENS_GUESS ? TYPE_LONG : TYPE_INT,
				   lens);
	perr(ps, "expected ", "'(' after the lens name");
	return NULL;
}

static struct type *parse_named(struct parser *ps, const char *id)
{
	struct named *n;
	size_t i;

	for (i = 0; i < sizeof(simple_types) / sizeof(simple_types[0]); i++)
		if (!strcmp(id, simple_types[i].name))
			return type_basic(&ps->pl->arena,
					  simple_types[i].kind);
	for (i = 0; i < sizeof(lens_names) / sizeof(lens_names[0]); i++)
		if (!strcmp(id, lens_names[i].name))
			return parse_lens_word(ps, lens_names[i].lens);
	if (!strcmp(id, "addr") || !strcmp(id, "file"))
		return type_addr(&ps->pl->arena);
	if (!strcmp(id, "format"))
		return parse_format(ps);
	n = lookup_deep(ps->pl, id, true, 0);
	if (n)
		return n->type;
	perr_tok(ps, "unknown type ", id);
	return NULL;
}

static struct type *parse_base(struct parser *ps)
{
	char id[256];

	if (!take_ident(ps, id, sizeof(id))) {
		perr(ps, "expected ", "type");
		return NULL;
	}
	if (!strncmp(id, "string", 6) &&
	    (!id[6] || ident_index(id, "string") >= 0))
		return parse_string(ps, id);
	if (!strcmp(id, "enum"))
		return parse_enum(ps);
	if (!strcmp(id, "array"))
		return parse_array(ps);
	if (!strcmp(id, "struct"))
		return parse_struct_body(ps, type_new(&ps->pl->arena,
						      TYPE_STRUCT));
	return parse_named(ps, id);
}

static struct type *parse_type(struct parser *ps)
{
	struct type *t;

	if (ps->failed)
		return NULL;
	t = parse_base(ps);
	while (t && accept(ps, '*'))
		t = type_pointer(&ps->pl->arena, t);
	return t;
}

/* ---- declarations ---- */

static void define_typedef(struct parser *ps, const char *name,
			   const char *name_at)
{
	struct named *n = named_find(ps->pl->types, name);
	struct type *t;

	if (take_keyword(ps, "struct") && (skip_ws(ps), *ps->p != '(')) {
		if (!n) {
			n = named_add(ps->pl->types, name, ps->pl->gen);
			n->type = type_new(&ps->pl->arena, TYPE_STRUCT);
			n->type->forward = true;
		}
		return;
	}
	if (n && n->type->forward && n->type->kind == TYPE_STRUCT &&
	    *ps->p == '(') {
		if (parse_struct_body(ps, n->type))
			n->type->forward = false;
		return;
	}
	if (*ps->p == '(')
		t = parse_struct_body(ps, type_new(&ps->pl->arena,
						   TYPE_STRUCT));
	else
		t = parse_type(ps);
	if (!t)
		return;
	if (n && n->gen == ps->pl->gen) {
		ps->tok = name_at;
		perr_tok(ps, "redefinition of type ", name);
	}
	else if (!n)
		named_add(ps->pl->types, name, ps->pl->gen)->type = t;
}

static void parse_typedef(struct parser *ps)
{
	char name[256];
	const char *name_at;

	if (!take_ident(ps, name, sizeof(name))) {
		perr(ps, "expected ", "type name after 'typedef'");
		return;
	}
	name_at = ps->tok;
	if (!expect(ps, '='))
		return;
	define_typedef(ps, name, name_at);
	expect(ps, ';');
}

/* import "NAME";  NAME's definitions become visible to this library
 * (after its own), through the resolver the loader installed.  Without a
 * resolver the import is checked and ignored. */
static void parse_import(struct parser *ps)
{
	const struct protolib *imp;
	const char *q, *at;
	char *name;

	skip_ws(ps);
	at = ps->p;
	q = *at == '"' ? strchr(at + 1, '"') : NULL;
	if (!q || q == at + 1) {
		perr(ps, "expected ", "library name in double quotes after "
		     "'import'");
		return;
	}
	ps->p = q + 1;
	if (!expect(ps, ';'))
		return;
	if (!ps->pl->resolve)
		return;
	name = xstrndup(at + 1, q - at - 1);
	imp = ps->pl->resolve(ps->pl->resolve_ctx, name);
	if (imp)
		protolib_add_import(ps->pl, imp);
	else
		perr_at(ps, at, "no prototype library to import for ", name);
	free(name);
}

/* Legacy: a lone "void" parameter means none; other void parameters are
 * hidden ints. */
static void add_param(struct parser *ps, struct prototype *pr,
		      struct type *t)
{
	if (t->kind == TYPE_VOID && t->lens == LENS_DEFAULT)
		t = type_lensed(&ps->pl->arena, TYPE_INT, LENS_HIDE);
	prototype_add_param(pr, t);
}

static bool parse_params(struct parser *ps, struct prototype *pr)
{
	struct type *t;

	if (accept(ps, ')'))
		return true;
	do {
		if (accept(ps, '+')) {
			if (pr->split != (size_t)-1) {
				perr_at(ps, ps->p - 1, "more than one ",
					"'+'");
				return false;
			}
			pr->split = pr->nparams;
		}
		t = parse_type(ps);
		if (!t)
			return false;
		add_param(ps, pr, t);
	} while (accept(ps, ','));
	if (!expect_close(ps))
		return false;
	if (pr->nparams == 1 && pr->params[0]->lens == LENS_HIDE &&
	    pr->params[0]->kind == TYPE_INT && pr->split == (size_t)-1)
		pr->nparams = 0;	/* f(void) */
	return true;
}

static void parse_function(struct parser *ps)
{
	struct prototype *pr = xcalloc(1, sizeof(*pr));
	char name[512];

	pr->split = (size_t)-1;
	pr->ret = parse_type(ps);
	if (pr->ret && !take_ident(ps, name, sizeof(name)))
		perr(ps, "expected ", "function name");
	if (ps->failed || !expect(ps, '(') || !parse_params(ps, pr) ||
	    !expect(ps, ';'))
		goto err_free_proto;
	if (pr->split == (size_t)-1)
		pr->split = pr->nparams;
	if (named_find(ps->pl->protos, name))
		goto err_free_proto;	/* the earlier definition wins */
	pr->name = xstrdup(name);
	named_add(ps->pl->protos, name, ps->pl->gen)->proto = pr;
	return;
err_free_proto:
	prototype_free(pr);
}

static void parse_decl(struct parser *ps)
{
	if (take_keyword(ps, "typedef"))
		parse_typedef(ps);
	else if (take_keyword(ps, "import"))
		parse_import(ps);
	else {
		take_keyword(ps, "function");
		parse_function(ps);
	}
}

/* Paren depth of [s, e): a declaration continues while it is open. */
static int paren_depth(const char *s, const char *e, int depth)
{
	for (; s < e && *s != ';' && *s != '#'; s++) {
		if (*s == '(' || *s == '[')
			depth++;
		else if (*s == ')' || *s == ']')
			depth--;
	}
	return depth;
}

/* The extent of the declaration starting at S: through the end of the
 * line, or of further lines while parentheses are open. */
static const char *decl_end(const char *s, int *lines)
{
	const char *e = s;
	int depth = 0;

	*lines = 0;
	for (;;) {
		const char *nl = strchr(e, '\n');
		const char *le = nl ? nl : e + strlen(e);

		depth = paren_depth(e, le, depth);
		if (depth <= 0 || !nl || memchr(e, ';', le - e))
			return le;
		e = nl + 1;
		(*lines)++;
	}
}

static void parse_line(struct parser *ps, const char *s, const char *e)
{
	char *decl = xstrndup(s, e - s);

	ps->start = ps->p = decl;
	ps->failed = false;
	skip_ws(ps);
	if (*ps->p && *ps->p != ';' && *ps->p != '#')
		parse_decl(ps);
	free(decl);
}

int protolib_load_string(struct protolib *pl, const char *name,
			 const char *text)
{
	struct parser ps = { .pl = pl, .file = name, .line = 1 };
	const char *s = text;
	int extra;

	pl->gen++;
	while (*s) {
		const char *e = decl_end(s, &extra);

		parse_line(&ps, s, e);
		if (ps.failed && ps.err_line > ps.line && ps.err_col == 1) {
			/* An unclosed declaration swallowed the next lines
			 * and failed at the start of one: that line begins
			 * a declaration of its own, so parse it again. */
			while (ps.line < ps.err_line) {
				s = strchr(s, '\n') + 1;
				ps.line++;
			}
			continue;
		}
		ps.line += extra + 1;
		s = *e ? e + 1 : e;
	}
	return ps.nerr;
}

int protolib_load_file(struct protolib *pl, const char *path)
{
	struct strbuf sb;
	char buf[8192];
	size_t n;
	int ret;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "ltrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	strbuf_init(&sb);
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	ret = protolib_load_string(pl, path, sb.s ? sb.s : "");
	strbuf_destroy(&sb);
	return ret;
}
