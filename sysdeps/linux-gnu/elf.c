/* Reading one ELF file with libelf: its type, entry, segments (the
 * PT_LOAD span, PT_INTERP, PT_DYNAMIC), soname, call stubs, and the
 * function slots no stub jumps through (for elfsites.c).  This is the
 * generic part; the stubs themselves are decoded by <arch>/plt.c
 * through plt_arch.h.
 *
 * One pass over the section headers finds everything; the GOT slots
 * named by the dynamic relocations are sorted once and each decoded
 * stub is looked up by binary search, so the cost is O(n log n) in the
 * number of relocations and stubs. */
#include "elfscan.h"
#include "plt_arch.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A GOT slot named by a dynamic relocation. */
struct slot {
	uint64_t got;
	uint64_t addend; /* IRELATIVE: the resolver's address */
	/* symbol name in libelf's data; NULL for IRELATIVE */
	const char *name;
	bool func;    /* its symbol is a FUNC or an IFUNC */
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
	size_t shstrndx;
	Elf_Scn *dynsym, *symtab, *dynamic;
	Elf_Scn **rela;
	size_t nrela;
	Elf_Scn **code;
	size_t ncode;
	struct slot *slots;
	size_t nslots;
	struct addr_sym *syms;
	size_t nsyms;
	bool syms_loaded;
	struct plt_entry *out;
	size_t nout, capout;
};

static int fail(char *errbuf, size_t errlen, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *errbuf, size_t errlen, int err, const char *fmt, ...)
{
	if (errbuf && errlen) {
		va_list ap;

		va_start(ap, fmt);
		vsnprintf(errbuf, errlen, fmt, ap);
		va_end(ap);
	}
	return -err;
}

static const char *machine_name(unsigned int machine)
{
	switch (machine) {
	case EM_386:
		return "i386";
	case EM_X86_64:
		return "x86-64";
	case EM_AARCH64:
		return "AArch64";
	case EM_ARM:
		return "ARM";
	case EM_PPC:
		return "PowerPC";
	case EM_PPC64:
		return "PowerPC64";
	case EM_S390:
		return "IBM S/390";
	case EM_MIPS:
		return "MIPS";
	case EM_RISCV:
		return "RISC-V";
	case EM_SPARC:
		return "SPARC";
	case EM_SPARCV9:
		return "SPARC v9";
	case EM_IA_64:
		return "IA-64";
	case EM_ALPHA:
		return "Alpha";
	case EM_SH:
		return "SuperH";
	case EM_68K:
		return "m68k";
	case EM_PARISC:
		return "PA-RISC";
#ifdef EM_LOONGARCH
	case EM_LOONGARCH:
		return "LoongArch";
#endif
	case EM_BPF:
		return "BPF";
	default:
		return NULL;
	}
}

/* 0 if FD is a regular file starting with the ELF magic, else a
 * negative errno with the reason in ERRBUF. */
static int check_file(int fd, char *errbuf, size_t errlen)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return fail(errbuf, errlen, errno, "%s", strerror(errno));
	if (S_ISDIR(st.st_mode))
		return fail(errbuf, errlen, EISDIR, "%s", strerror(EISDIR));
	unsigned char magic[SELFMAG];
	if (!S_ISREG(st.st_mode) || pread(fd, magic, SELFMAG, 0) != SELFMAG ||
	    memcmp(magic, ELFMAG, SELFMAG) != 0)
		return fail(errbuf, errlen, ENOEXEC, "not an ELF file");
	return 0;
}

/* Open PATH for reading; it must be a regular file starting with the
 * ELF magic.  Returns the fd or a negative errno.  O_NONBLOCK: a FIFO
 * must not hang the tracer (no effect on a regular file). */
static int open_file(const char *path, char *errbuf, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return fail(errbuf, errlen, errno, "%s", strerror(errno));
	int err = check_file(fd, errbuf, errlen);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

/* Check class, machine and type; fill is_dyn and entry. */
static int check_header(Elf *elf, struct elf_image *img, char *errbuf,
			size_t errlen)
{
	GElf_Ehdr eh;

	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh))
		return fail(errbuf, errlen, ENOEXEC, "not an ELF file");
	int cls = gelf_getclass(elf);
	if (eh.e_machine != plt_arch_machine || cls != plt_arch_class) {
		const char *name = machine_name(eh.e_machine);

		if (name)
			return fail(errbuf, errlen, ENOEXEC,
				    "ELF for another architecture (%s%s)", name,
				    cls == ELFCLASS32 ? ", 32-bit" : "");
		return fail(errbuf, errlen, ENOEXEC,
			    "ELF for another architecture (machine %u%s)",
			    eh.e_machine, cls == ELFCLASS32 ? ", 32-bit" : "");
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN)
		return fail(errbuf, errlen, ENOEXEC,
			    "ELF file is not an executable or shared object");
	img->is_dyn = eh.e_type == ET_DYN;
	img->entry = eh.e_entry;
	return 0;
}

/* Is SH a section of call stubs: executable, and named in
 * plt_arch_sections? */
static bool is_stub_section(const struct scan *sc, const GElf_Shdr *sh)
{
	const char *name = elf_strptr(sc->elf, sc->shstrndx, sh->sh_name);

	if (!(sh->sh_flags & SHF_EXECINSTR) || !name)
		return false;
	for (const char *const *p = plt_arch_sections; *p; p++)
		if (strcmp(*p, name) == 0)
			return true;
	return false;
}

static void push_scn(Elf_Scn ***arr, size_t *n, Elf_Scn *scn)
{
	*arr = xreallocarray(*arr, *n + 1, sizeof(**arr));
	(*arr)[(*n)++] = scn;
}

/* Classify one section header. */
static void note_section(struct scan *sc, Elf_Scn *scn, const GElf_Shdr *sh)
{
	switch (sh->sh_type) {
	case SHT_DYNSYM:
		sc->dynsym = scn;
		break;
	case SHT_SYMTAB:
		sc->symtab = scn;
		break;
	case SHT_DYNAMIC:
		sc->dynamic = scn;
		break;
	case SHT_RELA:
		push_scn(&sc->rela, &sc->nrela, scn);
		break;
	case SHT_PROGBITS:
		if (is_stub_section(sc, sh))
			push_scn(&sc->code, &sc->ncode, scn);
		break;
	}
}

static void find_sections(struct scan *sc)
{
	if (elf_getshdrstrndx(sc->elf, &sc->shstrndx) < 0)
		sc->shstrndx = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(sc->elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh))
			note_section(sc, scn, &sh);
}

static void read_soname(struct scan *sc, struct elf_image *img)
{
	GElf_Shdr sh;

	if (!sc->dynamic || !gelf_getshdr(sc->dynamic, &sh))
		return;
	Elf_Data *data = elf_getdata(sc->dynamic, NULL);
	if (!data)
		return;
	size_t n = data->d_size / gelf_fsize(sc->elf, ELF_T_DYN, 1, EV_CURRENT);
	GElf_Dyn dyn;
	for (size_t i = 0; i < n && gelf_getdyn(data, i, &dyn); i++) {
		if (dyn.d_tag == DT_NULL)
			break;
		if (dyn.d_tag != DT_SONAME)
			continue;
		const char *s = elf_strptr(sc->elf, sh.sh_link, dyn.d_un.d_val);
		if (s)
			img->soname = xstrdup(s);
		return;
	}
}

/* The name of dynamic symbol NDX, or NULL; whether it is a function in
 * *FUNC. */
static const char *dynsym_name(struct scan *sc, Elf_Data *syms, size_t strndx,
			       size_t ndx, bool *func)
{
	GElf_Sym sym;

	if (ndx == 0 || !gelf_getsym(syms, ndx, &sym))
		return NULL;
	*func = GELF_ST_TYPE(sym.st_info) == STT_FUNC ||
		GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	const char *s = elf_strptr(sc->elf, strndx, sym.st_name);
	return s && *s ? s : NULL;
}

static void add_slot(struct scan *sc, size_t *cap, const struct slot *s)
{
	if (sc->nslots == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		sc->slots = xreallocarray(sc->slots, *cap, sizeof(*sc->slots));
	}
	sc->slots[sc->nslots++] = *s;
}

/* Record the function slots of one relocation section. */
static void load_rela(struct scan *sc, Elf_Scn *scn, size_t *cap,
		      Elf_Data *syms, size_t strndx)
{
	Elf_Data *data = elf_getdata(scn, NULL);

	if (!data)
		return;
	size_t n =
		data->d_size / gelf_fsize(sc->elf, ELF_T_RELA, 1, EV_CURRENT);
	GElf_Rela r;
	for (size_t i = 0; i < n && gelf_getrela(data, i, &r); i++) {
		struct slot s = { .got = r.r_offset, .addend = r.r_addend };

		switch (plt_arch_reloc_kind(GELF_R_TYPE(r.r_info))) {
		case PLT_RELOC_SYMBOL:
			s.name = dynsym_name(sc, syms, strndx,
					     GELF_R_SYM(r.r_info), &s.func);
			if (s.name)
				add_slot(sc, cap, &s);
			break;
		case PLT_RELOC_IRELATIVE:
			add_slot(sc, cap, &s);
			break;
		case PLT_RELOC_OTHER:
			break;
		}
	}
}

static int cmp_slot(const void *a, const void *b)
{
	const struct slot *x = a;
	const struct slot *y = b;

	return x->got < y->got ? -1 : x->got > y->got;
}

/* Collect the slots of every relocation section tied to .dynsym
 * (.rela.plt, .rela.dyn, whatever their names), sorted by address. */
static void load_slots(struct scan *sc)
{
	Elf_Data *syms = elf_getdata(sc->dynsym, NULL);
	GElf_Shdr sh;

	if (!syms || !gelf_getshdr(sc->dynsym, &sh))
		return;
	size_t symndx = elf_ndxscn(sc->dynsym);
	size_t cap = 0;
	for (size_t i = 0; i < sc->nrela; i++) {
		GElf_Shdr rsh;

		if (gelf_getshdr(sc->rela[i], &rsh) && rsh.sh_link == symndx)
			load_rela(sc, sc->rela[i], &cap, syms, sh.sh_link);
	}
	qsort(sc->slots, sc->nslots, sizeof(*sc->slots), cmp_slot);
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

/* plt_stub_fn: keep a stub whose slot is a function's. */
static void on_stub(void *ctx, uint64_t stub, uint64_t got)
{
	struct scan *sc = ctx;
	struct slot key = { .got = got };
	struct slot *s = bsearch(&key, sc->slots, sc->nslots,
				 sizeof(*sc->slots), cmp_slot);

	if (!s)
		return; /* PLT0 or a slot we know nothing of */
	s->stubbed = true;
	if (sc->nout == sc->capout) {
		sc->capout = sc->capout ? sc->capout * 2 : 64;
		sc->out = xreallocarray(sc->out, sc->capout, sizeof(*sc->out));
	}
	struct plt_entry *e = &sc->out[sc->nout++];
	e->addr = stub;
	e->got = got;
	e->name = slot_name(sc, s);
}

static void scan_code(struct scan *sc)
{
	for (size_t i = 0; i < sc->ncode; i++) {
		GElf_Shdr sh;

		if (!gelf_getshdr(sc->code[i], &sh))
			continue;
		Elf_Data *data = elf_getdata(sc->code[i], NULL);
		if (data && data->d_buf)
			plt_arch_scan(data->d_buf, data->d_size, sh.sh_addr,
				      on_stub, sc);
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

		if (!s->name || !s->func || s->stubbed ||
		    strcmp(s->name, "__libc_start_main") == 0)
			continue;
		if (!img->slots) /* at most one per slot */
			img->slots = xreallocarray(NULL, sc->nslots,
						   sizeof(*img->slots));
		img->slots[img->nslots].got = s->got;
		img->slots[img->nslots++].name = slot_name(sc, s);
	}
}

static void scan_image(Elf *elf, struct elf_image *img)
{
	struct scan sc = { .elf = elf };

	find_sections(&sc);
	read_soname(&sc, img);
	if (sc.dynsym) { /* static binaries have no library calls */
		load_slots(&sc);
		scan_code(&sc);
		finish_entries(&sc, img);
		keep_stubless(&sc, img);
	}
	free(sc.out);
	free(sc.syms);
	free(sc.slots);
	free(sc.code);
	free(sc.rela);
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

/* Note one program header. */
static void note_segment(Elf *elf, const GElf_Phdr *ph, struct elf_image *img)
{
	switch (ph->p_type) {
	case PT_LOAD:
		if (ph->p_memsz > UINT64_MAX - ph->p_vaddr)
			return;
		if (!img->load_hi || ph->p_vaddr < img->load_lo)
			img->load_lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > img->load_hi)
			img->load_hi = ph->p_vaddr + ph->p_memsz;
		break;
	case PT_INTERP:
		read_interp(elf, ph, img);
		break;
	case PT_DYNAMIC:
		img->dynamic = ph->p_vaddr;
		break;
	}
}

static void read_segments(Elf *elf, struct elf_image *img)
{
	size_t n = 0;
	if (elf_getphdrnum(elf, &n) < 0)
		return;
	GElf_Phdr ph;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(elf, (int)i, &ph))
			note_segment(elf, &ph, img);
}

/* Read the ELF file open on FD into IMG; the caller closes FD. */
static int read_fd(int fd, struct elf_image *img, char *errbuf, size_t errlen)
{
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf)
		return fail(errbuf, errlen, ENOEXEC, "malformed ELF file: %s",
			    elf_errmsg(-1));
	int ret = check_header(elf, img, errbuf, errlen);
	if (ret == 0) {
		read_segments(elf, img);
		scan_image(elf, img);
	}
	elf_end(elf);
	return ret;
}

int elf_image_read(struct elf_image *img, const char *path, char *errbuf,
		   size_t errlen)
{
	memset(img, 0, sizeof(*img));
	int fd = open_file(path, errbuf, errlen);
	if (fd < 0)
		return fd;
	int ret = read_fd(fd, img, errbuf, errlen);
	close(fd);
	return ret;
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
