/* Unit test of prototypes derived from DWARF (ltrace/dwarfproto.h).
 *
 * dwarf-fixtures/libdwfix.c is compiled with gcc -g into a temporary
 * directory (also without -g, and with its debug info split off behind a
 * .gnu_debuglink) and the derived prototypes are checked type by type.
 * When glibc's separate debug file is installed (libc6-dbg), a few libc
 * functions are looked up as well; that part alone is skipped otherwise.
 *
 * Exit 0 on success, 1 with one stderr line per failed check, 77 when
 * gcc is missing.  DWARF_TIMING=1 prints how long indexing libc took. */
#include "dwarfproto.h"
#include "expr.h"
#include "type.h"
#include "check.h"
#include "fixtures.h"

#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_dwarf.XXXXXX";
static char fixtures[4096];

static bool run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static bool run(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd) == 0;
}

static const char *tmp(const char *name)
{
	static char buf[4][4096];
	static int i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof(buf[i]), "%s/%s", tmpdir, name);
	return buf[i];
}

/* ---- checks on derived types ---- */

static bool is_kind(const struct type *t, enum type_kind k, enum lens_kind lens)
{
	return t && t->kind == k && t->lens == lens;
}

static bool is_string(const struct type *t)
{
	return is_kind(t, TYPE_POINTER, LENS_STRING) && t->elt &&
	       t->elt->kind == TYPE_ARRAY && t->elt->elt &&
	       t->elt->elt->kind == TYPE_CHAR;
}

static bool is_addr(const struct type *t)
{
	return is_kind(t, TYPE_POINTER, LENS_ADDR);
}

static long array_len(const struct type *t)
{
	return t->len && t->len->kind == EXPR_NUM ? t->len->num : -1;
}

static const struct prototype *get(struct dwarf_protos *d, const char *lib,
				   const char *name, size_t nparams)
{
	const struct prototype *p = dwarf_lookup(d, lib, name);

	if (!p) {
		FAIL("%s: no prototype", name);
		return NULL;
	}
	CHECK(!strcmp(p->name, name), "%s: named %s", name, p->name);
	CHECK(p->nparams == nparams, "%s: %zu parameters, expected %zu", name,
	      p->nparams, nparams);
	CHECK(p->split == p->nparams, "%s: split %zu", name, p->split);
	return p->nparams == nparams ? p : NULL;
}

/* f(T) returning T, for each integer width. */
static void check_scalars(struct dwarf_protos *d, const char *lib)
{
	static const struct {
		const char *name;
		enum type_kind kind;
	} fns[] = {
		{ "dw_char", TYPE_CHAR },     { "dw_short", TYPE_SHORT },
		{ "dw_ushort", TYPE_USHORT }, { "dw_int", TYPE_INT },
		{ "dw_uint", TYPE_UINT },     { "dw_long", TYPE_LONG },
		{ "dw_ulong", TYPE_ULONG },   { "dw_llong", TYPE_LLONG },
		{ "dw_ullong", TYPE_ULLONG },
	};
	const struct prototype *p;
	size_t i;

	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		p = get(d, lib, fns[i].name, 1);
		if (!p)
			continue;
		CHECK(is_kind(p->ret, fns[i].kind, LENS_DEFAULT),
		      "%s: return kind %d", fns[i].name, p->ret->kind);
		CHECK(is_kind(p->params[0], fns[i].kind, LENS_DEFAULT),
		      "%s: parameter kind %d", fns[i].name, p->params[0]->kind);
	}
	if ((p = get(d, lib, "dw_double", 2))) {
		CHECK(is_kind(p->ret, TYPE_DOUBLE, LENS_DEFAULT) &&
			      is_kind(p->params[0], TYPE_DOUBLE,
				      LENS_DEFAULT) &&
			      is_kind(p->params[1], TYPE_FLOAT, LENS_DEFAULT),
		      "dw_double: not double(double, float)");
	}
	if ((p = get(d, lib, "dw_bool", 1)))
		CHECK(is_kind(p->params[0], TYPE_CHAR, LENS_BOOL) &&
			      is_kind(p->ret, TYPE_CHAR, LENS_BOOL),
		      "dw_bool: not bool lens on char");
	if ((p = get(d, lib, "dw_void", 0)))
		CHECK(is_kind(p->ret, TYPE_VOID, LENS_DEFAULT),
		      "dw_void: return kind %d", p->ret->kind);
}

static void check_pointers(struct dwarf_protos *d, const char *lib)
{
	const struct prototype *p;

	if ((p = get(d, lib, "dw_strlen", 1))) {
		CHECK(is_kind(p->ret, TYPE_ULONG, LENS_DEFAULT),
		      "dw_strlen: size_t is not ulong");
		CHECK(is_string(p->params[0]), "dw_strlen: not a string");
	}
	if ((p = get(d, lib, "dw_typedef_str", 1)))
		CHECK(is_string(p->ret) && is_string(p->params[0]),
		      "dw_typedef_str: typedef'd const char * not a string");
	if ((p = get(d, lib, "dw_voidp", 2)))
		CHECK(is_addr(p->ret) && is_addr(p->params[0]) &&
			      is_addr(p->params[1]),
		      "dw_voidp: void * not addr");
	if ((p = get(d, lib, "dw_apply", 3)))
		CHECK(is_addr(p->params[0]) &&
			      is_kind(p->params[1], TYPE_INT, LENS_DEFAULT) &&
			      is_addr(p->params[2]),
		      "dw_apply: not (addr, int, addr)");
}

static void check_enum(struct dwarf_protos *d, const char *lib)
{
	static const char *const names[] = { "RED", "GREEN", "BLUE" };
	static const long values[] = { 0, 5, 6 };
	const struct prototype *p = get(d, lib, "dw_enum", 1);
	const struct type *t;
	size_t i;

	if (!p)
		return;
	t = p->params[0];
	CHECK(t->lens == LENS_ENUM && type_is_integer(t) && type_sizeof(t) == 4,
	      "dw_enum: not an enum of 4 bytes");
	CHECK(t->nenums == 3, "dw_enum: %zu enumerators", t->nenums);
	for (i = 0; i < 3 && i < t->nenums; i++)
		CHECK(!strcmp(t->enums[i].name, names[i]) &&
			      t->enums[i].value == values[i],
		      "dw_enum: enumerator %zu is %s=%ld", i, t->enums[i].name,
		      t->enums[i].value);
	CHECK(p->ret->lens == LENS_ENUM && p->ret->nenums == 3,
	      "dw_enum: return is not the enum");
}

static const struct type *pointee(const struct prototype *p, size_t i,
				  enum type_kind k)
{
	const struct type *t = p->params[i];

	if (t->kind != TYPE_POINTER || !t->elt || t->elt->kind != k) {
		FAIL("%s: parameter %zu is not a pointer to kind %d", p->name,
		     i + 1, k);
		return NULL;
	}
	return t->elt;
}

static void check_structs(struct dwarf_protos *d, const char *lib)
{
	const struct prototype *p, *q;
	const struct type *s;

	if ((p = get(d, lib, "dw_point", 1)) &&
	    (s = pointee(p, 0, TYPE_STRUCT))) {
		CHECK(s->nfields == 3 && s->fields[0]->kind == TYPE_INT &&
			      s->fields[1]->kind == TYPE_INT &&
			      s->fields[2]->kind == TYPE_DOUBLE,
		      "struct point: %zu fields, not (int, int, double)",
		      s->nfields);
		q = get(d, lib, "dw_point_by_value", 1);
		CHECK(q && q->ret == s && q->params[0] == s,
		      "struct point: not built once and shared");
	}
	if ((p = get(d, lib, "dw_list_sum", 1)) &&
	    (s = pointee(p, 0, TYPE_STRUCT))) {
		CHECK(s->nfields == 2 && s->fields[0]->kind == TYPE_INT &&
			      s->fields[1]->kind == TYPE_POINTER &&
			      s->fields[1]->elt == s,
		      "struct list: next does not point back at struct list");
	}
}

/* struct named: char[16], int[4], a union, two bitfields, long. */
static void check_named(struct dwarf_protos *d, const char *lib)
{
	const struct prototype *p = get(d, lib, "dw_named", 1);
	const struct type *s, *f[8];
	size_t i, n = 0;

	if (!p || !(s = pointee(p, 0, TYPE_STRUCT)))
		return;
	for (i = 0; i < s->nfields && n < 8; i++)
		if (s->fields[i]->lens != LENS_HIDE)
			f[n++] = s->fields[i];
	CHECK(type_sizeof(s) == 56, "struct named: size %zu, expected 56",
	      type_sizeof(s));
	if (n != 4) {
		FAIL("struct named: %zu visible fields, expected 4", n);
		return;
	}
	CHECK(is_kind(f[0], TYPE_ARRAY, LENS_STRING) && type_sizeof(f[0]) == 16,
	      "struct named: name is not string(array(char, zero(16)))");
	CHECK(is_kind(f[1], TYPE_ARRAY, LENS_DEFAULT) &&
		      f[1]->elt->kind == TYPE_INT && array_len(f[1]) == 4,
	      "struct named: counts is not array(int, 4)");
	CHECK(f[2]->kind == TYPE_ARRAY && type_sizeof(f[2]) == 8,
	      "struct named: the union is not 8 bytes of char");
	CHECK(f[3]->kind == TYPE_LONG && type_offsetof(s, s->nfields - 1) == 48,
	      "struct named: tail not a long at offset 48");
}

static void check_varargs(struct dwarf_protos *d, const char *lib)
{
	const struct prototype *p;

	if ((p = get(d, lib, "dw_printf", 2)))
		CHECK(is_kind(p->params[0], TYPE_INT, LENS_DEFAULT) &&
			      p->params[1]->kind == TYPE_PACK,
		      "dw_printf: not (int, format)");
	if ((p = get(d, lib, "dw_varargs", 1)))
		CHECK(is_kind(p->params[0], TYPE_INT, LENS_DEFAULT),
		      "dw_varargs: not (int)");
}

static void check_misses(struct dwarf_protos *d, const char *lib)
{
	const struct prototype *p = dwarf_lookup(d, lib, "dw_int");

	CHECK(p && p == dwarf_lookup(d, lib, "dw_int"),
	      "dw_int: second lookup not the cached prototype");
	CHECK(!dwarf_lookup(d, lib, "dw_static"), "dw_static: found");
	CHECK(!dwarf_lookup(d, lib, "no_such_function"),
	      "no_such_function: found");
	CHECK(!dwarf_lookup(d, lib, "no_such_function"),
	      "no_such_function: found on the second lookup");
	CHECK(!dwarf_lookup(d, tmp("missing.so"), "dw_int"),
	      "a missing file gave a prototype");
	CHECK(!dwarf_lookup(d, fixtures, "dw_int"),
	      "a directory gave a prototype");
}

static void check_fixture(struct dwarf_protos *d, const char *lib)
{
	check_scalars(d, lib);
	check_pointers(d, lib);
	check_enum(d, lib);
	check_structs(d, lib);
	check_named(d, lib);
	check_varargs(d, lib);
	check_misses(d, lib);
}

/* ---- separate debug files ---- */

static void check_variants(struct dwarf_protos *d)
{
	const struct prototype *p;

	if (run("gcc -shared -fPIC -O0 -o '%s' '%s/libdwfix.c'",
		tmp("libnodebug.so"), fixtures))
		CHECK(!dwarf_lookup(d, tmp("libnodebug.so"), "dw_int"),
		      "library without -g gave a prototype");
	else
		FAIL("gcc failed to build libnodebug.so");
	if (!run("command -v objcopy >/dev/null && mkdir '%s' && "
		 "cp '%s' '%s' && cd '%s' && "
		 "objcopy --only-keep-debug libsplit.so .debug/libsplit.debug"
		 " && objcopy --strip-debug "
		 "--add-gnu-debuglink=.debug/libsplit.debug libsplit.so",
		 tmp(".debug"), tmp("libdwfix.so"), tmp("libsplit.so"),
		 tmpdir)) {
		fprintf(stderr, "test_dwarf: objcopy missing: debuglink part "
				"skipped\n");
		return;
	}
	p = dwarf_lookup(d, tmp("libsplit.so"), "dw_printf");
	CHECK(p && p->nparams == 2 && p->params[1]->kind == TYPE_PACK,
	      "debuglink: dw_printf not found through .gnu_debuglink");
}

/* ---- glibc, with libc6-dbg ---- */

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

static bool libc_debug_installed(void)
{
	const unsigned char *id;
	char path[512];
	int fd = open(LIBC, O_RDONLY);
	Elf *elf;
	ssize_t n;
	size_t len, i;

	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	n = elf ? dwelf_elf_gnu_build_id(elf, (const void **)&id) : -1;
	len = (size_t)snprintf(path, sizeof(path),
			       "/usr/lib/debug/.build-id/%02x/",
			       n > 0 ? id[0] : 0);
	for (i = 1; n > 0 && i < (size_t)n && len < 400; i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%02x",
					id[i]);
	snprintf(path + len, sizeof(path) - len, ".debug");
	elf_end(elf);
	close(fd);
	return n > 0 && access(path, R_OK) == 0;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void check_libc(void)
{
	struct dwarf_protos *d;
	const struct prototype *p;
	const struct type *t;
	double t0;

	if (!libc_debug_installed()) {
		fprintf(stderr, "test_dwarf: no libc debug file "
				"(libc6-dbg): libc part skipped\n");
		return;
	}
	d = dwarf_protos_new();
	t0 = now_ms();
	p = get(d, LIBC, "strlen", 1);
	if (getenv("DWARF_TIMING"))
		fprintf(stderr, "test_dwarf: libc indexed in %.1f ms\n",
			now_ms() - t0);
	if (p)
		CHECK(is_kind(p->ret, TYPE_ULONG, LENS_DEFAULT) &&
			      is_string(p->params[0]),
		      "strlen: not ulong(string)");
	/* FILE, which libc's DWARF describes whole, is a handle: an
	 * address (dwhandles.h); struct dirent is shown */
	if ((p = get(d, LIBC, "fopen", 2))) {
		CHECK(is_addr(p->ret), "fopen: FILE * is not an address");
		CHECK(is_string(p->params[0]) && is_string(p->params[1]),
		      "fopen: not (string, string)");
	}
	if ((p = get(d, LIBC, "readdir", 1))) {
		t = p->ret;
		CHECK(is_addr(p->params[0]) && t->kind == TYPE_POINTER &&
			      t->elt && t->elt->kind == TYPE_STRUCT,
		      "readdir: not struct dirent *(addr)");
	}
	if ((p = get(d, LIBC, "pthread_mutex_lock", 1)))
		CHECK(is_addr(p->params[0]),
		      "pthread_mutex_lock: pthread_mutex_t * not an address");
	if ((p = get(d, LIBC, "qsort", 4)))
		CHECK(is_kind(p->ret, TYPE_VOID, LENS_DEFAULT) &&
			      is_addr(p->params[0]) && is_addr(p->params[3]) &&
			      is_kind(p->params[1], TYPE_ULONG, LENS_DEFAULT),
		      "qsort: not void(addr, ulong, ulong, addr)");
	if ((p = get(d, LIBC, "printf", 1)))
		CHECK(p->params[0]->kind == TYPE_PACK, "printf: not (format)");
	dwarf_protos_free(d);
}

static void set_fixtures(void)
{
	fixture_dir(fixtures, sizeof(fixtures), "DWARF_FIXTURES",
		    "dwarf-fixtures", __FILE__);
}

int main(void)
{
	struct dwarf_protos *d;

	if (!run("gcc --version >/dev/null 2>&1")) {
		fprintf(stderr, "test_dwarf: gcc missing: skipped\n");
		return CHECK_SKIP;
	}
	set_fixtures();
	if (!mkdtemp(tmpdir)) {
		perror("test_dwarf: mkdtemp");
		return 1;
	}
	d = dwarf_protos_new();
	if (run("gcc -shared -fPIC -g -O0 -o '%s' '%s/libdwfix.c'",
		tmp("libdwfix.so"), fixtures)) {
		check_fixture(d, tmp("libdwfix.so"));
		check_variants(d);
	} else {
		FAIL("gcc failed to build %s/libdwfix.c", fixtures);
	}
	dwarf_protos_free(d);
	check_libc();
	run("rm -rf '%s'", tmpdir);
	return check_exit();
}
