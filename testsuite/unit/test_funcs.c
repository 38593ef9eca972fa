/* Unit test of what -x reads from an ELF file (elf_funcs_read in
 * sysdeps/linux-gnu/elfsyms.c): the functions it defines, local ones
 * included, each found with its address, binding and IFUNC type as
 * `nm --defined-only` sees them; the IRELATIVE slot an IFUNC's resolver
 * fills; the executable span.  Also arch_follows_call, which tells a
 * return address from other stack words, on the encodings of x86_64
 * call instructions.
 *
 * Fixtures from elf-fixtures/ are compiled with gcc into a temporary
 * directory; libc is read as installed.  Exit 0 on success, 1 with one
 * stderr line per failed check, 77 when gcc is missing. */
#include "arch.h"
#include "check.h"
#include "elfscan.h"
#include "elf_fixtures.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The function of FS named NAME (at ADDR unless ADDR is 0: a name
 * defined under several versions has several), or NULL. */
static const struct elf_func *find_at(const struct elf_funcs *fs,
				      const char *name, uint64_t addr)
{
	for (size_t i = 0; i < fs->n; i++)
		if (!strcmp(fs->v[i].name, name) &&
		    (!addr || fs->v[i].addr == addr))
			return &fs->v[i];
	return NULL;
}

static const struct elf_func *find(const struct elf_funcs *fs, const char *name)
{
	return find_at(fs, name, 0);
}

/* A function nm lists (T t W i: global, local, weak, IFUNC) within the
 * text span is in FS (struct elf_funcs) at its address, with its binding
 * and type. */
static bool check_func(const void *fs, const char *path,
		       unsigned long long addr, char type, const char *name)
{
	const struct elf_funcs *funcs = fs;
	if (!strchr("TtWi", type) || addr < funcs->text_lo ||
	    addr >= funcs->text_hi)
		return false;
	const struct elf_func *f = find_at(funcs, name, addr);
	CHECK(f, "%s: %s (%c) not found at %#llx", path, name, type, addr);
	if (!f)
		return false;
	int bind = type == 't' ? 2 : type == 'W' ? 1 : 0;
	CHECK(type == 'i' || f->bind == bind, "%s: %s bind %d, nm %c", path,
	      name, f->bind, type);
	CHECK(f->ifunc == (type == 'i'), "%s: %s ifunc %d, nm %c", path, name,
	      f->ifunc, type);
	return true;
}

/* Every function nm lists is in FS (check_func).  DYN: nm -D (the file
 * has no .symtab).  Returns how many were compared. */
static size_t check_nm(const char *path, const struct elf_funcs *fs, bool dyn)
{
	return nm_each(path, dyn ? "-D" : "", check_func, fs);
}

/* Sorted by address; at one address, the public name first: fewer
 * leading underscores, then the better binding. */
static void check_order(const struct elf_funcs *fs)
{
	for (size_t i = 1; i < fs->n; i++) {
		const struct elf_func *a = &fs->v[i - 1];
		const struct elf_func *b = &fs->v[i];
		size_t ua = strspn(a->name, "_");
		size_t ub = strspn(b->name, "_");
		CHECK(a->addr < b->addr ||
			      (a->addr == b->addr &&
			       (ua < ub || (ua == ub && a->bind <= b->bind))),
		      "%s (%d) before %s (%d)", a->name, a->bind, b->name,
		      b->bind);
		CHECK(!strchr(b->name, '@'), "%s: version kept", b->name);
	}
}

/* The program's own IFUNC: its resolver and implementation are local
 * functions; the IRELATIVE relocation names the resolver. */
static void test_ifunc(void)
{
	if (!elf_fixture_build("ifunc", "ifunc.c", "")) {
		FAIL("ifunc: gcc failed");
		return;
	}
	char path[4200];
	elf_fixture_path(path, sizeof(path), "ifunc");
	struct elf_funcs fs;
	CHECK(elf_funcs_read(&fs, path) == 0);
	CHECK(fs.text_lo && fs.text_hi > fs.text_lo);
	const struct elf_func *answer = find(&fs, "answer");
	const struct elf_func *res = find(&fs, "answer_resolver");
	const struct elf_func *impl = find(&fs, "answer_impl");
	CHECK(answer && answer->ifunc && answer->bind == 0);
	CHECK(res && !res->ifunc && res->bind == 2 && impl && impl->bind == 2);
	CHECK(answer && res && answer->addr == res->addr);
	CHECK(answer && elf_funcs_irel_slot(&fs, answer->addr) != 0,
	      "no IRELATIVE slot for answer's resolver");
	CHECK(impl && elf_funcs_irel_slot(&fs, impl->addr) == 0);
	CHECK(check_nm(path, &fs, false) >= 4);
	check_order(&fs);
	elf_funcs_destroy(&fs);
}

/* libc has no .symtab: its .dynsym functions, strlen an IFUNC whose
 * resolver fills an IRELATIVE slot (libc's own calls go through it). */
static void test_libc(void)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	if (!elf_fixtures_have("test_funcs", libc))
		return;
	struct elf_funcs fs;
	CHECK(elf_funcs_read(&fs, libc) == 0);
	const struct elf_func *s = find(&fs, "strlen");
	const struct elf_func *m = find(&fs, "malloc");
	CHECK(s && s->ifunc && m && !m->ifunc);
	CHECK(s && elf_funcs_irel_slot(&fs, s->addr) != 0);
	CHECK(!find(&fs, "stdout"), "data is no function");
	CHECK(check_nm(libc, &fs, true) > 1000, "libc: nm compared too few");
	check_order(&fs);
	elf_funcs_destroy(&fs);
}

static void test_errors(void)
{
	struct elf_funcs fs;
	CHECK(elf_funcs_read(&fs, "/nonexistent") < 0);
	CHECK(elf_funcs_read(&fs, "/etc/passwd") < 0);
}

/* ---- arch_follows_call ---- */

/* Whether the window that ends with the N bytes INSN follows a call. */
static bool after(const uint8_t *insn, size_t n)
{
	uint8_t b[ARCH_CALL_WINDOW];
	memset(b, 0x90, sizeof(b));
	memcpy(b + sizeof(b) - n, insn, n);
	return arch_follows_call(b);
}

static void test_follows_call(void)
{
	static const uint8_t rel32[] = { 0xe8, 1, 2, 3, 4 };
	static const uint8_t reg[] = { 0xff, 0xd0 };		 /* *%rax */
	static const uint8_t rex[] = { 0x41, 0xff, 0xd3 };	 /* *%r11 */
	static const uint8_t got[] = { 0xff, 0x15, 1, 2, 3, 4 }; /* *x(%rip) */
	static const uint8_t d8[] = { 0xff, 0x50, 0x10 };	 /* *16(%rax) */
	static const uint8_t sib[] = { 0xff, 0x14, 0xc5, 1, 2, 3, 4 };
	static const uint8_t jmp[] = { 0xff, 0xe0 };  /* jmp *%rax */
	static const uint8_t push[] = { 0xff, 0x30 }; /* push (%rax) */
	static const uint8_t data[] = { 0x00, 0x00, 0x7f, 0x55, 0x00 };
	CHECK(after(rel32, sizeof(rel32)) && after(reg, sizeof(reg)) &&
	      after(rex, sizeof(rex)) && after(got, sizeof(got)) &&
	      after(d8, sizeof(d8)) && after(sib, sizeof(sib)));
	CHECK(!after(jmp, sizeof(jmp)) && !after(push, sizeof(push)) &&
	      !after(data, sizeof(data)));
	/* ff 15 with its displacement cut short is not a call here */
	static const uint8_t cut[] = { 0xff, 0x15, 1, 2 };
	CHECK(!after(cut, sizeof(cut)));
}

int main(void)
{
	test_follows_call();
	test_errors();
	test_libc();
	if (system("gcc --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test_funcs: skip: gcc not found\n");
		return check_exit() ? check_exit() : CHECK_SKIP;
	}
	if (!elf_fixtures_begin("test_funcs"))
		return 1;
	test_ifunc();
	elf_fixtures_end("test_funcs");
	return check_exit();
}
