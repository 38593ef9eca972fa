/* Unit test of the selection language (ltrace/filter.c) and of what the
 * backend asks (ltrace/select.c): tables of expressions and the
 * (symbol, object) pairs they must and must not select, of malformed
 * expressions and the reason given for each, and of option sets
 * (parsed by options_parse as from a command line) with the answers of
 * select.h. */
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "demangle.h"
#include "filter.h"
#include "options.h"
#include "select.h"

static const struct select_obj prog = { "prog", "/tmp/t/prog", true };
static const struct select_obj libc = { "libc.so.6",
					"/usr/lib/x86_64-linux-gnu/libc.so.6",
					false };
static const struct select_obj libfoo = { "libfoo-2.so", "/opt/foo/libfoo-2.so",
					  false };
static const struct select_obj libcxx = {
	"libstdc++.so.6", "/usr/lib/x86_64-linux-gnu/libstdc++.so.6", false
};
/* A library whose soname is MAIN: only "^MAIN"-like patterns name it. */
static const struct select_obj libmain = { "MAIN", "/opt/MAIN", false };

struct match_case {
	enum filter_syntax syntax;
	const char *expr;
	const char *sym;
	const struct select_obj *obj;
	bool want;
};

#define E FILTER_EXPR
#define L FILTER_LIBRARY

static const struct match_case matches[] = {
	/* Globs against the whole name. */
	{ E, "malloc", "malloc", &libc, true },
	{ E, "malloc", "mallocx", &libc, false },
	{ E, "malloc", "free", &prog, false },
	{ E, "mall*", "malloc", &prog, true },
	{ E, "?alloc", "calloc", &prog, true },
	{ E, "?alloc", "realloc", &prog, false },
	{ E, "[mc]alloc", "calloc", &prog, true },
	{ E, "[mc]alloc", "realloc", &prog, false },
	{ E, "[!m]alloc", "calloc", &prog, true },
	{ E, "[!m]alloc", "malloc", &prog, false },
	{ E, "[^m]alloc", "malloc", &prog, false },
	{ E, "str[a-z]*", "strlen", &prog, true }, /* '-' in brackets */
	{ E, "str[a-z]*", "str_x", &prog, false },
	{ E, "[[:upper:]]*", "Foo", &prog, true },
	{ E, "[[:upper:]]*", "foo", &prog, false },
	{ E, "[]x]*", "]a", &prog, true },
	{ E, "str\\*", "str*", &prog, true },
	{ E, "str\\*", "strlen", &prog, false },
	{ E, "^malloc$", "malloc", &prog, true },
	{ E, "^malloc$", "xmalloc", &prog, false },
	/* Regexes: whole name unless anchored by the user. */
	{ E, "/get.*/", "getenv", &prog, true },
	{ E, "/get.*/", "forget", &prog, false },
	{ E, "/get/", "getenv", &prog, false },
	{ E, "/get/", "get", &prog, true },
	{ E, "/^get/", "getenv", &prog, true },
	{ E, "/^get/", "forget", &prog, false },
	{ E, "/env$/", "getenv", &prog, true },
	{ E, "/env$/", "envp", &prog, false },
	{ E, "/a|b/", "a", &prog, true },
	{ E, "/a|b/", "ab", &prog, false },
	{ E, "/^(get|set)env$/", "setenv", &prog, true },
	{ E, "/^(get|set)env$/", "setenvx", &prog, false },
	{ E, "/str[a-z]+/", "strlen", &prog, true }, /* '+', '-' inside */
	{ E, "/x\\/y/", "x/y", &prog, true },
	/* Chains, left to right. */
	{ E, "malloc+free", "free", &prog, true },
	{ E, "malloc+free", "calloc", &prog, false },
	{ E, "*-free", "malloc", &prog, true },
	{ E, "*-free", "free", &prog, false },
	{ E, "a+b-a", "a", &prog, false },
	{ E, "a+b-a", "b", &prog, true },
	{ E, "-free", "malloc", &libc, true }, /* leading '-': all but */
	{ E, "-free", "free", &libc, false },
	{ E, "!free", "malloc", &prog, true },
	{ E, "!free", "free", &prog, false },
	{ E, "-a+a", "a", &prog, true },
	{ E, "*@libc*-str*@libc*", "malloc", &libc, true },
	{ E, "*@libc*-str*@libc*", "strlen", &libc, false },
	{ E, "*@libc*-str*@libc*", "malloc", &prog, false },
	{ E, "malloc+free-@libc.so*", "free", &prog, true },
	{ E, "malloc+free-@libc.so*", "free", &libc, false },
	/* Library parts. */
	{ E, "@", "anything", &libfoo, true },
	{ E, "foo@", "foo", &libfoo, true },
	{ E, "@libc.so.6", "x", &libc, true },
	{ E, "@libc.so.6", "x", &prog, false },
	{ E, "@MAIN", "x", &prog, true },
	{ E, "*@MAIN", "x", &libc, false },
	{ E, "@MAIN", "x", &libmain, false },
	{ E, "@^MAIN", "x", &libmain, true },
	{ E, "@^MAIN", "x", &prog, false },
	{ E, "@[M]AIN", "x", &libmain, true },
	{ E, "@prog", "x", &prog, true }, /* the main program's file name */
	{ E, "@libfoo\\-2.so", "x", &libfoo, true },
	{ E, "@libstdc\\+\\+*", "x", &libcxx, true },
	{ E, "@/libc.*/", "x", &libc, true },
	{ E, "@/libc.*/-free", "free", &libc, false },
	{ E, "/mal.*@libc.*/", "malloc", &libc, true }, /* '/X@Y/' */
	{ E, "/mal.*@libc.*/", "malloc", &prog, false },
	{ E, "/mal.*/@/libc.*/", "malloc", &libc, true },
	{ E, "/mal.*/@libc*", "malloc", &libc, true },
	/* Paths: '/' not ending the rule as a regex, to the end. */
	{ E, "@/usr/lib/x86_64-linux-gnu/libc.so.6", "x", &libc, true },
	{ E, "@/usr/lib/x86_64-linux-gnu/libc.so.6", "x", &libfoo, false },
	{ E, "@/usr/lib/*/libc.so.*", "x", &libc, true },
	{ E, "@/*", "x", &prog, true },
	{ E, "malloc@/opt/*", "malloc", &libfoo, true },
	{ E, "malloc@/opt/*+free", "malloc", &libfoo, false },
	/* -l: one library pattern, '+', '-' and '@' literal. */
	{ L, "libc.so*", NULL, &libc, true },
	{ L, "libc.so*", NULL, &prog, false },
	{ L, "libfoo-2.so", NULL, &libfoo, true },
	{ L, "libstdc++*", NULL, &libcxx, true },
	{ L, "MAIN", NULL, &prog, true },
	{ L, "MAIN", NULL, &libmain, false },
	{ L, "/usr/lib/*", NULL, &libc, true },
	{ L, "/usr/lib/*", NULL, &libfoo, false },
	{ L, "/libc.*/", NULL, &libc, true },
	{ L, "/^libstd/", NULL, &libcxx, true },
};

static void test_matches(void)
{
	for (size_t i = 0; i < sizeof(matches) / sizeof(matches[0]); i++) {
		const struct match_case *c = &matches[i];
		char *err = NULL;
		struct filter *f = filter_compile(c->expr, c->syntax, &err);
		if (!f) {
			FAIL("'%s': %s", c->expr, err);
			free(err);
			continue;
		}
		bool got = filter_match(f, c->sym, NULL, c->obj);
		CHECK(got == c->want, "'%s' on %s@%s: got %d", c->expr,
		      c->sym ? c->sym : "(none)", c->obj->soname, got);
		filter_free(f);
	}
}

struct error_case {
	enum filter_syntax syntax;
	const char *expr;
	const char *why;
};

static const struct error_case errors[] = {
	{ E, "", "empty expression" },
	{ E, "foo[", "unmatched '['" },
	{ E, "[[:foo:]]", "unknown character class 'foo'" },
	{ E, "[[:alpha]", "unmatched '[:'" },
	{ E, "foo\\", "trailing '\\'" },
	{ E, "^", "empty pattern" },
	{ E, "/abc", "unmatched '/'" },
	{ E, "/a@b", "unmatched '/'" },
	{ E, "//", "empty regular expression" },
	{ E, "/a[/", "unmatched '['" },
	{ E, "/*x/", "invalid preceding regular expression" },
	{ E, "/(a/", "unmatched ( or \\(" },
	{ E, "/a/b", "unexpected 'b' after '/a/'" },
	{ E, "foo+",
	  "missing rule after '+' (a literal '+' is written '\\+')" },
	{ E, "a++b",
	  "missing rule after '+' (a literal '+' is written '\\+')" },
	{ E, "*@libstdc++*",
	  "missing rule after '+' (a literal '+' is written '\\+')" },
	{ E, "+foo", "missing rule before '+'" },
	{ E, "!", "missing rule after '!'" },
	{ E, "!-a", "missing rule after '!'" },
	{ E, "@lib[", "unmatched '['" },
	{ E, "@/usr/[x", "unmatched '['" },
	{ E, "@/(x/", "unmatched ( or \\(" },
	{ L, "", "empty pattern" },
	{ L, "lib[", "unmatched '['" },
	{ L, "/lib(/", "unmatched ( or \\(" },
};

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		const struct error_case *c = &errors[i];
		char *err = NULL;
		struct filter *f = filter_compile(c->expr, c->syntax, &err);
		CHECK(!f, "'%s' compiled", c->expr);
		CHECK_STR(err, c->why);
		free(err);
		filter_free(f);
	}
}

static void test_demangle(void)
{
	char *d = demangle("_ZN3foo3barEv");
	CHECK_STR(d, "foo::bar()");
	free(d);
	d = demangle("_ZNSt6vectorIiSaIiEE9push_backERKi");
	CHECK_STR(d, "std::vector<int, std::allocator<int> >::push_back(int "
		     "const&)");
	free(d);
	CHECK(demangle("malloc") == NULL);
	CHECK(demangle("_Zfoo") == NULL);

	/* Either name matches, with the demangled one given. */
	char *err = NULL;
	struct filter *f = filter_compile("foo::bar*", FILTER_EXPR, &err);
	CHECK(f != NULL);
	CHECK(filter_match(f, "_ZN3foo3barEv", "foo::bar()", &prog));
	CHECK(!filter_match(f, "_ZN3foo3barEv", NULL, &prog));
	filter_free(f);
}

/* A path pattern without wildcards also matches the file it names
 * through symbolic links (/lib -> usr/lib on merged-/usr systems), since
 * the kernel maps the file under its real path. */
static void test_symlinked_path(void)
{
	char dir[] = "/tmp/test_select.XXXXXX";
	if (!mkdtemp(dir)) {
		FAIL("mkdtemp");
		return;
	}
	char real[PATH_MAX], link[PATH_MAX], pat[PATH_MAX + 2];
	snprintf(real, sizeof(real), "%s/libreal.so", dir);
	snprintf(link, sizeof(link), "%s/liblink.so", dir);
	FILE *f = fopen(real, "w");
	CHECK(f != NULL);
	if (f)
		fclose(f);
	CHECK(symlink("libreal.so", link) == 0);
	char *canon = realpath(real, NULL);
	struct select_obj obj = { "libreal.so", canon, false };
	snprintf(pat, sizeof(pat), "@%s", link);
	char *err = NULL;
	struct filter *flt = filter_compile(pat, FILTER_EXPR, &err);
	CHECK(flt && filter_match(flt, "x", NULL, &obj), "%s", pat);
	filter_free(flt);
	flt = filter_compile(link, FILTER_LIBRARY, &err);
	CHECK(flt && filter_match(flt, NULL, NULL, &obj), "%s", link);
	filter_free(flt);
	free(canon);
	unlink(link);
	unlink(real);
	rmdir(dir);
}

/* options_parse on ARGS (NULL-terminated, the command included). */
static void parse(struct options *o, const char *const *args)
{
	static char *argv[32];
	int argc = 0;
	argv[argc++] = "ltrace";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	optind = 0; /* glibc: start over */
	options_parse(o, argc, argv);
}

#define PARSE(o, ...) parse(o, (const char *const[]){ __VA_ARGS__, NULL })

static void test_default(void)
{
	struct options o;
	PARSE(&o, "true");
	CHECK(select_stub(&o, "malloc", &prog, false));
	CHECK(!select_stub(&o, "malloc", &libc, false));
	CHECK(select_stub(&o, "malloc", &libc, true));
	CHECK(!select_callee(&o, &libc));
	CHECK(!select_entry(&o, "main", &prog));
	CHECK(!select_shows_caller(&o));
	CHECK(!select_has_entries(&o));
	/* the libraries' own stubs need not even be read */
	CHECK(!select_library_calls(&o));
	options_destroy(&o);

	PARSE(&o, "-L", "true");
	CHECK(!select_stub(&o, "malloc", &prog, false));
	CHECK(select_stub(&o, "malloc", &prog, true));
	CHECK(!select_shows_caller(&o));
	CHECK(!select_library_calls(&o));
	options_destroy(&o);

	PARSE(&o, "-e", "malloc", "true");
	CHECK(select_library_calls(&o));
	options_destroy(&o);
	PARSE(&o, "-l", "libm.so.6", "true");
	CHECK(select_library_calls(&o));
	options_destroy(&o);

	/* -x alone keeps the default -e @MAIN, as in ltrace. */
	PARSE(&o, "-x", "main", "true");
	CHECK(select_stub(&o, "malloc", &prog, false));
	CHECK(select_entry(&o, "main", &prog));
	CHECK(!select_entry(&o, "mainx", &prog));
	CHECK(select_has_entries(&o));
	CHECK(!select_shows_caller(&o));
	CHECK(select_library_calls(&o));
	options_destroy(&o);

	PARSE(&o, "-L", "-x", "str*@libc.so.6", "true");
	CHECK(!select_stub(&o, "strlen", &prog, false));
	CHECK(select_entry(&o, "strlen", &libc));
	CHECK(!select_entry(&o, "strlen", &prog));
	options_destroy(&o);
}

static void test_e_and_l(void)
{
	struct options o;
	PARSE(&o, "-e", "malloc", "-e", "free@MAIN", "true");
	CHECK(select_stub(&o, "malloc", &libc, false));
	CHECK(select_stub(&o, "free", &prog, false));
	CHECK(!select_stub(&o, "free", &libc, false));
	CHECK(!select_stub(&o, "puts", &prog, false));
	CHECK(select_stub(&o, "puts", &prog, true));
	CHECK(select_shows_caller(&o));
	options_destroy(&o);

	/* -l: no default; stubs are chosen through callee_selected. */
	PARSE(&o, "-l", "libc.so*", "--library=libfoo-2.so", "true");
	CHECK(select_callee(&o, &libc));
	CHECK(select_callee(&o, &libfoo));
	CHECK(!select_callee(&o, &prog));
	CHECK(!select_stub(&o, "malloc", &prog, false));
	CHECK(select_stub(&o, "malloc", &prog, true));
	CHECK(select_shows_caller(&o));
	options_destroy(&o);

	PARSE(&o, "-L", "-l", "/usr/lib/*", "true");
	CHECK(select_callee(&o, &libc));
	CHECK(!select_callee(&o, &libfoo));
	options_destroy(&o);
}

static void test_demangled_selection(void)
{
	struct options o;
	PARSE(&o, "-e", "foo::bar*", "true");
	CHECK(!o.demangle);
	CHECK(!select_stub(&o, "_ZN3foo3barEv", &prog, false));
	options_destroy(&o);

	PARSE(&o, "-C", "-e", "foo::bar*", "-x", "/foo::.*/", "true");
	CHECK(o.demangle);
	CHECK(select_stub(&o, "_ZN3foo3barEv", &prog, false));
	CHECK(!select_stub(&o, "_ZN3foo3bazEv", &prog, false));
	CHECK(select_entry(&o, "_ZN3foo3bazEv", &libfoo));
	options_destroy(&o);

	/* The mangled name still matches with -C. */
	PARSE(&o, "--demangle", "-e", "_ZN3foo*", "true");
	CHECK(select_stub(&o, "_ZN3foo3barEv", &prog, false));
	CHECK(!select_stub(&o, "malloc", &prog, false));
	options_destroy(&o);
}

/* Of the aliases at one address, the one -x or -e names exactly is the
 * one an entry shows: select_entry_hit tells a name from a pattern. */
static void test_named(void)
{
	struct options o;
	PARSE(&o, "-x", "*ftell+_IO_ftell@libc.so.6", "true");
	CHECK(select_entry_hit(&o, "ftell", &libc) == SELECT_MATCH);
	CHECK(select_entry_hit(&o, "_IO_ftell", &libc) == SELECT_NAMED);
	/* the library part must hold for -x's name */
	CHECK(select_entry_hit(&o, "_IO_ftell", &prog) == SELECT_MATCH);
	CHECK(select_entry_hit(&o, "fseek", &libc) == SELECT_NO);
	options_destroy(&o);

	/* a glob that happens to match one name, an escape, a regex: not
	 * names; a name later unmarked is no name */
	PARSE(&o, "-x", "ftel?+/_IO_ftell/+\\ftello", "-x", "fseek-fseek",
	      "true");
	CHECK(select_entry_hit(&o, "ftell", &libc) == SELECT_MATCH);
	CHECK(select_entry_hit(&o, "_IO_ftell", &libc) == SELECT_MATCH);
	CHECK(select_entry_hit(&o, "ftello", &libc) == SELECT_MATCH);
	CHECK(select_entry_hit(&o, "fseek", &libc) == SELECT_NO);
	options_destroy(&o);

	/* -e's names count too, whatever library their rule gives (for -e,
	 * the caller); a name marked again after a glob stays a name */
	PARSE(&o, "-e", "_IO_ftell@MAIN", "-x", "*ftell+ftell", "true");
	CHECK(select_entry_hit(&o, "_IO_ftell", &libc) == SELECT_NAMED);
	CHECK(select_entry_hit(&o, "ftell", &libc) == SELECT_NAMED);
	options_destroy(&o);
}

int main(void)
{
	test_matches();
	test_errors();
	test_demangle();
	test_symlinked_path();
	test_default();
	test_e_and_l();
	test_demangled_selection();
	test_named();
	return check_exit();
}
