/* The declarations of the conf language (ltrace.conf(5)) and the files
 * that hold them: a file's lines into declarations, each parsed into a
 * protolib (its types and expressions by conftype.c), at once or, in a
 * file found by search, at the first lookup of the function it declares.
 *
 * A file is a sequence of declarations, one per line (a declaration whose
 * parentheses are still open continues on the next line):
 *
 *	[function] TYPE NAME(PARAM, ...) [errno(ALT|...)]
 *	typedef NAME = TYPE		typedef NAME = struct
 *	import "NAME"		(NAME.conf's definitions, through
 *				 the resolver; see protolib.h)
 *
 * Each may end with ';', as ltrace's own files are written both ways
 * (its etc/syscalls.conf has lines without).  ';' and '#' start
 * comments, on a line of their own or after a declaration.  A '+'
 * before a parameter puts it and those after it at the return (the
 * first '+' only).  errno(...) states which returns are failures
 * (errcond.h).
 * A bad declaration is reported as "file:line:col: error: ..." and
 * skipped: the rest of the file loads. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "conftype.h"
#include "errcond.h"
#include "lex.h"
#include "protolib.h"
#include "strbuf.h"
#include "type.h"
#include "xmalloc.h"

/* ---- declarations ---- */

/* typedef NAME = struct: a forward declaration, completed by a later
 * typedef NAME = struct(...).  An existing NAME stays as it is. */
static void declare_struct(struct conf_parser *ps, const char *name,
			   const struct type *old)
{
	if (!lex_expect_end(&ps->lx) || old)
		return;
	struct type *t = type_new(ps->a, TYPE_STRUCT);
	t->forward = true;
	protolib_add_type(ps->pl, name, t);
}

/* typedef NAME = struct(...) for a forward NAME, which prototypes may
 * already use through pointers: a body the tracer cannot hold (NAME in
 * itself by value, too large) is dropped, so NAME stays an empty
 * struct for everyone, and so is a bad one (NAME stays forward). */
static void complete_struct(struct conf_parser *ps, struct type *t)
{
	const char *at = ps->lx.p;
	const char *why;
	char msg[256];

	if (!conftype_struct_body(ps, t) || !lex_expect_end(&ps->lx)) {
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

/* The type of typedef NAME = ..., at the cursor: "(T, ...)" alone is a
 * struct too. */
static struct type *typedef_type(struct conf_parser *ps)
{
	struct type *t;

	if (*ps->lx.p == '(')
		t = conftype_struct_body(ps, type_new(ps->a, TYPE_STRUCT));
	else
		t = conftype_parse(ps);
	return t && lex_expect_end(&ps->lx) ? t : NULL;
}

/* After "typedef NAME =": a name is defined once per file; a file
 * loaded earlier into the same library wins silently. */
static void define_typedef(struct conf_parser *ps, const char *name,
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
	struct type *t = typedef_type(ps);
	if (!t)
		return;
	if (old && this_file) {
		ps->lx.tok = name_at;
		lex_error_tok(&ps->lx, "redefinition of type ", name);
	} else if (!old) {
		protolib_add_type(ps->pl, name, t);
	}
}

static void parse_typedef(struct conf_parser *ps)
{
	char name[256];
	if (!lex_ident(&ps->lx, name, sizeof(name))) {
		lex_error(&ps->lx, "expected ", "type name after 'typedef'");
		return;
	}
	const char *name_at = ps->lx.tok;
	if (lex_expect(&ps->lx, '='))
		define_typedef(ps, name, name_at);
}

/* import "NAME": NAME's definitions become visible to this library
 * (after its own), through the resolver the loader installed.  Without a
 * resolver the import is checked and ignored. */
static void parse_import(struct conf_parser *ps)
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
	if (!lex_expect_end(&ps->lx))
		return;
	char *name = xstrndup(at + 1, q - at - 1);
	if (protolib_import(ps->pl, name) < 0)
		lex_error_at(&ps->lx, at, "no prototype library to import for ",
			     name);
	free(name);
}

/* Legacy: a lone "void" parameter means none; other void parameters are
 * hidden ints. */
static void add_param(struct conf_parser *ps, struct prototype *pr,
		      struct type *t, const char *at)
{
	if (t->kind == TYPE_VOID && t->lens == LENS_DEFAULT)
		t = type_lensed(ps->a, TYPE_INT, LENS_HIDE);
	prototype_add_param(pr, conftype_hold(ps, t, at));
}

/* The first '+' splits: the parameters from it on show at the return.
 * A later '+' (upstream's libpthread.so.conf: "pthread_attr_getstack(
 * pthread_attr_t *, +void **, +size_t *)") is accepted and means no
 * more, as in ltrace. */
static bool parse_params(struct conf_parser *ps, struct prototype *pr)
{
	if (lex_accept(&ps->lx, ')'))
		return true;
	do {
		if (lex_accept(&ps->lx, '+') && pr->split == (size_t)-1)
			pr->split = pr->nparams;
		const char *at = ps->lx.p;
		struct type *t = conftype_parse(ps);
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

static void parse_function(struct conf_parser *ps)
{
	struct prototype *pr = xcalloc(1, sizeof(*pr));
	char name[512];

	pr->split = (size_t)-1;
	const char *at = ps->lx.p;
	pr->ret = conftype_parse(ps);
	if (pr->ret && !lex_ident(&ps->lx, name, sizeof(name)))
		lex_error(&ps->lx, "expected ", "function name");
	if (pr->ret && !ps->lx.failed)
		pr->ret = conftype_hold(ps, pr->ret, at);
	if (ps->lx.failed || !lex_expect(&ps->lx, '(') ||
	    !parse_params(ps, pr) ||
	    (lex_keyword(&ps->lx, "errno") && !errcond_parse(&ps->lx, pr)) ||
	    !lex_expect_end(&ps->lx)) {
		prototype_free(pr);
		return;
	}
	if (pr->split == (size_t)-1)
		pr->split = pr->nparams;
	pr->name = xstrdup(name);
	protolib_add_proto(ps->pl, pr);
}

static void parse_decl(struct conf_parser *ps)
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

static void parse_line(struct conf_parser *ps, const char *s, const char *e)
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

/* The identifier that ends right before OPEN (blanks between), into
 * NAME (SIZE bytes); false when there is none. */
static bool name_before(const char *s, const char *open, char *name,
			size_t size)
{
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

/* Whether the group at OPEN, after the identifier "errno", follows the
 * ')' at CLOSE with blanks between: a clause, not a parameter list. */
static bool is_clause(const char *s, const char *open, const char *close)
{
	const char *id = open;
	while (id > s && (id[-1] == ' ' || id[-1] == '\t'))
		id--;
	id -= strlen("errno");
	while (id > s && (id[-1] == ' ' || id[-1] == '\t'))
		id--;
	return close && id - 1 == close;
}

/* The name the function declaration [S, E) declares, into NAME (SIZE
 * bytes): the identifier before the '(' of its last group at the top
 * level (a return type may hold groups of its own: hex(int) f(int)),
 * up to the end or a ';' or '#' that starts a comment, or before the
 * group ahead of it when the last is a clause "errno(...)" right after
 * a group's ')'.  False when it does not look so: the declaration is
 * then parsed at once, which reports what is wrong with it. */
static bool decl_name(const char *s, const char *e, char *name, size_t size)
{
	const char *open = NULL, *prev = NULL, *prev_close = NULL;
	const char *close = NULL;
	int depth = 0;
	for (const char *p = s; p < e && *p != ';' && *p != '#'; p++) {
		if (*p == '(' || *p == '[') {
			if (!depth++ && *p == '(') {
				prev = open;
				prev_close = close;
				open = p;
			}
		} else if (*p == ')' || *p == ']') {
			if (--depth < 0)
				return false;
			if (!depth && *p == ')')
				close = p;
		}
	}
	if (depth || !open || !name_before(s, open, name, size))
		return false;
	if (strcmp(name, "errno") || !prev || !is_clause(s, open, prev_close))
		return true;
	return name_before(s, prev, name, size);
}

/* A function declaration [S, E) kept in PL for its first lookup, or
 * dropped when an earlier one defines its name; false when it must be
 * parsed now (a typedef or an import, which later declarations see; one
 * whose name cannot be read off). */
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
	return protolib_defines(pl, name) ||
	       protolib_add_later(pl, name, s, (size_t)(e - s), line);
}

/* protolib_parse_fn: one declaration kept for later. */
static void parse_later(struct protolib *pl, const char *file, const char *text,
			size_t len, int line)
{
	struct conf_parser ps = {
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
	struct conf_parser ps = {
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
