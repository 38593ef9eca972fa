/* Unit test of the ELF scanner (ltrace/elfscan.h) and of the x86_64
 * stub decoder (sysdeps/linux-gnu/plt_arch.h).
 *
 * Fixture programs from elf-fixtures/ are compiled with gcc into a
 * temporary directory under every PLT layout GNU ld produces; each
 * result is then checked against facts found independently of the
 * scanner: the relocation of each GOT slot (read here with libelf), the
 * raw bytes of each stub (decoded here by hand, without Zydis) and, when
 * objdump is installed, its `<name@plt>` labels.
 *
 * Exit 0 on success, 1 with one stderr line per failed check, 77 when
 * gcc is missing.  Fixtures: see set_fixtures(). */
#include "elfscan.h"
#include "../../sysdeps/linux-gnu/plt_arch.h"
#include "check.h"
#include "fixtures.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/test_elf.XXXXXX";
static char fixtures[4096];

/* ---- independent facts about a file, read with libelf ---- */

struct reloc {
	uint64_t off;
	uint32_t type;
	uint64_t addend;
	char name[128];
};

struct code_scn {
	char name[32];
	uint64_t addr, size;
	const uint8_t *bytes;
};

struct facts {
	int fd;
	Elf *elf;
	struct reloc *rel;
	size_t nrel;
	struct code_scn scn[64];
	size_t nscn;
};

static void facts_rela(struct facts *f, Elf_Scn *scn, const GElf_Shdr *sh)
{
	Elf_Scn *sym = elf_getscn(f->elf, sh->sh_link);
	GElf_Shdr ssh;

	if (!sym || !gelf_getshdr(sym, &ssh) || ssh.sh_type != SHT_DYNSYM)
		return;
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Data *sd = elf_getdata(sym, NULL);
	size_t n = d ? d->d_size / sizeof(Elf64_Rela) : 0;
	f->rel = realloc(f->rel, (f->nrel + n) * sizeof(*f->rel));
	GElf_Rela r;
	for (size_t i = 0; i < n && gelf_getrela(d, i, &r); i++) {
		struct reloc *x = &f->rel[f->nrel++];
		const char *nm = NULL;
		GElf_Sym s;

		x->off = r.r_offset;
		x->type = GELF_R_TYPE(r.r_info);
		x->addend = r.r_addend;
		if (GELF_R_SYM(r.r_info) &&
		    gelf_getsym(sd, GELF_R_SYM(r.r_info), &s))
			nm = elf_strptr(f->elf, ssh.sh_link, s.st_name);
		snprintf(x->name, sizeof(x->name), "%s", nm ? nm : "");
	}
}

static void facts_scn(struct facts *f, Elf_Scn *scn, const GElf_Shdr *sh,
		      size_t shstrndx)
{
	const char *name = elf_strptr(f->elf, shstrndx, sh->sh_name);

	if (sh->sh_type == SHT_RELA)
		facts_rela(f, scn, sh);
	if (!(sh->sh_flags & SHF_EXECINSTR) || !name ||
	    f->nscn == sizeof(f->scn) / sizeof(f->scn[0]))
		return;
	Elf_Data *d = elf_getdata(scn, NULL);
	struct code_scn *c = &f->scn[f->nscn++];
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->addr = sh->sh_addr;
	c->size = d ? d->d_size : 0;
	c->bytes = d ? d->d_buf : NULL;
}

static bool facts_open(struct facts *f, const char *path)
{
	memset(f, 0, sizeof(*f));
	elf_version(EV_CURRENT);
	f->fd = open(path, O_RDONLY);
	if (f->fd < 0)
		return false;
	f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
	size_t shstrndx;
	if (!f->elf || elf_getshdrstrndx(f->elf, &shstrndx) < 0) {
		FAIL("%s: libelf cannot read it", path);
		return false;
	}
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(f->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh))
			facts_scn(f, scn, &sh, shstrndx);
	return true;
}

static void facts_close(struct facts *f)
{
	free(f->rel);
	if (f->elf)
		elf_end(f->elf);
	if (f->fd >= 0)
		close(f->fd);
}

static const struct code_scn *scn_at(const struct facts *f, uint64_t addr)
{
	for (size_t i = 0; i < f->nscn; i++)
		if (addr >= f->scn[i].addr &&
		    addr - f->scn[i].addr < f->scn[i].size)
			return &f->scn[i];
	return NULL;
}

static const struct reloc *reloc_at(const struct facts *f, uint64_t off)
{
	for (size_t i = 0; i < f->nrel; i++)
		if (f->rel[i].off == off &&
		    (f->rel[i].type == R_X86_64_JUMP_SLOT ||
		     f->rel[i].type == R_X86_64_GLOB_DAT ||
		     f->rel[i].type == R_X86_64_IRELATIVE))
			return &f->rel[i];
	return NULL;
}

/* Decode a stub by hand: [endbr64] [bnd] jmp *disp32(%rip). */
static bool stub_target(const struct code_scn *c, uint64_t addr, uint64_t *got)
{
	const uint8_t *p = c->bytes + (addr - c->addr);
	size_t left = c->size - (addr - c->addr);

	if (left >= 4 && !memcmp(p, "\xf3\x0f\x1e\xfa", 4)) {
		p += 4;
		left -= 4;
	}
	if (left >= 1 && *p == 0xf2) {
		p++;
		left--;
	}
	if (left < 6 || p[0] != 0xff || p[1] != 0x25)
		return false;
	int32_t disp;
	memcpy(&disp, p + 2, 4);
	*got = addr + (uint64_t)(p + 6 - (c->bytes + (addr - c->addr))) +
	       (int64_t)disp;
	return true;
}

/* ---- checks of one scanned image against the facts ---- */

static void check_entry(const char *path, const struct facts *f,
			const struct plt_entry *e)
{
	const struct code_scn *c = scn_at(f, e->addr);

	if (!c || !c->bytes) {
		FAIL("%s: %s: stub %#" PRIx64 " not in code", path, e->name,
		     e->addr);
		return;
	}
	CHECK(!strncmp(c->name, ".plt", 4), "%s: %s: stub in %s", path, e->name,
	      c->name);
	uint64_t got;
	CHECK(stub_target(c, e->addr, &got) && got == e->got,
	      "%s: %s: bytes at %#" PRIx64 " do not jump through %#" PRIx64,
	      path, e->name, e->addr, e->got);
	const struct reloc *r = reloc_at(f, e->got);
	if (!r) {
		FAIL("%s: %s: no relocation at GOT %#" PRIx64, path, e->name,
		     e->got);
		return;
	}
	if (r->type == R_X86_64_IRELATIVE)
		return; /* named from .symtab: see check_ifunc */
	CHECK(!strcmp(r->name, e->name), "%s: slot %#" PRIx64 " is %s, got %s",
	      path, e->got, r->name, e->name);
}

/* Every JUMP_SLOT relocation has a stub (GNU ld gives each one). */
static void check_complete(const char *path, const struct facts *f,
			   const struct elf_image *img)
{
	for (size_t i = 0; i < f->nrel; i++) {
		if (f->rel[i].type != R_X86_64_JUMP_SLOT)
			continue;
		size_t j;
		for (j = 0; j < img->nplt; j++)
			if (img->plt[j].got == f->rel[i].off)
				break;
		CHECK(j < img->nplt,
		      "%s: no stub for JUMP_SLOT %s at %#" PRIx64, path,
		      f->rel[i].name, f->rel[i].off);
	}
}

static const struct plt_entry *find_name(const struct elf_image *img,
					 const char *name)
{
	for (size_t i = 0; i < img->nplt; i++)
		if (!strcmp(img->plt[i].name, name))
			return &img->plt[i];
	return NULL;
}

/* objdump's "<name@plt>:" labels, as a third opinion. */
static void check_objdump(const char *path, const struct elf_image *img)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd),
		 "objdump -d -j .plt -j .plt.sec -j .plt.got "
		 "'%s' 2>/dev/null",
		 path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return;
	char line[1024];
	while (fgets(line, sizeof(line), p)) {
		unsigned long long addr;
		char name[512];

		if (sscanf(line, "%llx <%511[^>]>:", &addr, name) != 2)
			continue;
		size_t len = strlen(name); /* not "free@plt-0x10" (PLT0) */
		if (len < 4 || strcmp(name + len - 4, "@plt") ||
		    !strncmp(name, "*ABS*", 5))
			continue;
		name[len - 4] = '\0';
		size_t i;
		for (i = 0; i < img->nplt && img->plt[i].addr != addr; i++)
			;
		CHECK(i < img->nplt && !strcmp(img->plt[i].name, name),
		      "%s: objdump has %s@plt at %#llx, scanner does not", path,
		      name, addr);
	}
	pclose(p);
}

/* Read PATH and check everything that holds for any dynamic image. */
static bool scan_and_check(const char *path, struct elf_image *img)
{
	char err[256];
	int rc = elf_image_read(img, path, err, sizeof(err));

	if (rc < 0) {
		FAIL("%s: elf_image_read: %d (%s)", path, rc, err);
		return false;
	}
	struct facts f;
	if (!facts_open(&f, path)) {
		facts_close(&f);
		return true;
	}
	for (size_t i = 0; i < img->nplt; i++) {
		check_entry(path, &f, &img->plt[i]);
		CHECK(i == 0 || img->plt[i - 1].addr < img->plt[i].addr,
		      "%s: entries not sorted/unique at %zu", path, i);
	}
	check_complete(path, &f, img);
	facts_close(&f);
	check_objdump(path, img);
	return true;
}

/* ---- the fixtures ---- */

static const char *const libc_names[] = {
	"puts", "strlen", "malloc", "free", "qsort", NULL,
};

static bool build(const char *out, const char *src, const char *flags)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd),
		 "gcc -fno-builtin -fno-inline "
		 "-D_FORTIFY_SOURCE=0 -O0 %s -o '%s/%s' '%s/%s' "
		 ">/dev/null 2>&1",
		 flags, tmpdir, out, fixtures, src);
	return system(cmd) == 0;
}

static void tmp_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

/* SECTION: where each of NAMES must sit; "" for any .plt* section.
 * GOT_SECTION: names that must sit in .plt.got instead. */
static void check_names(const char *path, const struct elf_image *img,
			const char *const *names, const char *section,
			const char *const *got_names)
{
	struct facts f;

	if (!facts_open(&f, path))
		goto out;
	for (size_t i = 0; names[i]; i++) {
		const char *want = section;
		for (size_t k = 0; got_names && got_names[k]; k++)
			if (!strcmp(got_names[k], names[i]))
				want = ".plt.got";
		const struct plt_entry *e = find_name(img, names[i]);
		const struct code_scn *c = e ? scn_at(&f, e->addr) : NULL;
		CHECK(e, "%s: no stub for %s", path, names[i]);
		CHECK(!e || !*want || (c && !strcmp(c->name, want)),
		      "%s: %s not in %s", path, names[i], want);
	}
out:
	facts_close(&f);
}

struct variant {
	const char *out, *src, *flags, *section;
	const char *const *got_names;
	bool is_dyn;
};

static const char *const addrof_got[] = { "puts", "qsort", NULL };

static const struct variant variants[] = {
	{ "lazy", "calls.c", "", ".plt", NULL, true },
	{ "now", "calls.c", "-Wl,-z,now", ".plt", NULL, true },
	{ "cf", "calls.c", "-fcf-protection=full", "", NULL, true },
	{ "ibt", "calls.c", "-fcf-protection=full -Wl,-z,ibtplt", ".plt.sec",
	  NULL, true },
	{ "ibt_now", "calls.c",
	  "-fcf-protection=full -Wl,-z,ibtplt "
	  "-Wl,-z,now",
	  ".plt.sec", NULL, true },
	{ "addrof", "addrof.c", "", ".plt", addrof_got, true },
	{ "addrof_now", "addrof.c", "-Wl,-z,now", ".plt", addrof_got, true },
	{ "addrof_ibt", "addrof.c", "-fcf-protection=full -Wl,-z,ibtplt",
	  ".plt.sec", addrof_got, true },
	{ "nopie", "calls.c", "-no-pie", ".plt", NULL, false },
	{ "nopie_ibt", "calls.c",
	  "-no-pie -fcf-protection=full "
	  "-Wl,-z,ibtplt",
	  ".plt.sec", NULL, false },
};

static void test_variant(const struct variant *v)
{
	if (!build(v->out, v->src, v->flags)) {
		FAIL("%s: gcc %s failed", v->out, v->flags);
		return;
	}
	char path[4200];
	tmp_path(path, sizeof(path), v->out);
	struct elf_image img;
	if (!scan_and_check(path, &img))
		return;
	CHECK(img.is_dyn == v->is_dyn, "%s: is_dyn %d", path, img.is_dyn);
	CHECK(img.entry != 0, "%s: no entry", path);
	CHECK(img.soname == NULL, "%s: soname %s", path, img.soname);
	check_names(path, &img, libc_names, v->section, v->got_names);
	printf("%s: %zu stubs\n", v->out, img.nplt);
	elf_image_destroy(&img);
}

/* Stripped: each IRELATIVE stub is "IREL.<resolver address>".  Returns
 * the last one, or NULL. */
static const struct plt_entry *check_irel_names(const char *path,
						const struct elf_image *img)
{
	const struct plt_entry *e = NULL;
	struct facts f;

	if (facts_open(&f, path)) {
		for (size_t i = 0; i < img->nplt; i++) {
			const struct reloc *r = reloc_at(&f, img->plt[i].got);
			if (!r || r->type != R_X86_64_IRELATIVE)
				continue;
			char irel[64];
			snprintf(irel, sizeof(irel), "IREL.%#" PRIx64,
				 r->addend);
			CHECK(!strcmp(img->plt[i].name, irel),
			      "%s: %s, want %s", path, img->plt[i].name, irel);
			e = &img->plt[i];
		}
	}
	facts_close(&f);
	return e;
}

/* IRELATIVE: named by the IFUNC symbol, or IREL.<resolver> stripped. */
static void test_ifunc(const char *out, const char *flags, const char *name)
{
	if (!build(out, "ifunc.c", flags)) {
		FAIL("%s: gcc %s failed", out, flags);
		return;
	}
	char path[4200];
	tmp_path(path, sizeof(path), out);
	struct elf_image img;
	if (!scan_and_check(path, &img))
		return;
	const struct plt_entry *e = name ? find_name(&img, name) :
					   check_irel_names(path, &img);
	CHECK(e, "%s: no IRELATIVE stub named %s", path, name ? name : "IREL");
	CHECK(find_name(&img, "printf"), "%s: no printf", path);
	elf_image_destroy(&img);
}

static void test_dso(void)
{
	static const char *const names[] = {
		"puts", "strlen", "malloc", "free", NULL,
	};
	if (!build("libfixture.so", "dso.c",
		   "-shared -fPIC -Wl,-soname,libfixture.so.1")) {
		FAIL("libfixture.so: gcc failed");
		return;
	}
	char path[4200];
	tmp_path(path, sizeof(path), "libfixture.so");
	struct elf_image img;
	if (!scan_and_check(path, &img))
		return;
	CHECK(img.is_dyn, "%s: not ET_DYN", path);
	CHECK(img.soname && !strcmp(img.soname, "libfixture.so.1"),
	      "%s: soname %s", path, img.soname ? img.soname : "(null)");
	check_names(path, &img, names, ".plt", NULL);
	elf_image_destroy(&img);
}

static void test_static(void)
{
	if (!build("static", "calls.c", "-static")) {
		fprintf(stderr, "test_elf: skip: no static libc\n");
		return;
	}
	char path[4200];
	tmp_path(path, sizeof(path), "static");
	struct elf_image img;
	char err[256];
	int rc = elf_image_read(&img, path, err, sizeof(err));
	CHECK(rc == 0, "%s: rc %d (%s)", path, rc, err);
	if (rc == 0) {
		CHECK(img.nplt == 0, "%s: nplt %zu", path, img.nplt);
		CHECK(!img.is_dyn, "%s: is_dyn", path);
		elf_image_destroy(&img);
	}
}

/* ---- installed binaries: sane counts, same checks ---- */

static void test_system(const char *path, size_t min, const char *name)
{
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "test_elf: skip: %s missing\n", path);
		return;
	}
	struct elf_image img;
	if (!scan_and_check(path, &img))
		return;
	CHECK(img.nplt >= min, "%s: only %zu stubs", path, img.nplt);
	CHECK(!name || find_name(&img, name), "%s: no %s", path, name);
	printf("%s: %zu stubs\n", path, img.nplt);
	elf_image_destroy(&img);
}

/* ---- errors ---- */

static void expect_error(const char *path, int code, const char *msg)
{
	struct elf_image img;
	char err[256] = "";
	int rc = elf_image_read(&img, path, err, sizeof(err));

	CHECK(rc == code, "%s: rc %d, want %d (%s)", path, rc, code, err);
	CHECK(!strcmp(err, msg), "%s: message \"%s\", want \"%s\"", path, err,
	      msg);
	if (rc == 0)
		elf_image_destroy(&img);
}

static bool write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	bool ok = fd >= 0 && write(fd, buf, len) == (ssize_t)len;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* A copy of SRC with bytes OFF.. replaced by PATCH, LEN bytes kept. */
static bool patched_copy(const char *src, const char *dst, size_t off,
			 const void *patch, size_t plen, size_t keep)
{
	static char buf[1 << 16];
	int fd = open(src, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;

	if (fd >= 0)
		close(fd);
	if (n < 64)
		return false;
	memcpy(buf + off, patch, plen);
	if (keep && keep < (size_t)n)
		n = keep;
	return write_file(dst, buf, n);
}

static void test_crafted(void)
{
	static const uint16_t aarch64 = EM_AARCH64;
	static const uint16_t riscv = EM_RISCV;
	char lazy[4200];
	char path[4200];

	tmp_path(lazy, sizeof(lazy), "lazy");
	tmp_path(path, sizeof(path), "aarch64");
	if (!patched_copy(lazy, path, 18, &aarch64, 2, 0))
		FAIL("%s: cannot craft", path);
	expect_error(path, -ENOEXEC, "ELF for another architecture (AArch64)");
	tmp_path(path, sizeof(path), "riscv32");
	if (!patched_copy(lazy, path, 18, &riscv, 2, 0) ||
	    !patched_copy(path, path, EI_CLASS, "\x01", 1, 0))
		FAIL("%s: cannot craft", path);
	expect_error(path, -ENOEXEC,
		     "ELF for another architecture (RISC-V, 32-bit)");
	tmp_path(path, sizeof(path), "truncated");
	if (!patched_copy(lazy, path, 0, "\x7f", 1, 200)) {
		FAIL("%s: cannot craft", path);
	} else {
		struct elf_image img;
		char err[256];
		int rc = elf_image_read(&img, path, err, sizeof(err));
		CHECK(rc < 0 || img.nplt == 0, "%s: truncated file: rc %d",
		      path, rc);
		if (rc == 0)
			elf_image_destroy(&img);
	}
}

static void test_errors(void)
{
	char path[4200];

	expect_error("/nonexistent/test_elf", -ENOENT, strerror(ENOENT));
	expect_error(tmpdir, -EISDIR, strerror(EISDIR));
	tmp_path(path, sizeof(path), "text");
	write_file(path, "#!/bin/sh\necho hello\n", 21);
	expect_error(path, -ENOEXEC, "not an ELF file");
	tmp_path(path, sizeof(path), "empty");
	write_file(path, "", 0);
	expect_error(path, -ENOEXEC, "not an ELF file");
	tmp_path(path, sizeof(path), "calls.o");
	if (build("calls.o", "calls.c", "-c"))
		expect_error(path, -ENOEXEC,
			     "ELF file is not an executable or shared object");
	if (geteuid() != 0) {
		tmp_path(path, sizeof(path), "unreadable");
		write_file(path, "x", 1);
		chmod(path, 0);
		expect_error(path, -EACCES, strerror(EACCES));
	}
	if (access("/lib32/ld-linux.so.2", R_OK) == 0)
		expect_error("/lib32/ld-linux.so.2", -ENOEXEC,
			     "ELF for another architecture (i386, 32-bit)");
	test_crafted();
}

/* ---- the decoder alone, on hand-assembled bytes ---- */

struct got_log {
	uint64_t stub[8], got[8];
	size_t n;
};

static void log_stub(void *ctx, uint64_t stub, uint64_t got)
{
	struct got_log *l = ctx;

	if (l->n < 8) {
		l->stub[l->n] = stub;
		l->got[l->n] = got;
	}
	l->n++;
}

/* 0x1000: PLT0; 0x1010: lazy entry (slot 0x3000); 0x1020: IBT lazy
 * entry (no GOT jump); 0x1030: bnd stub (slot 0x3008); 0x1040: an
 * invalid byte; 0x1041: a .plt.got stub (slot 0x3010). */
static const uint8_t plt_bytes[] = {
	0xff, 0x35, 0xe2, 0x1f, 0,    0,       /* push 0x2fe8(%rip) */
	0xf2, 0xff, 0x25, 0xe3, 0x1f, 0,    0, /* bnd jmp *0x2ff0 */
	0x0f, 0x1f, 0x00,		       /* nopl (%rax) */
	0xff, 0x25, 0xea, 0x1f, 0,    0,       /* 1010 jmp *0x3000 */
	0x68, 0,    0,	  0,	0,	       /* push $0 */
	0xe9, 0xe5, 0xff, 0xff, 0xff,	       /* jmp 0x1005 */
	0xf3, 0x0f, 0x1e, 0xfa,		       /* 1020 endbr64 */
	0x68, 1,    0,	  0,	0,	       /* push $1 */
	0xf2, 0xe9, 0xd6, 0xff, 0xff, 0xff,    /* bnd jmp 0x1005 */
	0x90,				       /* nop */
	0xf3, 0x0f, 0x1e, 0xfa,		       /* 1030 endbr64 */
	0xf2, 0xff, 0x25, 0xcd, 0x1f, 0,    0, /* bnd jmp *0x3008 */
	0x0f, 0x1f, 0x44, 0,	0,	       /* nopl */
	0x06,				       /* 1040 invalid */
	0xff, 0x25, 0xc9, 0x1f, 0,    0,       /* 1041 jmp *0x3010 */
	0x66, 0x90,			       /* xchg %ax,%ax */
};

static void check_logged(const struct got_log *l, size_t i, uint64_t stub,
			 uint64_t got)
{
	CHECK(i < l->n && l->stub[i] == stub && l->got[i] == got,
	      "decoder: stub %zu is %#" PRIx64 "->%#" PRIx64 ", want %#" PRIx64
	      "->%#" PRIx64,
	      i, l->stub[i], l->got[i], stub, got);
}

static void test_decoder(void)
{
	struct got_log l = { .n = 0 };

	plt_arch_scan(plt_bytes, sizeof(plt_bytes), 0x1000, log_stub, &l);
	CHECK(l.n == 3, "decoder: %zu stubs, want 3", l.n);
	check_logged(&l, 0, 0x1010, 0x3000);
	check_logged(&l, 1, 0x1030, 0x3008);
	check_logged(&l, 2, 0x1041, 0x3010);
	l.n = 0;
	plt_arch_scan(plt_bytes, 20, 0x1000, log_stub, &l); /* cut mid-jmp */
	CHECK(l.n == 0, "decoder: %zu stubs in a truncated PLT0", l.n);
}

static void set_fixtures(void)
{
	fixture_dir(fixtures, sizeof(fixtures), "ELF_FIXTURES", "elf-fixtures",
		    __FILE__);
}

int main(void)
{
	if (system("gcc --version >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test_elf: skip: gcc not found\n");
		return CHECK_SKIP;
	}
	set_fixtures();
	if (!mkdtemp(tmpdir)) {
		perror("test_elf: mkdtemp");
		return 1;
	}
	test_decoder();
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		test_variant(&variants[i]);
	test_ifunc("ifunc", "", "answer");
	test_ifunc("ifunc_now", "-Wl,-z,now", "answer");
	test_ifunc("ifunc_stripped", "-s", NULL);
	test_dso();
	test_static();
	test_errors();
	test_system("/usr/bin/ls", 50, "malloc");
	test_system("/usr/bin/python3", 200, "malloc");
	test_system("/lib/x86_64-linux-gnu/libc.so.6", 10, NULL);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	if (system(cmd) != 0)
		fprintf(stderr, "test_elf: could not remove %s\n", tmpdir);
	return check_exit();
}
