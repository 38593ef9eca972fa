/* The parser of the ltrace.conf(5) language.
 *
 * A file is a sequence of declarations, one per line (a declaration whose
 * parentheses are still open continues on the next line):
 *
 *	[function] TYPE NAME(PARAM, ...);
 *	typedef NAME = TYPE;		typedef NAME = struct;
 *	import "NAME";		(NAME.conf's definitions, through
 *				 the resolver; see protolib.h)
 *
 * A '+' before a parameter puts it and those after it at the return
 * (the first '+' only).  ';' and '#' start comments; text after a
 * declaration's ';' is ignored.
 * A bad declaration is reported as "file:line:col: error: ..." and
 * skipped.  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "expr.h"
#include "lex.h"
#include "protolib.h"
#include "strbuf.h"
#include "type.h"
#include "xmalloc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Types and expressions nest at most this deep in the text: the parser
 * recurses, and so would everything that walks what it built. */
#define CONF_MAX_NESTING 64

struct parser {
	struct lex lx;
	struct protolib *pl;  /* what the file defines goes here */
	struct type_arena *a; /* pl's */
	unsigned depth;	      /* of parse_type and parse_expr */
	struct strbuf decl;   /* the declaration being parsed, terminated */
};

/* Enter one more level of nesting, or report that it is too deep. */
static bool nest(struct parser *ps)
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

static struct expr *new_expr(struct parser *ps, enum expr_kind k, long num,
			     struct expr *sub)
{
	return expr_new(ps->a, k, num, sub);
}

static struct expr *parse_expr_in(struct parser *ps);

static struct expr *parse_expr(struct parser *ps)
{
	if (ps->lx.failed || !nest(ps))
		return NULL;
	struct expr *e = parse_expr_in(ps);
	ps->depth--;
	return e;
}

static struct expr *parse_expr_in(struct parser *ps)
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

static struct type *parse_type(struct parser *ps);

/* T seen through LENS; NULL when T failed to parse. */
static struct type *lensed(struct parser *ps, struct type *t,
			   enum lens_kind lens)
{
	if (!t)
		return NULL;
	return type_with_lens(ps->a, t, lens);
}

/* string(array(char, LEN)*) */
static struct type *char_string(struct parser *ps, struct expr *len)
{
	return type_string(ps->a, TYPE_CHAR, len);
}

static struct type *parse_string(struct parser *ps, const char *id)
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
		struct type *t = parse_type(ps);
		if (!lex_expect(&ps->lx, ')'))
			return NULL;
		return lensed(ps, t, LENS_STRING);
	}
	return char_string(ps, new_expr(ps, EXPR_ZERO, 0, NULL));
}

static bool add_enum(struct parser *ps, struct type *t, long *next)
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
static struct type *parse_enum(struct parser *ps)
{
	struct type *base;
	if (lex_accept(&ps->lx, '[')) {
		base = parse_type(ps);
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

static struct type *parse_array(struct parser *ps)
{
	if (!lex_expect(&ps->lx, '('))
		return NULL;
	struct type *elt = parse_type(ps);
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

/* Fill T's members from "(T, ...)"; T may be a forward declaration. */
static struct type *parse_struct_body(struct parser *ps, struct type *t)
{
	if (!lex_expect(&ps->lx, '('))
		return NULL;
	if (lex_accept(&ps->lx, ')'))
		return t;
	do {
		struct type *f = parse_type(ps);
		if (!f)
			return NULL;
		type_add_field(t, f);
	} while (lex_accept(&ps->lx, ','));
	return lex_expect_close(&ps->lx) ? t : NULL;
}

/* LENS(TYPE) */
static struct type *parse_lens(struct parser *ps, enum lens_kind lens)
{
	if (!lex_expect(&ps->lx, '('))
		return NULL;
	struct type *t = parse_type(ps);
	if (!t || !lex_expect(&ps->lx, ')'))
		return NULL;
	return lensed(ps, t, lens);
}

/* format, or format(T) with T the type of the format string (for wide
 * formats: format(string(array(uint, zero)*))). */
static struct type *parse_format(struct parser *ps)
{
	struct type *t = type_new(ps->a, TYPE_PACK);

	lex_skip_ws(&ps->lx);
	if (*ps->lx.p != '(')
		return t;
	ps->lx.p++;
	struct type *s = parse_type(ps);
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
	{ "guess", LENS_GUESS },
};

/* Lenses that also stand alone as a type over int. */
static struct type *parse_lens_word(struct parser *ps, enum lens_kind lens)
{
	lex_skip_ws(&ps->lx);
	if (*ps->lx.p == '(')
		return parse_lens(ps, lens);
	if (lens == LENS_OCT || lens == LENS_BOOL || lens == LENS_GUESS ||
	    lens == LENS_HEX)
		return type_lensed(
			ps->a, lens == LENS_GUESS ? TYPE_LONG : TYPE_INT, lens);
	lex_error(&ps->lx, "expected ", "'(' after the lens name");
	return NULL;
}

static struct type *parse_named(struct parser *ps, const char *id)
{
	for (size_t i = 0; i < ARRAY_SIZE(simple_types); i++)
		if (!strcmp(id, simple_types[i].name))
			return type_basic(ps->a, simple_types[i].kind);
	for (size_t i = 0; i < ARRAY_SIZE(lens_names); i++)
		if (!strcmp(id, lens_names[i].name))
			return parse_lens_word(ps, lens_names[i].lens);
	if (!strcmp(id, "addr") || !strcmp(id, "file"))
		return type_addr(ps->a);
	if (!strcmp(id, "format"))
		return parse_format(ps);
	struct type *t = protolib_lookup_type(ps->pl, id);
	if (t)
		return t;
	lex_error_tok(&ps->lx, "unknown type ", id);
	return NULL;
}

static struct type *parse_base(struct parser *ps)
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
		return parse_struct_body(ps, type_new(ps->a, TYPE_STRUCT));
	return parse_named(ps, id);
}

static struct type *parse_type(struct parser *ps)
{
	if (ps->lx.failed || !nest(ps))
		return NULL;
	struct type *t = parse_base(ps);
	while (t && lex_accept(&ps->lx, '*'))
		t = type_pointer(ps->a, t);
	ps->depth--;
	return t;
}

/* T, or when the tracer cannot hold it (type_check) a plain type in its
 * place, with a warning at AT where T was written: the call is traced
 * all the same. */
static struct type *holdable(struct parser *ps, struct type *t, const char *at)
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

/* ---- declarations ---- */

/* typedef NAME = struct;  a forward declaration, completed by a later
 * typedef NAME = struct(...).  An existing NAME stays as it is. */
static void declare_struct(struct parser *ps, const char *name,
			   const struct type *old)
{
	if (old)
		return;
	struct type *t = type_new(ps->a, TYPE_STRUCT);
	t->forward = true;
	protolib_add_type(ps->pl, name, t);
}

/* typedef NAME = struct(...) for a forward NAME, which prototypes may
 * already use through pointers: a body the tracer cannot hold (NAME in
 * itself by value, too large) is dropped, so NAME stays an empty
 * struct for everyone. */
static void complete_struct(struct parser *ps, struct type *t)
{
	const char *at = ps->lx.p;
	const char *why;
	char msg[256];

	if (!parse_struct_body(ps, t)) {
		t->nfields = 0;
		return;
	}
	t->forward = false;
	if (type_check(t, &why) != TYPE_CHECK_REFUSED)
		return;
	t->nfields = 0;
	snprintf(msg, sizeof(msg), "%s; its members are ignored", why);
	lex_warn_at(&ps->lx, at, msg);
}

static void define_typedef(struct parser *ps, const char *name,
			   const char *name_at)
{
	bool this_file;
	struct type *old = protolib_own_type(ps->pl, name, &this_file);

	if (lex_keyword(&ps->lx, "struct") &&
	    (lex_skip_ws(&ps->lx), *ps->lx.p != '(')) {
		declare_struct(ps, name, old);
		return;
	}
	if (old && old->forward && old->kind == TYPE_STRUCT &&
	    *ps->lx.p == '(') {
		complete_struct(ps, old);
		return;
	}
	struct type *t;
	if (*ps->lx.p == '(')
		t = parse_struct_body(ps, type_new(ps->a, TYPE_STRUCT));
	else
		t = parse_type(ps);
	if (!t)
		return;
	if (old && this_file) {
		ps->lx.tok = name_at;
		lex_error_tok(&ps->lx, "redefinition of type ", name);
	} else if (!old) {
		protolib_add_type(ps->pl, name, t);
	}
}

static void parse_typedef(struct parser *ps)
{
	char name[256];
	if (!lex_ident(&ps->lx, name, sizeof(name))) {
		lex_error(&ps->lx, "expected ", "type name after 'typedef'");
		return;
	}
	const char *name_at = ps->lx.tok;
	if (!lex_expect(&ps->lx, '='))
		return;
	define_typedef(ps, name, name_at);
	lex_expect(&ps->lx, ';');
}

/* import "NAME";  NAME's definitions become visible to this library
 * (after its own), through the resolver the loader installed.  Without a
 * resolver the import is checked and ignored. */
static void parse_import(struct parser *ps)
{
	lex_skip_ws(&ps->lx);
	const char *at = ps->lx.p;
	const char *q = *at == '"' ? strchr(at + 1, '"') : NULL;
	if (!q || q == at + 1) {
		lex_error(&ps->lx, "expected ",
			  "library name in double quotes after 'import'");
		return;
	}
	ps->lx.p = q + 1;
	if (!lex_expect(&ps->lx, ';'))
		return;
	char *name = xstrndup(at + 1, q - at - 1);
	if (protolib_import(ps->pl, name) < 0)
		lex_error_at(&ps->lx, at, "no prototype library to import for ",
			     name);
	free(name);
}

/* Legacy: a lone "void" parameter means none; other void parameters are
 * hidden ints. */
static void add_param(struct parser *ps, struct prototype *pr, struct type *t,
		      const char *at)
{
	if (t->kind == TYPE_VOID && t->lens == LENS_DEFAULT)
		t = type_lensed(ps->a, TYPE_INT, LENS_HIDE);
	prototype_add_param(pr, holdable(ps, t, at));
}

/* The first '+' splits: the parameters from it on show at the return.
 * A later '+' (upstream's libpthread.so.conf: "pthread_attr_getstack(
 * pthread_attr_t *, +void **, +size_t *)") is accepted and means no
 * more, as in ltrace. */
static bool parse_params(struct parser *ps, struct prototype *pr)
{
	if (lex_accept(&ps->lx, ')'))
		return true;
	do {
		if (lex_accept(&ps->lx, '+') && pr->split == (size_t)-1)
			pr->split = pr->nparams;
		const char *at = ps->lx.p;
		struct type *t = parse_type(ps);
		if (!t)
			return false;
		add_param(ps, pr, t, at);
	} while (lex_accept(&ps->lx, ','));
	if (!lex_expect_close(&ps->lx))
		return false;
	if (pr->nparams == 1 && pr->params[0]->lens == LENS_HIDE &&
	    pr->params[0]->kind == TYPE_INT && pr->split == (size_t)-1)
		pr->nparams = 0; /* f(void) */
	return true;
}

static void parse_function(struct parser *ps)
{
	struct prototype *pr = xcalloc(1, sizeof(*pr));
	char name[512];

	pr->split = (size_t)-1;
	const char *at = ps->lx.p;
	pr->ret = parse_type(ps);
	if (pr->ret && !lex_ident(&ps->lx, name, sizeof(name)))
		lex_error(&ps->lx, "expected ", "function name");
	if (pr->ret && !ps->lx.failed)
		pr->ret = holdable(ps, pr->ret, at);
	if (ps->lx.failed || !lex_expect(&ps->lx, '(') ||
	    !parse_params(ps, pr) || !lex_expect(&ps->lx, ';')) {
		prototype_free(pr);
		return;
	}
	if (pr->split == (size_t)-1)
		pr->split = pr->nparams;
	pr->name = xstrdup(name);
	protolib_add_proto(ps->pl, pr);
}

static void parse_decl(struct parser *ps)
{
	if (lex_keyword(&ps->lx, "typedef"))
		parse_typedef(ps);
	else if (lex_keyword(&ps->lx, "import"))
		parse_import(ps);
	else {
		lex_keyword(&ps->lx, "function");
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
	/* Copied, so that the lexer stops at its end: one buffer for all
	 * the file's declarations. */
	strbuf_reset(&ps->decl);
	strbuf_add(&ps->decl, s, (size_t)(e - s));
	lex_begin(&ps->lx, ps->decl.s ? ps->decl.s : "");
	lex_skip_ws(&ps->lx);
	if (*ps->lx.p && *ps->lx.p != ';' && *ps->lx.p != '#')
		parse_decl(ps);
}

/* ---- declarations parsed at their first lookup ---- */

/* The name the function declaration [S, E) declares, into NAME (SIZE
 * bytes): the identifier before the '(' of its last group at the top
 * level, which ';' ends (a return type may hold groups of its own:
 * hex(int) f(int);).  False when it does not look so: the declaration
 * is then parsed at once, which reports what is wrong with it. */
static bool decl_name(const char *s, const char *e, char *name, size_t size)
{
	const char *open = NULL;
	int depth = 0;
	for (const char *p = s; p < e && *p != '#'; p++) {
		if (*p == '(' || *p == '[') {
			if (!depth++ && *p == '(')
				open = p;
		} else if (*p == ')' || *p == ']') {
			if (--depth < 0)
				return false;
		} else if (*p == ';') {
			if (depth || !open)
				return false;
			const char *end = open;
			while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
				end--;
			const char *id = end;
			while (id > s && lex_ident_char(id[-1]))
				id--;
			size_t n = (size_t)(end - id);
			if (!n || n >= size || (*id >= '0' && *id <= '9'))
				return false;
			memcpy(name, id, n);
			name[n] = '\0';
			return true;
		}
	}
	return false;
}

/* A function declaration [S, E) kept in PL for its first lookup; false
 * when it must be parsed now (a typedef or an import, which later
 * declarations see; one whose name cannot be read off). */
static bool keep_for_later(struct protolib *pl, const char *s, const char *e,
			   int line)
{
	char name[512];
	struct lex lx;
	s += strspn(s, " \t");
	if (s >= e || *s == ';' || *s == '#')
		return false;
	/* S is not blank: lex_keyword compares at S itself, and stops
	 * within the declaration (no keyword holds its newline). */
	lex_begin(&lx, s);
	if (lex_keyword(&lx, "typedef") || lex_keyword(&lx, "import") ||
	    !decl_name(s, e, name, sizeof(name)))
		return false;
	return protolib_has(pl, name) ||
	       protolib_add_later(pl, name, s, (size_t)(e - s), line);
}

/* protolib_parse_fn: one declaration kept for later. */
static void parse_later(struct protolib *pl, const char *file, const char *text,
			size_t len, int line)
{
	struct parser ps = {
		.lx = { .file = file, .line = line },
		.pl = pl,
		.a = protolib_arena(pl),
	};
	parse_line(&ps, text, text + len);
	strbuf_destroy(&ps.decl);
}

/* TEXT, the conf file NAME, into PL; with LATER, its function
 * declarations are only indexed, and parsed at their first lookup. */
static int load_text(struct protolib *pl, const char *name, const char *text,
		     bool later)
{
	struct parser ps = {
		.lx = { .file = name, .line = 1 },
		.pl = pl,
		.a = protolib_arena(pl),
	};
	struct lex *lx = &ps.lx;
	const char *s = text;

	protolib_begin_file(pl);
	while (*s) {
		int extra;
		const char *e = decl_end(s, &extra);

		lx->failed = false;
		if (!later || !keep_for_later(pl, s, e, lx->line))
			parse_line(&ps, s, e);
		if (lx->failed && lx->err_line > lx->line && lx->err_col == 1) {
			/* An unclosed declaration swallowed the next lines
			 * and failed at the start of one: that line begins
			 * a declaration of its own, so parse it again. */
			while (lx->line < lx->err_line) {
				s = strchr(s, '\n') + 1;
				lx->line++;
			}
			continue;
		}
		lx->line += extra + 1;
		s = *e ? e + 1 : e;
	}
	strbuf_destroy(&ps.decl);
	return lx->nerr;
}

int conf_load_string(struct protolib *pl, const char *name, const char *text)
{
	return load_text(pl, name, text, false);
}

/* PATH's text, malloc'd into *TEXT; 0 or -1 (said on stderr). */
static int read_file(const char *path, char **text)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "ltrace: %s: %s\n", path, strerror(errno));
		return -1;
	}
	struct strbuf sb;
	strbuf_init(&sb);
	char buf[8192];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(f);
	*text = sb.s ? sb.s : xstrdup("");
	return 0;
}

int conf_load_file(struct protolib *pl, const char *path)
{
	char *text;
	if (read_file(path, &text))
		return -1;
	int ret = load_text(pl, path, text, false);
	free(text);
	return ret;
}

int conf_load_file_later(struct protolib *pl, const char *path)
{
	char *text;
	if (read_file(path, &text))
		return -1;
	protolib_keep_text(pl, text, path, parse_later);
	return load_text(pl, path, text, true);
}
