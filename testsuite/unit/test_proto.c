/* Unit test of the prototype language parser and the protolib. */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "conf.h"
#include "expr.h"
#include "protolib.h"
#include "type.h"

static const char conf[] =
	"; comment\n"
	"# another comment\n"
	"\n"
	"typedef pt = struct(int, int);\n"
	"typedef node = struct;\n"
	"typedef node = struct(int, node*);\n"
	"typedef sigset_t = bitvec(ulong);\n"
	"typedef color = enum(RED, GREEN=5, BLUE);\n"
	"import \"libfoo\";\n"
	"int open(string,int,octal);  ; WARNING: trailing comment\n"
	"long read(int, +string[retval], ulong);\n"
	"long write(int,string3,ulong);\n"
	"void f_void(void);\n"
	"pt mk_pt(int, int);\n"
	"int ll(node*);\n"
	"function int fn(itn, addr, file, format);\n"
	"int e(enum[long](A=-1, B), color, hex(uint), oct(int), hide(int));\n"
	"int arr(array(int, arg2)*, int, array(string, zero(4))*);\n"
	"int s(struct(ulong, array(int, elt1))*, string(char*), bool, bool(int));\n"
	"double d(float, double, llong, ullong, ushort, short, char);\n"
	"int multi(int,\n"
	"          int);\n"
	"int two_plus(int *, +void **, +ulong *);\n"
	"int all_plus(+int*, +int*);\n";

static void test_basic(void)
{
	struct protolib *pl = protolib_new();
	const struct prototype *p;

	CHECK(conf_load_string(pl, "t.conf", conf) == 0);
	p = protolib_lookup(pl, "open");
	CHECK(p && p->nparams == 3 && p->split == 3);
	CHECK(p && p->params[2]->lens == LENS_OCT &&
	      p->params[2]->kind == TYPE_INT);
	p = protolib_lookup(pl, "read");
	CHECK(p && p->split == 1 && p->params[1]->lens == LENS_STRING);
	/* string[E] and stringN are zero(E), zero(argN), as in ltrace */
	CHECK(p && p->params[1]->elt->len->kind == EXPR_ZERO &&
	      p->params[1]->elt->len->sub->kind == EXPR_RETVAL);
	p = protolib_lookup(pl, "write");
	CHECK(p && p->params[1]->elt->len->kind == EXPR_ZERO &&
	      p->params[1]->elt->len->sub->kind == EXPR_ARG &&
	      p->params[1]->elt->len->sub->num == 3);
	p = protolib_lookup(pl, "f_void");
	CHECK(p && p->nparams == 0 && p->ret->kind == TYPE_VOID);
	p = protolib_lookup(pl, "mk_pt");
	CHECK(p && p->ret->kind == TYPE_STRUCT && type_sizeof(p->ret) == 8);
	p = protolib_lookup(pl, "ll");
	CHECK(p && p->params[0]->elt->nfields == 2 &&
	      p->params[0]->elt->fields[1]->elt == p->params[0]->elt);
	p = protolib_lookup(pl, "fn");
	CHECK(p && p->nparams == 4 && p->params[3]->kind == TYPE_PACK);
	CHECK(p && p->params[1]->lens == LENS_ADDR);
	p = protolib_lookup(pl, "e");
	CHECK(p && p->params[0]->kind == TYPE_LONG &&
	      p->params[0]->nenums == 2 && p->params[0]->enums[1].value == 0);
	CHECK(p && p->params[1]->enums[2].value == 6);
	CHECK(p && p->params[4]->lens == LENS_HIDE);
	p = protolib_lookup(pl, "s");
	CHECK(p && p->params[0]->elt->fields[1]->len->kind == EXPR_ELT);
	CHECK(p && p->params[2]->lens == LENS_BOOL);
	p = protolib_lookup(pl, "d");
	CHECK(p && p->nparams == 7 && p->params[0]->kind == TYPE_FLOAT);
	p = protolib_lookup(pl, "multi");
	CHECK(p && p->nparams == 2);
	/* the first '+' splits; later ones mean nothing more */
	p = protolib_lookup(pl, "two_plus");
	CHECK(p && p->nparams == 3 && p->split == 1);
	CHECK(p && p->params[1]->elt->elt->kind == TYPE_VOID);
	p = protolib_lookup(pl, "all_plus");
	CHECK(p && p->nparams == 2 && p->split == 0);
	CHECK(!protolib_lookup(pl, "nonexistent"));
	protolib_free(pl);
}

/* What FN(ARG) prints on stderr (a static buffer). */
static const char *stderr_of(void (*fn)(void *), void *arg)
{
	static char buf[8192];
	FILE *f = tmpfile();

	fflush(stderr);
	int saved = dup(2);
	dup2(fileno(f), 2);
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* A load and its outcome, for stderr_of. */
struct load {
	struct protolib *pl;
	const char *name, *text;
	int nerr;
	bool later; /* conf_load_file_later of the file NAME */
};

static void run_load(void *arg)
{
	struct load *ld = arg;
	ld->nerr = ld->later ? conf_load_file_later(ld->pl, ld->name) :
			       conf_load_string(ld->pl, ld->name, ld->text);
}

/* Load TEXT as NAME and return what was printed on stderr (static). */
static const char *load_capture(struct protolib *pl, const char *name,
				const char *text, int *nerr)
{
	struct load ld = { pl, name, text, 0, false };
	const char *out = stderr_of(run_load, &ld);
	*nerr = ld.nerr;
	return out;
}

/* Every error message, exactly, with its line and column; one per bad
 * declaration, and the good lines around them still load. */
static const struct {
	const char *text, *msg;
} errors[] = {
	{ "int bad(int;\n", "e.conf:1:12: error: expected ',' or ')'\n" },
	{ "int bad(unknowntype);\n",
	  "e.conf:1:9: error: unknown type 'unknowntype'\n" },
	{ "int bad int);\n", "e.conf:1:9: error: expected '('\n" },
	{ "typedef x = int;\ntypedef x = long;\n",
	  "e.conf:2:9: error: redefinition of type 'x'\n" },
	{ "int bad(array(int));\n",
	  "e.conf:1:18: error: expected ',' and the array length\n" },
	{ "int bad(enum(A=, B));\n",
	  "e.conf:1:16: error: expected number after '=' in enum\n" },
	{ "int bad(enum(A, 3));\n",
	  "e.conf:1:17: error: expected enum name\n" },
	{ "typedef = int;\n",
	  "e.conf:1:9: error: expected type name after 'typedef'\n" },
	{ "typedef y int;\n", "e.conf:1:11: error: expected '='\n" },
	{ "import foo;\n", "e.conf:1:8: error: expected library name in "
			   "double quotes after 'import'\n" },
	{ "import \"foo\" x\n",
	  "e.conf:1:14: error: expected ';' or the end of the line\n" },
	{ "int bad(string[);\n", "e.conf:1:16: error: expected expression\n" },
	{ "int bad(bitvec);\n",
	  "e.conf:1:15: error: expected '(' after the lens name\n" },
	{ "int bad(struct(int,\n   long,\n   fooo));\n",
	  "e.conf:3:4: error: unknown type 'fooo'\n" },
	{ "int bad(int) int\n",
	  "e.conf:1:14: error: expected ';' or the end of the line\n" },
	{ "int bad(array(int, zero(x)));\n",
	  "e.conf:1:25: error: expected expression (number, argN, eltN, "
	  "retval, zero or zero(EXPR)), got 'x'\n" },
	{ "int bad(int) extra;\n",
	  "e.conf:1:14: error: expected ';' or the end of the line\n" },
	{ "typedef t = int x\n",
	  "e.conf:1:17: error: expected ';' or the end of the line\n" },
	{ "typedef n = struct x\n",
	  "e.conf:1:20: error: expected ';' or the end of the line\n" },
	{ "typedef m = struct\ntypedef m = struct(int, m*)\n"
	  "typedef m = struct(long)\n",
	  "e.conf:3:9: error: redefinition of type 'm'\n" },
	{ "int (int);\n", "e.conf:1:5: error: expected function name\n" },
	{ "int bad(,);\n", "e.conf:1:9: error: expected type\n" },
	{ "int bad(hex(int;\n", "e.conf:1:16: error: expected ')'\n" },
	{ "int bad(string(int)\nint next(int);\n",
	  "e.conf:2:1: error: expected ',' or ')'\n" },
	{ "int bad(format(int;\n", "e.conf:1:19: error: expected ')'\n" },
};

static void test_errors(void)
{
	int n;

	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		struct protolib *pl = protolib_new();
		const char *out =
			load_capture(pl, "e.conf", errors[i].text, &n);
		CHECK(n == 1 && !strcmp(out, errors[i].msg),
		      "error case %zu: got %d [%s] want [%s]", i, n, out,
		      errors[i].msg);
		CHECK(!protolib_lookup(pl, "bad"));
		/* a bad typedef defines nothing */
		CHECK(!protolib_lookup_type(pl, "t") &&
		      !protolib_lookup_type(pl, "n"));
		protolib_free(pl);
	}
	/* the rest of a file loads: bad lines are skipped one by one */
	struct protolib *pl = protolib_new();
	load_capture(pl, "e.conf",
		     "int good1(int);\nint bad(int;\n"
		     "int bad(string(int)\nint next(int);\nint good2(long);\n",
		     &n);
	CHECK(n == 2);
	CHECK(protolib_lookup(pl, "good1") && protolib_lookup(pl, "good2") &&
	      protolib_lookup(pl, "next"));
	protolib_free(pl);
}

/* Upstream ltrace's files end declarations at the end of the line as
 * often as with ';' (its etc/syscalls.conf, its test suite's
 * parameters.conf): both load the same, at once and at lookups. */
static const char nosemi[] =
	"typedef at_dirfd_t = enum[int](AT_FDCWD=-100)\n"
	"typedef node = struct\n"
	"typedef node = struct(int, node*)\t# a list\n"
	"import \"x\"\n"
	"int mknodat(at_dirfd_t, string, oct(uint), ushort)\n"
	"int getcwd(+string2,ulong)   ; a comment\n"
	"hex(int) g(array(int, 3)*, int)\n"
	"int ll(node*)\n"
	"int multi(int,\n"
	"\tlong)\n"
	"void noargs()\n"
	"int semi(int);\n";

static void check_nosemi(struct protolib *pl)
{
	const struct prototype *p = protolib_lookup(pl, "mknodat");
	CHECK(p && p->nparams == 4 && p->params[0]->nenums == 1 &&
	      p->params[2]->lens == LENS_OCT &&
	      p->params[3]->kind == TYPE_USHORT);
	p = protolib_lookup(pl, "getcwd");
	CHECK(p && p->nparams == 2 && p->split == 0);
	p = protolib_lookup(pl, "g");
	CHECK(p && p->nparams == 2 && p->ret->lens == LENS_HEX);
	p = protolib_lookup(pl, "ll");
	CHECK(p && p->params[0]->elt->nfields == 2 &&
	      p->params[0]->elt->fields[1]->elt == p->params[0]->elt);
	p = protolib_lookup(pl, "multi");
	CHECK(p && p->nparams == 2 && p->params[1]->kind == TYPE_LONG);
	CHECK(protolib_lookup(pl, "noargs") && protolib_lookup(pl, "semi"));
}

static struct protolib *load_later(const char *text, const char **err,
				   int *nerr);

static void test_nosemi(void)
{
	struct protolib *pl = protolib_new();
	int n;
	const char *err = load_capture(pl, "n.conf", nosemi, &n);
	CHECK(n == 0 && !*err, "%d errors: %s", n, err);
	check_nosemi(pl);
	protolib_free(pl);
	pl = load_later(nosemi, &err, &n);
	CHECK(n == 0 && !*err, "%d errors: %s", n, err);
	CHECK(protolib_has(pl, "getcwd") && protolib_has(pl, "multi"));
	check_nosemi(pl);
	protolib_free(pl);
	/* an unclosed declaration stops where the next one starts */
	pl = protolib_new();
	err = load_capture(pl, "n.conf",
			   "int good1(int)\nint bad(int\nint next(int)\n"
			   "int good2(long)\n",
			   &n);
	CHECK(n == 1 && !strcmp(err, "n.conf:3:1: error: expected ',' or "
				     "')'\n"),
	      "%d errors: %s", n, err);
	CHECK(protolib_lookup(pl, "good1") && protolib_lookup(pl, "next") &&
	      protolib_lookup(pl, "good2") && !protolib_lookup(pl, "bad"));
	protolib_free(pl);
}

/* More constructs: sizes and layout the formatter relies on. */
static void test_constructs(void)
{
	struct protolib *pl = protolib_new();
	const struct prototype *p;

	CHECK(conf_load_string(
		      pl, "c.conf",
		      "typedef dirent = struct(ulong, hide(long), hide(ushort), "
		      "hide(char), string(array(char, zero(256))));\n"
		      "int rd(dirent*);\n"
		      "ldouble fl(ldouble, format(string(array(uint, zero)*)));\n"
		      "int st(string(array(char, 5)), string[4], string0, "
		      "struct(char, ldouble));\n"
		      "hex(uint*) hx(octal, hex, bool, guess(int));\n"
		      "typedef hexptr = hex(uint*);\n"
		      "int dyn(struct(ulong, array(int, elt1), int)*);\n") ==
	      0);
	p = protolib_lookup(pl, "rd");
	/* 8 + 8 + 2 + 1 + 256 bytes, aligned to 8 */
	CHECK(p && type_sizeof(p->params[0]->elt) == 280);
	CHECK(p && type_offsetof(p->params[0]->elt, 4) == 19);
	p = protolib_lookup(pl, "fl");
	CHECK(p && p->ret->kind == TYPE_LDOUBLE && type_sizeof(p->ret) == 16);
	CHECK(p && p->params[1]->kind == TYPE_PACK && p->params[1]->elt &&
	      p->params[1]->elt->lens == LENS_STRING);
	p = protolib_lookup(pl, "st");
	CHECK(p && p->params[0]->kind == TYPE_ARRAY &&
	      p->params[0]->lens == LENS_STRING &&
	      type_sizeof(p->params[0]) == 5);
	CHECK(p && p->params[2]->elt->len->sub->kind == EXPR_RETVAL);
	CHECK(p && type_sizeof(p->params[3]) == 32 &&
	      type_alignof(p->params[3]) == 16);
	p = protolib_lookup(pl, "hx");
	CHECK(p && p->ret->lens == LENS_HEX && p->ret->kind == TYPE_POINTER);
	CHECK(p && p->params[0]->lens == LENS_OCT &&
	      p->params[1]->lens == LENS_HEX &&
	      p->params[2]->lens == LENS_BOOL &&
	      p->params[3]->lens == LENS_GUESS);
	CHECK(protolib_lookup_type(pl, "hexptr") &&
	      protolib_lookup_type(pl, "hexptr")->lens == LENS_HEX);
	p = protolib_lookup(pl, "dyn");
	CHECK(p && !type_array_is_fixed(p->params[0]->elt->fields[1]));
	protolib_free(pl);
}

/* import "NAME": own definitions first, then the imports in order; the
 * typedefs of an import are usable by the importing file. */
static struct protolib *libs[3];

static const struct protolib *resolve(void *ctx, const char *name)
{
	(void)ctx;
	if (!strcmp(name, "types"))
		return libs[0];
	if (!strcmp(name, "other"))
		return libs[1];
	if (!strcmp(name, "self"))
		return libs[2];
	return NULL;
}

static void test_import(void)
{
	libs[0] = protolib_new();
	libs[1] = protolib_new();
	libs[2] = protolib_new();
	protolib_set_import_resolver(libs[1], resolve, NULL);
	protolib_set_import_resolver(libs[2], resolve, NULL);
	CHECK(conf_load_string(libs[0], "types.conf",
			       "typedef fd = int;\nint shared(long);\n"
			       "int only_types(int);\n") == 0);
	CHECK(conf_load_string(libs[1], "other.conf",
			       "import \"types\";\nint shared(int, int);\n"
			       "int only_other(fd);\n") == 0);
	int n;
	const char *out = load_capture(
		libs[2], "self.conf",
		"import \"other\";\nimport \"types\";\nimport \"self\";\n"
		"int mine(fd, fd);\nimport \"nowhere\";\n",
		&n);
	CHECK(n == 1);
	CHECK(!strcmp(out, "self.conf:5:8: error: no prototype library to "
			   "import for nowhere\n"));
	const struct prototype *p = protolib_lookup(libs[2], "mine");
	CHECK(p && p->nparams == 2 && p->params[0]->kind == TYPE_INT);
	p = protolib_lookup(libs[2], "shared"); /* other.conf first */
	CHECK(p && p->nparams == 2);
	CHECK(protolib_lookup(libs[2], "only_types") &&
	      protolib_lookup(libs[2], "only_other"));
	CHECK(protolib_lookup_type(libs[2], "fd") != NULL);
	/* a cycle back to an importer ends */
	protolib_add_import(libs[0], libs[2]);
	CHECK(!protolib_lookup(libs[2], "absent"));
	/* without a resolver, import lines are accepted and ignored */
	CHECK(conf_load_string(libs[0], "t2.conf", "import \"x\";\n") == 0);
	protolib_free(libs[2]);
	protolib_free(libs[1]);
	protolib_free(libs[0]);
}

/* Earlier definitions win. */
static void test_priority(void)
{
	struct protolib *pl = protolib_new();

	conf_load_string(pl, "a", "int f(int);\n");
	conf_load_string(pl, "b", "long f(long, long);\n");
	CHECK(protolib_lookup(pl, "f")->nparams == 1);
	/* so do typedefs (silently: only a file's own are redefinitions),
	 * and a later file completes an earlier forward declaration */
	CHECK(conf_load_string(pl, "c",
			       "typedef t = int;\n"
			       "typedef fw = struct;\n") == 0);
	CHECK(conf_load_string(pl, "d",
			       "typedef t = long;\nint g(t);\n"
			       "typedef fw = struct(int, fw*);\n") == 0);
	CHECK(protolib_lookup(pl, "g")->params[0]->kind == TYPE_INT);
	CHECK(!protolib_lookup_type(pl, "fw")->forward &&
	      protolib_lookup_type(pl, "fw")->nfields == 2);
	protolib_free(pl);
}

static void test_etc(void)
{
	if (access("/etc/ltrace.conf", R_OK)) {
		fprintf(stderr,
			"test_proto: /etc/ltrace.conf absent, skipped\n");
		return;
	}
	struct protolib *pl = protolib_new();
	CHECK(conf_load_file(pl, "/etc/ltrace.conf") == 0);
	CHECK(protolib_lookup(pl, "printf") != NULL);
	CHECK(protolib_lookup(pl, "SYS_open") != NULL);
	protolib_free(pl);
}

static void test_shipped(void)
{
	struct protolib *pl = protolib_new();
	const char *path = getenv("LIBC_CONF");

	if (!path)
		path = "etc/libc.so.conf";
	if (access(path, R_OK)) {
		fprintf(stderr, "test_proto: %s absent, skipped\n", path);
		protolib_free(pl);
		return;
	}
	CHECK(conf_load_file(pl, path) == 0);
	CHECK(protolib_lookup(pl, "malloc") != NULL);
	/* Loaded to be parsed at lookups: every function there, the same. */
	struct protolib *later = protolib_new();
	CHECK(conf_load_file_later(later, path) == 0);
	size_t n = 0;
	for (const struct prototype *p = NULL; (p = protolib_next_proto(pl, p));
	     n++) {
		const struct prototype *q = protolib_lookup(later, p->name);
		CHECK(q && q->nparams == p->nparams && q->split == p->split &&
			      q->ret->kind == p->ret->kind,
		      "%s", p->name);
	}
	CHECK(n > 900, "%zu prototypes", n);
	protolib_free(later);
	protolib_free(pl);
}

/* A shipped file loaded at once (ALL) and to be parsed at lookups
 * (LATER), for stderr_of. */
struct shipped {
	const char *path;
	struct protolib *all, *later;
	int nerr;
};

static void load_all(void *arg)
{
	struct shipped *sh = arg;
	sh->nerr = conf_load_file(sh->all, sh->path);
}

/* Every function of ALL looked up in LATER, so that each is parsed. */
static void load_later_all(void *arg)
{
	struct shipped *sh = arg;
	sh->nerr = conf_load_file_later(sh->later, sh->path);
	for (const struct prototype *p = NULL;
	     (p = protolib_next_proto(sh->all, p));)
		CHECK(protolib_lookup(sh->later, p->name), "%s", p->name);
}

/* Every shipped file, etc/NAME.conf, loads without a word on stderr (no
 * error, no warning), at once and function by function. */
static void test_shipped_silent(void)
{
	glob_t g;

	if (glob("etc/*.conf", 0, NULL, &g) || g.gl_pathc < 4) {
		FAIL("etc/NAME.conf: fewer than the 4 shipped files");
		return;
	}
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct shipped sh = { g.gl_pathv[i], protolib_new(),
				      protolib_new(), 0 };
		const char *err = stderr_of(load_all, &sh);
		CHECK(sh.nerr == 0 && !*err, "%s: %s", sh.path, err);
		err = stderr_of(load_later_all, &sh);
		CHECK(sh.nerr == 0 && !*err, "%s at lookups: %s", sh.path, err);
		protolib_free(sh.later);
		protolib_free(sh.all);
	}
	globfree(&g);
}

/* Hostile files (issue 11): sizes that overflow or recurse are
 * TYPE_SIZE_BAD, and what the tracer cannot hold is replaced, with a
 * warning at its place, while the prototype stays. */
static void test_hostile(void)
{
	struct protolib *pl = protolib_new();
	int n;
	const char *out = load_capture(
		pl, "h.conf",
		"typedef S = struct;\n"
		"typedef S = struct(int, S);\n"
		"typedef Big = struct(char, array(long, 0x7fffffffffffffff));\n"
		"int f(Big, Big*, array(char, 1000000000000));\n"
		"int g(enum(A=0x7fffffffffffffff, B));\n",
		&n);
	CHECK(n == 0, "got %d errors: %s", n, out);
	CHECK(strstr(out, "h.conf:2:19: warning: struct contains itself"));
	CHECK(strstr(out, "h.conf:4:7: warning:") &&
	      strstr(out, "h.conf:4:12: warning:") &&
	      strstr(out, "h.conf:4:18: warning: array longer"));
	const struct type *s = protolib_lookup_type(pl, "S");
	CHECK(s && s->nfields == 0 && type_sizeof(s) == 0);
	CHECK(type_sizeof(protolib_lookup_type(pl, "Big")) == TYPE_SIZE_BAD);
	const struct prototype *p = protolib_lookup(pl, "f");
	CHECK(p && p->nparams == 3 && p->params[0]->lens == LENS_HEX &&
	      p->params[1]->lens == LENS_ADDR &&
	      p->params[2]->kind == TYPE_ARRAY);
	p = protolib_lookup(pl, "g");
	CHECK(p && p->params[0]->enums[1].value == (long)(1UL << 63));
	protolib_free(pl);
}

/* TEXT written to a file, loaded with conf_load_file_later; what was
 * printed on stderr meanwhile into ERR (static, "" when nothing). */
static struct protolib *load_later(const char *text, const char **err,
				   int *nerr)
{
	static char path[] = "/tmp/test_proto_later.XXXXXX";
	strcpy(path + strlen(path) - 6, "XXXXXX");
	int fd = mkstemp(path);
	struct protolib *pl = protolib_new();
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		FAIL("temporary file");
		*err = "";
		*nerr = -1;
		return pl;
	}
	close(fd);
	struct load ld = { pl, path, NULL, 0, true };
	*err = stderr_of(run_load, &ld);
	*nerr = ld.nerr;
	unlink(path);
	return pl;
}

/* Looks "bad" up twice, for stderr_of. */
static void lookup_bad(void *arg)
{
	CHECK(!protolib_lookup(arg, "bad") && !protolib_lookup(arg, "bad"));
}

/* Function declarations parsed at their first lookup give what an
 * eager load gives: types defined before them, the first of two
 * definitions, names after return types with groups of their own,
 * declarations over several lines; a bad one is reported when looked
 * up, and not at all if never. */
static void test_later(void)
{
	const char *err;
	int n;
	struct protolib *pl = load_later("typedef t = struct(int, long);\n"
					 "int f(t*, string);\n"
					 "long f(long);\n"
					 "hex(int) g(array(int, 3)*, int);\n"
					 "function int multi(int,\n"
					 "\tlong);\n"
					 "; int commented(int);\n"
					 "int bad(unknowntype);\n"
					 "int never(unknowntype);\n"
					 "typedef u = long;\n"
					 "u h(u);\n",
					 &err, &n);
	CHECK(n == 0 && !*err, "%d errors: %s", n, err);
	CHECK(protolib_has(pl, "f") && protolib_has(pl, "never") &&
	      !protolib_has(pl, "commented"));
	const struct prototype *p = protolib_lookup(pl, "f");
	CHECK(p && p->nparams == 2 && p->params[0]->kind == TYPE_POINTER &&
	      p->params[0]->elt->nfields == 2);
	p = protolib_lookup(pl, "g");
	CHECK(p && p->nparams == 2 && p->ret->lens == LENS_HEX);
	p = protolib_lookup(pl, "multi");
	CHECK(p && p->nparams == 2 && p->params[1]->kind == TYPE_LONG);
	p = protolib_lookup(pl, "h");
	CHECK(p && p->ret->kind == TYPE_LONG);
	CHECK(!protolib_lookup(pl, "commented"));
	/* The error, with its place, at the lookup; once. */
	const char *buf = stderr_of(lookup_bad, pl);
	CHECK(strstr(buf, ":8:9: error: unknown type 'unknowntype'\n") &&
		      !strstr(strstr(buf, "error") + 1, "error"),
	      "%s", buf);
	protolib_free(pl);
}

static void pl_missing(void)
{
	struct protolib *pl = protolib_new();

	CHECK(conf_load_file(pl, "/nonexistent.conf") == -1);
	protolib_free(pl);
}

int main(void)
{
	test_basic();
	test_errors();
	test_nosemi();
	test_constructs();
	test_import();
	test_priority();
	test_etc();
	test_shipped();
	test_shipped_silent();
	test_hostile();
	test_later();
	pl_missing();
	return check_exit();
}
