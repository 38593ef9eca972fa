/* Parsing and matching of one filter expression (filter.h).
 *
 * Where ltrace 0.7.3 splits an expression at every '+', '-' and '@'
 * (options.c:parse_filter), this scanner knows the patterns it crosses:
 *
 *  - A glob runs to the next '@', '+' or '-' (only '+' and '-' in a
 *    library part), except inside a bracket expression ("[a-z]") or after
 *    a '\' ("libstdc\+\+*"); fnmatch(3) reads the same escapes.  A
 *    leading '^' and a trailing '$' are accepted and mean nothing more
 *    (ltrace's man page: "^ and $ mean start and end of the name", which
 *    a whole-name match is anyway), so "^MAIN" names a library called
 *    MAIN.
 *  - A symbol pattern starting with '/' is a regex that runs to the next
 *    '/' or '@' ('\' and brackets as above).  Ended by '@', it is ltrace's
 *    shorthand '/X@Y/' for '/X/@/Y/': the library regex runs to the next
 *    '/'.  Symbol names never contain '@'.
 *  - A library part starting with '/' is a /regex/ when its next '/' ends
 *    the rule; otherwise it is a glob matched against the object's path,
 *    and runs to the end of the expression, since paths often hold '-'
 *    ("/usr/lib/aarch64-linux-gnu/...").
 *  - A regex is POSIX extended.  An unanchored one must match the whole
 *    name, as in ltrace: it is compiled as ^(...)$.  One that starts with
 *    '^' or ends with '$' is anchored only where it says, so "/^get/"
 *    selects every name starting with "get" (ltrace compiles it as
 *    ^^get$, which matches nothing).
 *
 * Errors are reported once, as the first thing found wrong. */
#include "filter.h"

#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "select.h"
#include "xmalloc.h"

#define NPOS ((size_t)-1)

enum pat_kind {
	PAT_ANY,   /* no pattern: anything */
	PAT_GLOB,  /* fnmatch against the name (symbol or soname) */
	PAT_REGEX, /* regexec against the name */
	PAT_PATH,  /* fnmatch against the object's path */
	PAT_MAIN,  /* the main program */
};

struct pattern {
	enum pat_kind kind;
	char *glob;  /* PAT_GLOB, PAT_PATH */
	char *canon; /* PAT_PATH without wildcards: realpath(glob), or NULL */
	regex_t re;  /* PAT_REGEX */
};

struct rule {
	bool add; /* '+' marks, '-' unmarks */
	struct pattern sym, lib;
};

struct filter {
	bool from_all; /* a leading '-' or '!': everything starts marked */
	struct rule *rules;
	size_t nrules;
};

struct parser {
	const char *s; /* the whole expression */
	size_t pos;
	char *err; /* the first error, allocated */
};

/* Record the reason why P failed, unless one is already recorded; returns
 * NPOS so that scanners can `return fail(...)`. */
static size_t fail(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static size_t fail(struct parser *p, const char *fmt, ...)
{
	if (p->err)
		return NPOS;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p->err = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	p->err[0] = 0;
	va_start(ap, fmt);
	vsnprintf(p->err, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return NPOS;
}

static void forget_error(struct parser *p)
{
	free(p->err);
	p->err = NULL;
}

/* Whether S[I] is preceded by an odd number of backslashes. */
static bool escaped(const char *s, size_t i)
{
	size_t n = 0;
	while (i > n && s[i - n - 1] == '\\')
		n++;
	return n % 2;
}

/* S[K] opens "[:", "[." or "[=" inside a bracket expression: returns the
 * index of the ']' that closes it.  A class name must be known. */
static size_t skip_class(struct parser *p, size_t k)
{
	char d = p->s[k + 1];
	const char *name = p->s + k + 2;
	const char *end = name;
	while (*end && !(end[0] == d && end[1] == ']'))
		end++;
	if (!*end)
		return fail(p, "unmatched '[%c'", d);
	if (d == ':') {
		char *cls = xstrndup(name, end - name);
		bool known = wctype(cls) != 0;
		free(cls);
		if (!known)
			return fail(p, "unknown character class '%.*s'",
				    (int)(end - name), name);
	}
	return end + 1 - p->s;
}

/* S[I] is '[': returns the index just past the bracket expression's ']'.
 * ESCAPES: '\' escapes inside brackets, as in fnmatch but not in POSIX
 * regexes. */
static size_t skip_bracket(struct parser *p, size_t i, bool escapes)
{
	const char *s = p->s;
	size_t k = i + 1;
	if (s[k] == '!' || s[k] == '^')
		k++;
	if (s[k] == ']')
		k++;
	for (; s[k] != ']'; k++) {
		if (!s[k])
			return fail(p, "unmatched '['");
		if (s[k] == '\\' && escapes && s[k + 1])
			k++;
		else if (s[k] == '[' && s[k + 1] && strchr(":.=", s[k + 1]))
			k = skip_class(p, k);
		if (k == NPOS)
			return NPOS;
	}
	return k + 1;
}

/* The end of the glob starting at I: the first unescaped character of
 * STOPS outside brackets, or the end of the text. */
static size_t scan_glob(struct parser *p, size_t i, const char *stops)
{
	const char *s = p->s;
	while (s[i] && !strchr(stops, s[i])) {
		if (s[i] == '\\' && !s[i + 1])
			return fail(p, "trailing '\\'");
		if (s[i] == '\\')
			i += 2;
		else if (s[i] == '[')
			i = skip_bracket(p, i, true);
		else
			i++;
		if (i == NPOS)
			return NPOS;
	}
	return i;
}

/* The end of the regex body starting at I: the index of the first
 * unescaped character of STOPS outside brackets. */
static size_t scan_regex(struct parser *p, size_t i, const char *stops)
{
	const char *s = p->s;
	while (s[i] && !strchr(stops, s[i])) {
		if (s[i] == '\\' && s[i + 1])
			i += 2;
		else if (s[i] == '[')
			i = skip_bracket(p, i, false);
		else
			i++;
		if (i == NPOS)
			return NPOS;
	}
	if (!s[i])
		return fail(p, "unmatched '/'");
	return i;
}

static bool has_wildcards(const char *glob)
{
	return strpbrk(glob, "*?[\\") != NULL;
}

/* A glob from S[A] to S[B] of kind PAT_GLOB or PAT_PATH. */
static bool make_glob(struct parser *p, struct pattern *pat, size_t a, size_t b,
		      enum pat_kind kind)
{
	const char *s = p->s;
	if (kind == PAT_GLOB && a < b && s[a] == '^')
		a++;
	if (kind == PAT_GLOB && a < b && s[b - 1] == '$' && !escaped(s, b - 1))
		b--;
	if (a == b)
		return fail(p, "empty pattern"), false;
	pat->kind = kind;
	pat->glob = xstrndup(s + a, b - a);
	if (kind == PAT_PATH && !has_wildcards(pat->glob))
		pat->canon = realpath(pat->glob, NULL);
	return true;
}

/* Compile SRC into RE, or record regcomp's reason. */
static bool compile_regex(struct parser *p, regex_t *re, const char *src)
{
	int rc = regcomp(re, src, REG_EXTENDED | REG_NOSUB);
	if (rc == 0)
		return true;
	char why[128];
	regerror(rc, re, why, sizeof(why));
	if (why[0] >= 'A' && why[0] <= 'Z')
		why[0] += 'a' - 'A';
	fail(p, "%s", why);
	return false;
}

/* The regex from S[A] to S[B] (the body between the slashes).  The body
 * is compiled alone first, so that an error names the user's text and a
 * stray ')' cannot pair with the anchoring group. */
static bool make_regex(struct parser *p, struct pattern *pat, size_t a,
		       size_t b)
{
	const char *body = p->s + a;
	int n = b - a;
	if (n == 0)
		return fail(p, "empty regular expression"), false;
	char *src = xstrndup(body, n);
	bool ok = compile_regex(p, &pat->re, src);
	bool anchored = body[0] == '^' ||
			(body[n - 1] == '$' && !escaped(p->s, b - 1));
	if (ok && !anchored) {
		regfree(&pat->re);
		free(src);
		src = xmalloc(n + 5);
		sprintf(src, "^(%.*s)$", n, body);
		ok = compile_regex(p, &pat->re, src);
	}
	free(src);
	if (ok)
		pat->kind = PAT_REGEX;
	return ok;
}

static bool ends_rule(char c, const char *stops)
{
	return !c || strchr(stops, c);
}

/* A library pattern at P->pos, up to a character of STOPS: any (empty),
 * MAIN, a /regex/, a /path glob (to the end of the text) or a glob. */
static bool parse_library(struct parser *p, struct pattern *pat,
			  const char *stops)
{
	const char *s = p->s;
	size_t i = p->pos, e;
	if (ends_rule(s[i], stops))
		return true;
	if (s[i] == '/') {
		e = scan_regex(p, i + 1, "/");
		forget_error(p);
		if (e != NPOS && ends_rule(s[e + 1], stops)) {
			p->pos = e + 1;
			return make_regex(p, pat, i + 1, e);
		}
		p->pos = scan_glob(p, i, "");
		return p->pos != NPOS && make_glob(p, pat, i, p->pos, PAT_PATH);
	}
	p->pos = e = scan_glob(p, i, stops);
	if (e == NPOS)
		return false;
	if (e - i == 4 && !strncmp(s + i, "MAIN", 4)) {
		pat->kind = PAT_MAIN;
		return true;
	}
	return make_glob(p, pat, i, e, PAT_GLOB);
}

/* '/X/' ['@' library], or the shorthand '/X@Y/' for '/X/@/Y/'. */
static bool parse_regex_rule(struct parser *p, struct rule *r)
{
	size_t a = p->pos + 1;
	size_t e = scan_regex(p, a, "/@");
	if (e == NPOS || !make_regex(p, &r->sym, a, e))
		return false;
	p->pos = e + 1;
	if (p->s[e] == '@') {
		size_t f = scan_regex(p, e + 1, "/");
		p->pos = f + 1;
		return f != NPOS && make_regex(p, &r->lib, e + 1, f);
	}
	if (p->s[p->pos] != '@')
		return true;
	p->pos++;
	return parse_library(p, &r->lib, "+-");
}

/* A rule that has nothing at P->pos: say where it is missing. */
static bool missing_rule(struct parser *p)
{
	const char *s = p->s;
	size_t i = p->pos;
	if (i == 0)
		fail(p, "missing rule before '%c'", s[i]);
	else if (s[i - 1] == '!')
		fail(p, "missing rule after '!'");
	else
		fail(p,
		     "missing rule after '%c' (a literal '%c' is written "
		     "'\\%c')",
		     s[i - 1], s[i - 1], s[i - 1]);
	return false;
}

/* rule := symbol ['@' library] | '@' [library] */
static bool parse_rule(struct parser *p, struct rule *r)
{
	const char *s = p->s;
	size_t i = p->pos;
	if (s[i] == '/')
		return parse_regex_rule(p, r);
	if (s[i] != '@') {
		size_t e = scan_glob(p, i, "@+-");
		if (e == NPOS)
			return false;
		if (e == i)
			return missing_rule(p);
		if (!make_glob(p, &r->sym, i, e, PAT_GLOB))
			return false;
		p->pos = e;
	}
	if (s[p->pos] != '@')
		return true;
	p->pos++;
	return parse_library(p, &r->lib, "+-");
}

static struct rule *add_rule(struct filter *f, bool add)
{
	f->rules = xreallocarray(f->rules, f->nrules + 1, sizeof(*f->rules));
	struct rule *r = &f->rules[f->nrules++];
	memset(r, 0, sizeof(*r));
	r->add = add;
	return r;
}

/* expr := ['!' | '-'] rule { ('+' | '-') rule } */
static bool parse_expr(struct parser *p, struct filter *f)
{
	const char *s = p->s;
	bool add = true;
	if (s[0] == '!' || s[0] == '-') {
		f->from_all = true;
		add = false;
		p->pos = 1;
	}
	for (;;) {
		if (!parse_rule(p, add_rule(f, add)))
			return false;
		char c = s[p->pos];
		if (!c)
			return true;
		if (c != '+' && c != '-')
			return fail(p, "unexpected '%c' after '%.*s'", c,
				    (int)p->pos, s),
			       false;
		add = c == '+';
		p->pos++;
	}
}

struct filter *filter_compile(const char *text, enum filter_syntax syntax,
			      char **err)
{
	struct parser p = { .s = text };
	struct filter *f = xcalloc(1, sizeof(*f));
	bool ok;
	if (!*text) {
		fail(&p, "empty %s",
		     syntax == FILTER_LIBRARY ? "pattern" : "expression");
		ok = false;
	} else if (syntax == FILTER_LIBRARY) {
		ok = parse_library(&p, &add_rule(f, true)->lib, "");
	} else {
		ok = parse_expr(&p, f);
	}
	if (ok)
		return f;
	filter_free(f);
	*err = p.err ? p.err : xstrdup("malformed");
	return NULL;
}

static void pattern_destroy(struct pattern *pat)
{
	if (pat->kind == PAT_REGEX)
		regfree(&pat->re);
	free(pat->glob);
	free(pat->canon);
}

void filter_free(struct filter *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nrules; i++) {
		pattern_destroy(&f->rules[i].sym);
		pattern_destroy(&f->rules[i].lib);
	}
	free(f->rules);
	free(f);
}

static bool name_matches(const struct pattern *pat, const char *name)
{
	if (!name)
		return false;
	if (pat->kind == PAT_REGEX)
		return regexec(&pat->re, name, 0, NULL, 0) == 0;
	return fnmatch(pat->glob, name, 0) == 0;
}

static bool sym_matches(const struct pattern *pat, const char *sym,
			const char *demangled)
{
	return pat->kind == PAT_ANY || name_matches(pat, sym) ||
	       name_matches(pat, demangled);
}

static bool lib_matches(const struct pattern *pat, const struct select_obj *obj)
{
	switch (pat->kind) {
	case PAT_ANY:
		return true;
	case PAT_MAIN:
		return obj->is_main;
	case PAT_PATH:
		return obj->path &&
		       (fnmatch(pat->glob, obj->path, 0) == 0 ||
			(pat->canon && !strcmp(pat->canon, obj->path)));
	default:
		return name_matches(pat, obj->soname);
	}
}

bool filter_match(const struct filter *f, const char *sym,
		  const char *demangled, const struct select_obj *obj)
{
	bool marked = f->from_all;
	for (size_t i = 0; i < f->nrules; i++) {
		const struct rule *r = &f->rules[i];
		if (r->add != marked && lib_matches(&r->lib, obj) &&
		    sym_matches(&r->sym, sym, demangled))
			marked = r->add;
	}
	return marked;
}

/* A rule's symbol pattern is the name SYM itself: a glob without
 * wildcards (nor escapes) that matches it. */
static bool names_literally(const struct pattern *pat, const char *sym,
			    const char *demangled)
{
	return pat->kind == PAT_GLOB && !has_wildcards(pat->glob) &&
	       sym_matches(pat, sym, demangled);
}

bool filter_names(const struct filter *f, const char *sym,
		  const char *demangled, const struct select_obj *obj)
{
	bool named = false;
	for (size_t i = 0; i < f->nrules; i++) {
		const struct rule *r = &f->rules[i];
		if ((obj && !lib_matches(&r->lib, obj)) ||
		    !sym_matches(&r->sym, sym, demangled))
			continue;
		named = r->add &&
			(named || names_literally(&r->sym, sym, demangled));
	}
	return named;
}
