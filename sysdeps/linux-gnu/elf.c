/* Reading one ELF file with libelf: its type, entry, segments (the
 * PT_LOAD span, PT_INTERP, PT_DYNAMIC), soname, call stubs, and the
 * function slots no stub jumps through (for elfsites.c).  This is the
 * generic part; the stubs themselves are decoded by <arch>/plt.c
 * through plt_arch.h.
 *
 * Only what the loader reads is trusted: the program headers, the
 * dynamic section they point to, its relocations (DT_RELA, DT_JMPREL)
 * and symbols (DT_SYMTAB, DT_STRTAB).  Section headers may lie or be
 * gone (sstrip), and only name IRELATIVE slots.  The GOT slots named by
 * the relocations are sorted once; the stubs are found in the
 * executable segments by a byte search for their jump, each candidate
 * looked up by binary search and then decoded (<arch>/plt.c), so the
 * cost is a memmem over the code plus O(n log n) in the number of
 * relocations and stubs. */
#include "elfdyn.h"
#include "elffile.h"
#include "elfscan.h"
#include "plt_arch.h"
#include "xmalloc.h"

#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A GOT slot named by a dynamic relocation. */
struct slot {
	uint64_t got;
	uint64_t addend; /* IRELATIVE: the resolver's address */
	/* symbol name in the mapped file; NULL for IRELATIVE */
	const char *name;
	bool func;    /* its symbol is a FUNC or an IFUNC */
	bool data;    /* GLOB_DAT: code may call through it with no stub */
	bool stubbed; /* a stub jumps through it */
};

/* A .symtab or .dynsym symbol, to name IRELATIVE slots. */
struct addr_sym {
	uint64_t addr;
	int rank; /* see sym_rank */
	const char *name;
};

struct scan {
	Elf *elf;
	struct elf_dyn dt; /* the segments and the dynamic section */
	/* only to name IRELATIVE slots: a lying section header can cost a
	 * name, never a breakpoint */
	Elf_Scn *dynsym, *symtab;
	struct slot *slots;
	size_t nslots;
	struct addr_sym *syms;
	size_t nsyms;
	bool syms_loaded;
	struct plt_entry *out;
	size_t nout, capout;
};

/* Check the type (the machine and class are elf_file_open's); fill
 * is_dyn and entry. */
static int check_type(Elf *elf, struct elf_image *img, char *errbuf,
		      size_t errlen)
{
	GElf_Ehdr eh;

	if (!gelf_getehdr(elf, &eh) ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)) {
		if (errbuf && errlen)
			snprintf(
				errbuf, errlen, "%s",
				"ELF file is not an executable or shared object");
		return -ENOEXEC;
	}
	img->is_dyn = eh.e_type == ET_DYN;
	img->entry = eh.e_entry;
	return 0;
}

/* Find .dynsym and .symtab, which only name IRELATIVE slots. */
static void find_sections(struct scan *sc)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(sc->elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM)
			sc->dynsym = scn;
		else if (sh.sh_type == SHT_SYMTAB)
			sc->symtab = scn;
	}
}

static void read_soname(struct scan *sc, struct elf_image *img)
{
	const char *s = sc->dt.has_soname ?
				elf_dyn_string(&sc->dt, sc->dt.soname) :
				NULL;
	if (s)
		img->soname = xstrdup(s);
}

static void add_slot(struct scan *sc, size_t *cap, const struct slot *s)
{
	if (sc->nslots == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		sc->slots = xreallocarray(sc->slots, *cap, sizeof(*sc->slots));
	}
	sc->slots[sc->nslots++] = *s;
}

/* Record one relocation's slot, if it is a function's. */
static void note_rela(struct scan *sc, size_t *cap, const Elf64_Rela *r)
{
	struct slot s = { .got = r->r_offset, .addend = (uint64_t)r->r_addend };

	switch (plt_arch_reloc_kind(ELF64_R_TYPE(r->r_info))) {
	case PLT_RELOC_DATA:
		s.data = true;
		/* fall through */
	case PLT_RELOC_SYMBOL:
		s.name = elf_dyn_symbol(&sc->dt, ELF64_R_SYM(r->r_info),
					&s.func);
		if (s.name)
			add_slot(sc, cap, &s);
		break;
	case PLT_RELOC_IRELATIVE:
		add_slot(sc, cap, &s);
		break;
	case PLT_RELOC_OTHER:
	case PLT_RELOC_TPOFF:
		break;
	}
}

/* Record the function slots of the SIZE bytes of RELA entries at ADDR. */
static void load_rela(struct scan *sc, size_t *cap, uint64_t addr,
		      uint64_t size)
{
	const uint8_t *p = size ? elf_dyn_at(&sc->dt, addr, size) : NULL;

	if (!p || sc->dt.relaent != sizeof(Elf64_Rela))
		return;
	for (uint64_t i = 0; i < size / sizeof(Elf64_Rela); i++) {
		Elf64_Rela r;

		memcpy(&r, p + i * sizeof(r), sizeof(r));
		note_rela(sc, cap, &r);
	}
}

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = a;
	const struct slot *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

/* Collect the slots of DT_RELA and DT_JMPREL, sorted by address, one per
 * address (the two tables may overlap). */
static void load_slots(struct scan *sc)
{
	size_t cap = 0;

	load_rela(sc, &cap, sc->dt.rela, sc->dt.relasz);
	if (sc->dt.pltrel == DT_RELA)
		load_rela(sc, &cap, sc->dt.jmprel, sc->dt.pltrelsz);
	if (!sc->nslots)
		return;
	qsort(sc->slots, sc->nslots, sizeof(*sc->slots), cmp_slot);
	size_t n = 1;
	for (size_t i = 1; i < sc->nslots; i++)
		if (sc->slots[i].got != sc->slots[n - 1].got)
			sc->slots[n++] = sc->slots[i];
	sc->nslots = n;
}

static int cmp_addr_sym(const void *a, const void *b)
{
	const struct addr_sym *x = a;
	const struct addr_sym *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return strcmp(x->name, y->name);
}

/* Lower is better: an IFUNC over a function over anything else, then a
 * global over a weak over a local symbol.  -1: never a name. */
static int sym_rank(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);
	int b = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;

	if (sym->st_shndx == SHN_UNDEF)
		return -1;
	switch (GELF_ST_TYPE(sym->st_info)) {
	case STT_GNU_IFUNC:
		return b;
	case STT_FUNC:
		return 3 + b;
	case STT_SECTION:
	case STT_FILE:
	case STT_TLS:
		return -1;
	default:
		return 6 + b;
	}
}

/* Append the named, defined symbols of SCN to the address index. */
static void add_syms(struct scan *sc, Elf_Scn *scn)
{
	GElf_Shdr sh;

	if (!scn || !gelf_getshdr(scn, &sh))
		return;
	Elf_Data *data = elf_getdata(scn, NULL);
	if (!data)
		return;
	size_t n = data->d_size / gelf_fsize(sc->elf, ELF_T_SYM, 1, EV_CURRENT);
	sc->syms = xreallocarray(sc->syms, sc->nsyms + n, sizeof(*sc->syms));
	GElf_Sym sym;
	for (size_t i = 1; i < n && gelf_getsym(data, i, &sym); i++) {
		struct addr_sym *a = &sc->syms[sc->nsyms];

		a->rank = sym_rank(&sym);
		a->name = elf_strptr(sc->elf, sh.sh_link, sym.st_name);
		a->addr = sym.st_value;
		if (a->rank >= 0 && a->name && *a->name)
			sc->nsyms++;
	}
}

/* Index .symtab and .dynsym by address, once, on the first IRELATIVE
 * slot: a stripped DSO (libc) still names its IFUNCs in .dynsym. */
static void load_syms(struct scan *sc)
{
	sc->syms_loaded = true;
	add_syms(sc, sc->symtab);
	add_syms(sc, sc->dynsym);
	if (sc->nsyms) /* qsort's base must not be NULL, even for 0 */
		qsort(sc->syms, sc->nsyms, sizeof(*sc->syms), cmp_addr_sym);
}

/* The best-ranked symbol at ADDR, or NULL. */
static const char *sym_at(struct scan *sc, uint64_t addr)
{
	if (!sc->syms_loaded)
		load_syms(sc);
	size_t lo = 0;
	size_t hi = sc->nsyms;
	while (lo < hi) { /* lower bound: first addr >= ADDR */
		size_t mid = lo + (hi - lo) / 2;

		if (sc->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < sc->nsyms && sc->syms[lo].addr == addr)
		return sc->syms[lo].name;
	return NULL;
}

/* A slot's name, without any @VERSION suffix; caller frees. */
static char *slot_name(struct scan *sc, const struct slot *s)
{
	const char *name = s->name;

	if (!name)
		name = sym_at(sc, s->addend);
	if (!name) {
		char buf[32];

		snprintf(buf, sizeof(buf), "IREL.%#" PRIx64, s->addend);
		return xstrdup(buf);
	}
	return xstrndup(name, strcspn(name, "@"));
}

static struct slot *find_slot(const struct scan *sc, uint64_t got)
{
	struct slot key = { .got = got };

	if (!sc->nslots)
		return NULL;
	return bsearch(&key, sc->slots, sc->nslots, sizeof(*sc->slots),
		       cmp_slot);
}

/* plt_slot_fn: a slot some relocation names. */
static bool is_slot(void *ctx, uint64_t got)
{
	return find_slot(ctx, got) != NULL;
}

/* Whether S is the C runtime's call of the program's start, made once
 * before main and never returned from: not a call of the program's.
 * x86_64's crt1 makes it through the slot with no stub, aarch64's
 * through a stub; neither is traced, so that a trace starts alike. */
static bool program_start(const struct slot *s)
{
	return s->name && strcmp(s->name, "__libc_start_main") == 0;
}

/* plt_found_fn: keep a stub whose slot is a function's. */
static void on_stub(void *ctx, uint64_t stub, uint64_t got, unsigned len)
{
	struct scan *sc = ctx;
	struct slot *s = find_slot(sc, got);

	if (!s || program_start(s))
		return;
	/* code built without a PLT may also call through a GLOB_DAT slot:
	 * elfsites.c looks for those calls, and skips the stubs */
	s->stubbed = !s->data;
	if (sc->nout == sc->capout) {
		sc->capout = sc->capout ? sc->capout * 2 : 64;
		sc->out = xreallocarray(sc->out, sc->capout, sizeof(*sc->out));
	}
	struct plt_entry *e = &sc->out[sc->nout++];
	e->addr = stub;
	e->got = got;
	e->len = len;
	e->addr_read = s->data;
	e->name = slot_name(sc, s);
}

/* Find the stubs in each executable PT_LOAD segment, as mapped. */
static void scan_code(struct scan *sc)
{
	for (size_t i = 0; i < sc->dt.nload; i++) {
		const GElf_Phdr *ph = &sc->dt.load[i];
		const uint8_t *code;

		if (!(ph->p_flags & PF_X) || !ph->p_filesz ||
		    ph->p_filesz > SIZE_MAX)
			continue;
		code = elf_dyn_at(&sc->dt, ph->p_vaddr, ph->p_filesz);
		if (code)
			plt_arch_find_stubs(code, (size_t)ph->p_filesz,
					    ph->p_vaddr, is_slot, on_stub, sc);
	}
}

static int cmp_entry(const void *a, const void *b)
{
	const struct plt_entry *x = a;
	const struct plt_entry *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sort the stubs by address and drop duplicates. */
static void finish_entries(struct scan *sc, struct elf_image *img)
{
	if (sc->nout) /* qsort's base must not be NULL, even for 0 */
		qsort(sc->out, sc->nout, sizeof(*sc->out), cmp_entry);
	size_t n = 0;
	for (size_t i = 0; i < sc->nout; i++) {
		if (n && sc->out[n - 1].addr == sc->out[i].addr) {
			free(sc->out[i].name);
			continue;
		}
		sc->out[n++] = sc->out[i];
	}
	img->plt = sc->out;
	img->nplt = n;
	sc->out = NULL;
}

/* Keep the function slots no stub jumps through (elfscan.h, struct
 * elf_slot), in the order of the sorted slots. */
static void keep_stubless(struct scan *sc, struct elf_image *img)
{
	for (size_t i = 0; i < sc->nslots; i++) {
		const struct slot *s = &sc->slots[i];

		if (!s->name || !s->func || s->stubbed || program_start(s))
			continue;
		if (!img->slots) /* at most one per slot */
			img->slots = xreallocarray(NULL, sc->nslots,
						   sizeof(*img->slots));
		img->slots[img->nslots].got = s->got;
		img->slots[img->nslots++].name = slot_name(sc, s);
	}
}

/* The interpreter named by PT_INTERP PH, copied if it lies within the
 * file and is NUL-terminated there. */
static void read_interp(Elf *elf, const GElf_Phdr *ph, struct elf_image *img)
{
	size_t size = 0;
	const char *raw = elf_rawfile(elf, &size);
	if (!raw || ph->p_offset >= size || ph->p_filesz == 0 ||
	    ph->p_filesz > size - ph->p_offset)
		return;
	const char *s = raw + ph->p_offset;
	if (!img->interp && memchr(s, '\0', ph->p_filesz))
		img->interp = xstrdup(s);
}

/* Note one program header; keep PT_LOAD's in SC. */
static void note_segment(struct scan *sc, const GElf_Phdr *ph,
			 struct elf_image *img)
{
	switch (ph->p_type) {
	case PT_LOAD:
		elf_dyn_add_load(&sc->dt, ph);
		if (ph->p_memsz > UINT64_MAX - ph->p_vaddr)
			return;
		if (!img->load_hi || ph->p_vaddr < img->load_lo)
			img->load_lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > img->load_hi)
			img->load_hi = ph->p_vaddr + ph->p_memsz;
		break;
	case PT_INTERP:
		read_interp(sc->elf, ph, img);
		break;
	}
}

/* Read the program headers into IMG and SC; the PT_DYNAMIC one goes to
 * *DYN, and the result says whether there is one. */
static bool read_segments(struct scan *sc, struct elf_image *img,
			  GElf_Phdr *dyn)
{
	size_t n = 0;
	bool has_dyn = false;
	if (elf_getphdrnum(sc->elf, &n) < 0)
		return false;
	GElf_Phdr ph;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(sc->elf, (int)i, &ph))
			continue;
		note_segment(sc, &ph, img);
		if (ph.p_type == PT_DYNAMIC && !has_dyn) {
			img->dynamic = ph.p_vaddr;
			*dyn = ph;
			has_dyn = true;
		}
	}
	return has_dyn;
}

/* Everything from what the loader reads: program headers, the dynamic
 * section, its relocations and symbols; no section header but to name
 * IRELATIVE slots. */
static void scan_image(const struct elf_file *f, struct elf_image *img,
		       bool calls)
{
	struct scan sc = { .elf = f->elf };
	GElf_Phdr dyn = { 0 };

	elf_dyn_init(&sc.dt, f->raw, f->size);
	/* static binaries have no dynamic section, and no library calls */
	if (read_segments(&sc, img, &dyn) &&
	    elf_dyn_read(&sc.dt, dyn.p_vaddr, dyn.p_filesz)) {
		find_sections(&sc);
		read_soname(&sc, img);
		img->errno_got = elf_dyn_tls_slot(&sc.dt, "errno");
		if (calls) {
			load_slots(&sc);
			scan_code(&sc);
			finish_entries(&sc, img);
			keep_stubless(&sc, img);
		}
	}
	free(sc.out);
	free(sc.syms);
	free(sc.slots);
	elf_dyn_destroy(&sc.dt);
}

static int read_image(struct elf_image *img, const char *path, bool calls,
		      char *errbuf, size_t errlen)
{
	memset(img, 0, sizeof(*img));
	struct elf_file f;
	int ret = elf_file_open(&f, path, errbuf, errlen);
	if (ret)
		return ret;
	ret = check_type(f.elf, img, errbuf, errlen);
	if (ret == 0)
		scan_image(&f, img, calls);
	elf_file_close(&f);
	return ret;
}

int elf_image_read(struct elf_image *img, const char *path, char *errbuf,
		   size_t errlen)
{
	return read_image(img, path, true, errbuf, errlen);
}

int elf_image_read_shape(struct elf_image *img, const char *path, char *errbuf,
			 size_t errlen)
{
	return read_image(img, path, false, errbuf, errlen);
}

void elf_image_destroy(struct elf_image *img)
{
	for (size_t i = 0; i < img->nplt; i++)
		free(img->plt[i].name);
	free(img->plt);
	for (size_t i = 0; i < img->nslots; i++)
		free(img->slots[i].name);
	free(img->slots);
	free(img->soname);
	free(img->interp);
	memset(img, 0, sizeof(*img));
}
