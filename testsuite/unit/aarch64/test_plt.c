/* Unit test of sysdeps/linux-gnu/aarch64/plt.c and sites.c on programs
 * compiled here: with a PLT (plain, -z now, -z pac-plt, and BTI stubs
 * with -z force-bti in a non-PIE link), and with -fno-plt.  The facts
 * come from libelf: the JUMP_SLOT and GLOB_DAT relocations and the
 * .plt section.  Every JUMP_SLOT has exactly one stub, found both by
 * decoding .plt and by searching the executable segment with no section
 * header, of the expected length; every -fno-plt call and tail call of
 * the program is a site on a blr/br whose slot is the callee's.
 *
 *   aarch64-linux-gnu-gcc -Wall -Wextra -g -I ltrace \
 *	testsuite/unit/aarch64/test_plt.c sysdeps/linux-gnu/aarch64/plt.c \
 *	sysdeps/linux-gnu/aarch64/sites.c -lelf
 *   CC=aarch64-linux-gnu-gcc qemu-aarch64 -L /usr/aarch64-linux-gnu ./a.out
 *
 * $CC (default cc) must build aarch64 programs; 77 (skip) otherwise. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../../sysdeps/linux-gnu/plt_arch.h"
#include "../check.h"

static char tmpdir[] = "/tmp/test_a64plt.XXXXXX";

static const char src[] = "#include <stdio.h>\n"
			  "#include <stdlib.h>\n"
			  "#include <string.h>\n"
			  "__attribute__((noinline)) int tail(const char *s)\n"
			  "{ return puts(s); }\n"
			  "int main(int argc, char **argv)\n"
			  "{\n"
			  "	char *p = malloc(16);\n"
			  "	strcpy(p, argc > 5 ? argv[0] : \"hi\");\n"
			  "	tail(p);\n"
			  "	printf(\"%zu\\n\", strlen(p));\n"
			  "	free(p);\n"
			  "	return 0;\n"
			  "}\n";

struct slot {
	uint64_t got;
	char name[64];
	bool jump_slot;
	unsigned hits;
};

struct facts {
	struct slot s[64];
	size_t n;
	const uint8_t *plt;
	size_t plt_size;
	uint64_t plt_addr;
	const uint8_t *text;
	size_t text_size;
	uint64_t text_addr;
	uint8_t *seg; /* the executable PT_LOAD, as the loader maps it */
	size_t seg_size;
	uint64_t seg_addr;
};

static struct slot *find_slot(struct facts *f, uint64_t got)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->s[i].got == got)
			return &f->s[i];
	return NULL;
}

/* CTX is a struct stubs or sites, whose first member is the facts. */
static bool is_slot(void *ctx, uint64_t got)
{
	return find_slot(*(struct facts **)ctx, got) != NULL;
}

static void read_relocs(struct facts *f, Elf *e, Elf_Scn *scn, GElf_Shdr *sh)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	Elf_Data *syms = elf_getdata(elf_getscn(e, sh->sh_link), NULL);
	GElf_Shdr symsh;
	gelf_getshdr(elf_getscn(e, sh->sh_link), &symsh);
	for (size_t i = 0; d && i < sh->sh_size / sh->sh_entsize; i++) {
		GElf_Rela r;
		GElf_Sym sym;
		gelf_getrela(d, (int)i, &r);
		enum plt_reloc_kind k =
			plt_arch_reloc_kind((uint32_t)GELF_R_TYPE(r.r_info));
		if (k == PLT_RELOC_OTHER || f->n == 64 ||
		    !gelf_getsym(syms, (int)GELF_R_SYM(r.r_info), &sym))
			continue;
		struct slot *s = &f->s[f->n++];
		s->got = r.r_offset;
		s->jump_slot = k == PLT_RELOC_SYMBOL;
		s->hits = 0;
		snprintf(s->name, sizeof(s->name), "%s",
			 elf_strptr(e, symsh.sh_link, sym.st_name));
	}
}

static void read_segment(struct facts *f, Elf *e, const uint8_t *file)
{
	size_t n;
	elf_getphdrnum(e, &n);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X))
			continue;
		f->seg = calloc(1, ph.p_memsz);
		memcpy(f->seg, file + ph.p_offset, ph.p_filesz);
		f->seg_size = ph.p_memsz;
		f->seg_addr = ph.p_vaddr;
	}
}

static bool facts_read(struct facts *f, Elf *e, const uint8_t *file)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	memset(f, 0, sizeof(*f));
	elf_getshdrstrndx(e, &shstrndx);
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		const char *name;
		if (!gelf_getshdr(scn, &sh) ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)))
			continue;
		if (sh.sh_type == SHT_RELA)
			read_relocs(f, e, scn, &sh);
		if (!strcmp(name, ".plt")) {
			f->plt = file + sh.sh_offset;
			f->plt_size = sh.sh_size;
			f->plt_addr = sh.sh_addr;
		} else if (!strcmp(name, ".text")) {
			f->text = file + sh.sh_offset;
			f->text_size = sh.sh_size;
			f->text_addr = sh.sh_addr;
		}
	}
	read_segment(f, e, file);
	return f->seg && f->text;
}

/* ---- stubs ---- */

struct stubs {
	struct facts *f;
	const char *what;
	uint64_t addr[64];
	unsigned len[64];
	size_t n;
};

static void on_stub(void *ctx, uint64_t stub, uint64_t got)
{
	struct stubs *st = ctx;
	struct slot *s = find_slot(st->f, got);

	CHECK(s && s->jump_slot,
	      "%s: stub %#" PRIx64 " reads %#" PRIx64 ", no JUMP_SLOT",
	      st->what, stub, got);
	if (s)
		s->hits++;
	if (st->n < 64)
		st->addr[st->n++] = stub;
}

static void on_found(void *ctx, uint64_t stub, uint64_t got, unsigned len)
{
	struct stubs *st = ctx;

	CHECK(find_slot(st->f, got), "found stub %#" PRIx64, stub);
	if (st->n < 64) {
		st->len[st->n] = len;
		st->addr[st->n++] = stub;
	}
}

static void check_stubs(const char *what, struct facts *f, unsigned want_len)
{
	struct stubs a = { .f = f, .what = what }, b = { .f = f, .what = what };
	size_t njump = 0;

	plt_arch_scan(f->plt, f->plt_size, f->plt_addr, on_stub, &a);
	for (size_t i = 0; i < f->n; i++) {
		njump += f->s[i].jump_slot;
		CHECK(!f->s[i].jump_slot || f->s[i].hits == 1,
		      "%s: %s has %u stubs", what, f->s[i].name, f->s[i].hits);
	}
	CHECK(a.n == njump && njump >= 5, "%s: %zu stubs, %zu JUMP_SLOTs", what,
	      a.n, njump);
	CHECK(a.n && (a.addr[0] - f->plt_addr) % 16 == 0 &&
		      a.addr[0] > f->plt_addr,
	      "%s: first stub %#" PRIx64 " (PLT0 at %#" PRIx64 ")", what,
	      a.n ? a.addr[0] : 0, f->plt_addr);
	plt_arch_find_stubs(f->seg, f->seg_size, f->seg_addr, is_slot, on_found,
			    &b);
	CHECK(b.n == a.n, "%s: %zu stubs without headers, %zu in .plt", what,
	      b.n, a.n);
	for (size_t i = 0; i < a.n && i < b.n; i++)
		CHECK(a.addr[i] == b.addr[i] && b.len[i] == want_len,
		      "%s: stub %zu at %#" PRIx64 "/%#" PRIx64 " len %u", what,
		      i, a.addr[i], b.addr[i], b.len[i]);
}

/* ---- sites ---- */

struct sites {
	struct facts *f;
	const uint8_t *text;
	unsigned calls[64], jumps[64];
};

static void on_site(void *ctx, const struct plt_site *site)
{
	struct sites *st = ctx;
	struct slot *s = find_slot(st->f, site->got);
	uint32_t w;

	memcpy(&w, st->text + (site->addr - st->f->text_addr), 4);
	CHECK(site->len == 4 &&
		      (w & 0xfffffc1f) == (site->kind == PLT_SITE_CALL ?
						   0xd63f0000u :
						   0xd61f0000u),
	      "site %#" PRIx64 ": %08x", site->addr, w);
	if (!s)
		return;
	if (site->kind == PLT_SITE_CALL)
		st->calls[s - st->f->s]++;
	else
		st->jumps[s - st->f->s]++;
}

static unsigned count(struct sites *st, const char *name, bool call)
{
	for (size_t i = 0; i < st->f->n; i++)
		if (!strcmp(st->f->s[i].name, name))
			return call ? st->calls[i] : st->jumps[i];
	return 0;
}

static void check_sites(struct facts *f)
{
	struct sites st = { .f = f, .text = f->text };
	static const char *const called[] = { "malloc", "strcpy", "strlen",
					      "printf", "free",	  NULL };

	plt_arch_scan_sites(f->text, f->text_size, f->text_addr, is_slot,
			    on_site, &st);
	for (size_t i = 0; called[i]; i++)
		CHECK(count(&st, called[i], true) == 1,
		      "no-plt: %u call sites of %s",
		      count(&st, called[i], true), called[i]);
	CHECK(count(&st, "puts", false) == 1, "no-plt: puts tail call");
	CHECK(count(&st, "__libc_start_main", true) == 0 ||
	      count(&st, "__libc_start_main", true) == 1);
}

/* ---- programs ---- */

struct variant {
	const char *out, *flags;
	unsigned stub_len; /* 0: no PLT, check -fno-plt sites */
};

static const struct variant variants[] = {
	{ "plain", "-O2", 16 },
	{ "now", "-O2 -Wl,-z,now", 16 },
	{ "pac", "-O2 -Wl,-z,pac-plt", 20 },
	{ "bti", "-O2 -no-pie -mbranch-protection=standard -Wl,-z,force-bti",
	  20 },
	{ "btipac",
	  "-O2 -no-pie -mbranch-protection=standard "
	  "-Wl,-z,force-bti,-z,pac-plt",
	  24 },
	{ "noplt", "-O2 -fno-plt", 0 },
};

static const char *cc(void)
{
	const char *c = getenv("CC");
	return c && *c ? c : "cc";
}

static void test_variant(const struct variant *v)
{
	char cmd[8192], path[4200];
	struct facts f;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && %s -fno-builtin -D_FORTIFY_SOURCE=0 %s -o %s "
		 "prog.c >/dev/null 2>&1",
		 tmpdir, cc(), v->flags, v->out);
	if (system(cmd) != 0) {
		FAIL("%s: %s failed", v->out, cmd);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", tmpdir, v->out);
	int fd = open(path, O_RDONLY);
	off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END);
	uint8_t *file = malloc(size ? (size_t)size : 1);
	Elf *e = NULL;
	if (fd >= 0 && pread(fd, file, (size_t)size, 0) == size)
		e = elf_memory((char *)file, (size_t)size);
	if (!e || !facts_read(&f, e, file)) {
		FAIL("%s: cannot read", path);
	} else if (v->stub_len) {
		check_stubs(v->out, &f, v->stub_len);
	} else {
		check_sites(&f);
	}
	if (e) {
		free(f.seg);
		elf_end(e);
	}
	free(file);
	if (fd >= 0)
		close(fd);
}

/* Whether cc builds aarch64 programs (a cross cc on x86_64 under qemu
 * is named by $CC). */
static bool cc_targets_aarch64(void)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd),
		 "%s -dumpmachine 2>/dev/null | grep -q '^aarch64'", cc());
	return system(cmd) == 0;
}

int main(void)
{
	elf_version(EV_CURRENT);
	CHECK(plt_arch_reloc_kind(1026) == PLT_RELOC_SYMBOL);
	CHECK(plt_arch_reloc_kind(1025) == PLT_RELOC_DATA);
	CHECK(plt_arch_reloc_kind(1032) == PLT_RELOC_IRELATIVE);
	CHECK(plt_arch_reloc_kind(1031) == PLT_RELOC_OTHER); /* TLSDESC */
	if (!cc_targets_aarch64()) {
		fprintf(stderr, "test_plt: skip: %s does not build aarch64\n",
			cc());
		return check_failures ? check_exit() : CHECK_SKIP;
	}
	if (!mkdtemp(tmpdir)) {
		perror("test_plt: mkdtemp");
		return 1;
	}
	char path[4200];
	snprintf(path, sizeof(path), "%s/prog.c", tmpdir);
	FILE *out = fopen(path, "w");
	if (!out || fputs(src, out) < 0 || fclose(out) != 0)
		FAIL("%s: cannot write", path);
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++)
		test_variant(&variants[i]);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpdir);
	if (system(path) != 0)
		fprintf(stderr, "test_plt: could not remove %s\n", tmpdir);
	return check_exit();
}
