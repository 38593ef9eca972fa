/* Unit test of the loaded-object model (ltrace/library.h) and of what it
 * reads from ELF files: the segments (PT_LOAD span, PT_INTERP,
 * PT_DYNAMIC) and the exports (sysdeps/linux-gnu/elfsyms.c).
 *
 * Fixtures from elf-fixtures/ are compiled with gcc into a temporary
 * directory; each result is checked against facts found another way:
 * the section headers (read here with libelf) for the segments, and
 * `nm -D --defined-only` for the exports, on the fixtures and on the
 * installed libc and dynamic linker.
 *
 * Exit 0 on success, 1 with one stderr line per failed check, 77 when
 * gcc is missing. */
#include "check.h"
#include "elfscan.h"
#include "elf_fixtures.h"
#include "library.h"

#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- segments, against the section headers ---- */

struct sections {
	char interp[256]; /* contents of .interp, "" if none */
	uint64_t dynamic; /* .dynamic's address, 0 if none */
	uint64_t lo, hi;  /* span of the SHF_ALLOC sections */
};

static void note_section(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			 size_t shstrndx, struct sections *s)
{
	const char *name = elf_strptr(elf, shstrndx, sh->sh_name);
	if (!(sh->sh_flags & SHF_ALLOC) || !name)
		return;
	if (!s->hi || sh->sh_addr < s->lo)
		s->lo = sh->sh_addr;
	if (sh->sh_addr + sh->sh_size > s->hi)
		s->hi = sh->sh_addr + sh->sh_size;
	if (!strcmp(name, ".dynamic"))
		s->dynamic = sh->sh_addr;
	Elf_Data *d = elf_getdata(scn, NULL);
	if (!strcmp(name, ".interp") && d && d->d_size < sizeof(s->interp))
		memcpy(s->interp, d->d_buf, d->d_size);
}

static bool read_sections(const char *path, struct sections *s)
{
	memset(s, 0, sizeof(*s));
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
	size_t shstrndx = 0;
	if (elf && elf_getshdrstrndx(elf, &shstrndx) == 0) {
		Elf_Scn *scn = NULL;
		GElf_Shdr sh;
		while ((scn = elf_nextscn(elf, scn)))
			if (gelf_getshdr(scn, &sh))
				note_section(elf, scn, &sh, shstrndx, s);
	}
	elf_end(elf);
	close(fd);
	return s->hi != 0;
}

static void check_segments(const char *path, const struct library *l)
{
	struct sections s;
	if (!read_sections(path, &s)) {
		FAIL("%s: cannot read its sections", path);
		return;
	}
	const struct elf_image *img = &l->image;
	CHECK_STR(img->interp, s.interp[0] ? s.interp : NULL);
	CHECK(img->dynamic == s.dynamic,
	      "%s: dynamic %#" PRIx64 ", want %#" PRIx64, path, img->dynamic,
	      s.dynamic);
	CHECK(img->load_lo <= s.lo && img->load_hi >= s.hi,
	      "%s: PT_LOAD span [%#" PRIx64 ", %#" PRIx64
	      ") misses sections [%#" PRIx64 ", %#" PRIx64 ")",
	      path, img->load_lo, img->load_hi, s.lo, s.hi);
	CHECK(img->load_hi - img->load_lo < s.hi - s.lo + 0x10000,
	      "%s: PT_LOAD span much wider than the sections", path);
}

/* ---- exports, against nm ---- */

/* Whether EX has NAME at ADDR (a name defined under several versions has
 * one entry per version, side by side). */
static bool has_at(const struct elf_exports *ex, const struct elf_export *e,
		   unsigned long long addr)
{
	while (e > ex->v && !strcmp(e[-1].name, e->name))
		e--;
	for (const char *name = e->name; e < ex->v + ex->n; e++) {
		if (strcmp(e->name, name))
			break;
		if (e->addr == addr)
			return true;
	}
	return false;
}

/* A defined dynamic symbol nm lists is in EX (struct elf_exports), with
 * its address, and is a function exactly when nm says T, W (weak
 * function) or i (IFUNC). */
static bool check_export(const void *ex, const char *path,
			 unsigned long long addr, char type, const char *name)
{
	if (type == 'A' || type == 'U')
		return false;
	const struct elf_export *e = elf_exports_find(ex, name);
	bool func = type == 'T' || type == 'W' || type == 'i';
	CHECK(e, "%s: %s (%c) not exported", path, name, type);
	CHECK(!e || has_at(ex, e, addr), "%s: %s not at %#llx", path, name,
	      addr);
	CHECK(!e || e->func == func, "%s: %s (%c): func %d", path, name, type,
	      e->func);
	return true;
}

/* Every defined dynamic symbol nm lists is exported (check_export).
 * Returns how many were compared. */
static size_t check_nm(const char *path, const struct elf_exports *ex)
{
	return nm_each(path, "-D", check_export, ex);
}

static const struct elf_export *find_export(const char *path, const char *name,
					    struct elf_exports *ex)
{
	int rc = elf_exports_read(ex, path);
	CHECK(rc == 0, "%s: elf_exports_read %d", path, rc);
	return rc == 0 ? elf_exports_find(ex, name) : NULL;
}

/* The dynamic linker names its rendezvous. */
static void test_rtld(void)
{
	const char *ld = "/lib64/ld-linux-x86-64.so.2";
	if (!elf_fixtures_have("test_library", ld))
		return;
	struct elf_exports ex;
	const struct elf_export *st = find_export(ld, "_dl_debug_state", &ex);
	CHECK(st && st->func && st->addr, "%s: no _dl_debug_state", ld);
	const struct elf_export *rd = elf_exports_find(&ex, "_r_debug");
	CHECK(rd && !rd->func && rd->addr, "%s: no _r_debug", ld);
	CHECK(check_nm(ld, &ex) > 10, "%s: nm compared too few", ld);
	elf_exports_destroy(&ex);
}

/* libc exports its string functions as IFUNCs: they count as functions
 * (what -l asks), data does not. */
static void test_libc(void)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	if (!elf_fixtures_have("test_library", libc))
		return;
	char err[256];
	struct library *l = library_new(libc, libc, false, err, sizeof(err));
	if (!l) {
		FAIL("%s: %s", libc, err);
		return;
	}
	CHECK_STR(l->soname, "libc.so.6");
	static const char *const funcs[] = { "strlen", "memset", "malloc",
					     "printf", "getenv", NULL };
	for (size_t i = 0; funcs[i]; i++)
		CHECK(library_exports(l, funcs[i]), "libc: %s", funcs[i]);
	CHECK(!library_exports(l, "stdout"), "libc: stdout is data");
	CHECK(!library_exports(l, "no_such_function_here"), "libc: bogus");
	CHECK(check_nm(libc, &l->exports) > 1000, "libc: nm compared too few");
	library_free(l);
}

/* ---- objects ---- */

static struct library *open_fixture(const char *name, bool is_main)
{
	char path[4200];
	elf_fixture_path(path, sizeof(path), name);
	char err[256];
	struct library *l = library_new(path, path, is_main, err, sizeof(err));
	if (!l)
		FAIL("%s: library_new: %s", path, err);
	else
		check_segments(path, l);
	return l;
}

static void test_program(void)
{
	if (!elf_fixture_build("prog", "calls.c", "-fno-builtin")) {
		FAIL("prog: gcc failed");
		return;
	}
	struct library *l = open_fixture("prog", true);
	if (!l)
		return;
	CHECK_STR(l->soname, "prog");
	CHECK(l->is_main && l->image.interp && l->image.dynamic);
	library_place(l, 0x555555554000);
	CHECK(l->lo == l->image.load_lo + 0x555555554000 &&
	      l->hi == l->image.load_hi + 0x555555554000);
	CHECK(library_contains(l, l->lo) && !library_contains(l, l->hi) &&
	      !library_contains(l, l->lo - 1));
	CHECK(library_contains(l, l->image.entry + l->bias));
	struct library *c = library_clone(l);
	CHECK(c->path != l->path && !strcmp(c->path, l->path));
	CHECK(c->image.nplt == l->image.nplt && c->lo == l->lo && !c->next);
	for (size_t i = 0; i < c->image.nplt; i++)
		CHECK(c->image.plt[i].name != l->image.plt[i].name &&
		      !strcmp(c->image.plt[i].name, l->image.plt[i].name));
	library_free(c);
	library_free(l);
}

static void test_dso(void)
{
	if (!elf_fixture_build("libfixture.so", "dso.c",
			       "-shared -fPIC -Wl,-soname,libfixture.so.1")) {
		FAIL("libfixture.so: gcc failed");
		return;
	}
	struct library *l = open_fixture("libfixture.so", false);
	if (!l)
		return;
	CHECK_STR(l->soname, "libfixture.so.1");
	CHECK(!l->image.interp && l->image.dynamic);
	CHECK(library_exports(l, "fixture_call"));
	CHECK(!library_exports(l, "puts"), "an import is no export");
	CHECK(check_nm(l->path, &l->exports) >= 1);
	library_free(l);
}

static void test_static(void)
{
	if (!elf_fixture_build("static", "calls.c", "-static")) {
		fprintf(stderr, "test_library: skip: no static libc\n");
		return;
	}
	struct library *l = open_fixture("static", true);
	if (!l)
		return;
	CHECK(!l->image.interp, "static: interp %s", l->image.interp);
	CHECK_STR(l->soname, "static");
	library_free(l);
}

static void test_errors(void)
{
	char err[256] = "";
	CHECK(!library_new("/nonexistent", "/nonexistent", false, err,
			   sizeof(err)));
	CHECK(err[0], "no reason given");
	struct elf_exports ex;
	CHECK(elf_exports_read(&ex, "/nonexistent") < 0);
	CHECK(elf_exports_read(&ex, "/etc/passwd") < 0);
	CHECK(elf_exports_read(&ex, "/") < 0);
}

int main(void)
{
	if (system("gcc --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test_library: skip: gcc not found\n");
		return CHECK_SKIP;
	}
	if (!elf_fixtures_begin("test_library"))
		return 1;
	test_program();
	test_dso();
	test_static();
	test_libc();
	test_rtld();
	test_errors();
	elf_fixtures_end("test_library");
	return check_exit();
}
