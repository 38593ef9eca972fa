/* Reading what one ELF file exports: the symbols of its dynamic symbol
 * table with global or weak binding that it defines.  They answer -l
 * ("calls into a library": does it define this function?) and name the
 * dynamic linker's rendezvous (_dl_debug_state, _r_debug).  And, for -x
 * only, the functions it defines (the dynamic symbols and .symtab, local
 * ones included), with its IRELATIVE relocations, which say where the
 * resolver of an IFUNC stores the implementation it chose.
 *
 * The dynamic symbols are read as the loader reads them: DT_SYMTAB,
 * DT_STRTAB and DT_STRSZ, their number from DT_GNU_HASH or DT_HASH,
 * every address translated through PT_LOAD (elfdyn.c); the IRELATIVE
 * relocations from DT_RELA and DT_JMPREL.  Section headers, which the
 * loader ignores and which may lie or be gone (sstrip), are read only
 * for a file without a dynamic section (a static program), and for
 * .symtab, an addition whose functions count only inside an executable
 * PT_LOAD segment.
 *
 * The string tables are copied once and the symbols point into the
 * copy, so a table of libc (some 3000 symbols) is two allocations.
 * Symbol names are bounded by that copy, which is NUL-terminated here
 * whatever the file says. */
#include "elfdyn.h"
#include "elffile.h"
#include "elfscan.h"
#include "plt_arch.h"
#include "xmalloc.h"

#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>

/* One symbol table: N entries of Elf64_Sym at SYMS (maybe unaligned:
 * copied out one by one) and the STRSZ bytes of their strings. */
struct symtab {
	const uint8_t *syms;
	uint64_t n;
	const char *strs;
	uint64_t strsz;
	size_t base; /* offset of its strings in the reader's copy */
};

/* The dynamic symbol table as the loader sees it. */
static bool dyn_table(const struct elf_dyn *d, struct symtab *t)
{
	uint64_t n = elf_dyn_nsyms(d);
	if (!n || d->syment != sizeof(Elf64_Sym) ||
	    n > UINT64_MAX / sizeof(Elf64_Sym) || !d->strsz)
		return false;
	t->syms = elf_dyn_at(d, d->symtab, n * sizeof(Elf64_Sym));
	t->strs = (const char *)elf_dyn_at(d, d->strtab, d->strsz);
	t->n = n;
	t->strsz = d->strsz;
	return t->syms && t->strs;
}

/* The first section of TYPE (SHT_DYNSYM, SHT_SYMTAB) and its strings,
 * in libelf's memory layout (this architecture's: elf_file_open checked
 * the class and machine). */
static bool section_table(Elf *elf, GElf_Word type, struct symtab *t)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			break;
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	Elf_Data *s = d ? elf_getdata(elf_getscn(elf, sh.sh_link), NULL) : NULL;
	if (!s || !d->d_buf || !s->d_buf || !s->d_size ||
	    d->d_type != ELF_T_SYM)
		return false;
	t->syms = d->d_buf;
	t->n = d->d_size / sizeof(Elf64_Sym);
	t->strs = s->d_buf;
	t->strsz = s->d_size;
	return true;
}

/* The dynamic symbols: from the dynamic section D if the file has one
 * (DYN), else from the section headers. */
static bool dynsym_table(Elf *elf, const struct elf_dyn *d, bool dyn,
			 struct symtab *t)
{
	memset(t, 0, sizeof(*t));
	return dyn ? dyn_table(d, t) : section_table(elf, SHT_DYNSYM, t);
}

static void get_sym(const struct symtab *t, uint64_t i, Elf64_Sym *sym)
{
	memcpy(sym, t->syms + i * sizeof(*sym), sizeof(*sym));
}

/* Copy the strings of the N tables T into one buffer, each
 * NUL-terminated; each table's offset in it in its BASE, the bytes
 * copied in *LEN. */
static char *copy_strings(struct symtab *t, int n, size_t *len_out)
{
	size_t len = 1;
	for (int i = 0; i < n; i++)
		if (t[i].syms)
			len += t[i].strsz + 1; /* within the file */
	char *s = xmalloc(len);
	size_t at = 0;
	for (int i = 0; i < n; i++) {
		if (!t[i].syms)
			continue;
		t[i].base = at;
		memcpy(s + at, t[i].strs, t[i].strsz);
		at += t[i].strsz;
		s[at++] = '\0';
	}
	s[at] = '\0';
	*len_out = at;
	return s;
}

static bool exported(const Elf64_Sym *sym)
{
	int bind = ELF64_ST_BIND(sym->st_info);
	int type = ELF64_ST_TYPE(sym->st_info);
	return sym->st_shndx != SHN_UNDEF && sym->st_name != 0 &&
	       (bind == STB_GLOBAL || bind == STB_WEAK) && type != STT_FILE &&
	       type != STT_SECTION;
}

static int cmp_export(const void *a, const void *b)
{
	const struct elf_export *x = a;
	const struct elf_export *y = b;
	return strcmp(x->name, y->name);
}

/* Fill EX from the symbols of T, whose strings are EX->strs. */
static void collect(struct elf_exports *ex, const struct symtab *t)
{
	ex->v = xreallocarray(NULL, t->n, sizeof(*ex->v));
	Elf64_Sym sym;
	for (uint64_t i = 1; i < t->n; i++) {
		get_sym(t, i, &sym);
		if (!exported(&sym) || sym.st_name >= t->strsz)
			continue;
		struct elf_export *e = &ex->v[ex->n++];
		e->name = ex->strs + sym.st_name;
		e->addr = sym.st_value;
		e->func = ELF64_ST_TYPE(sym.st_info) == STT_FUNC ||
			  ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	}
	if (ex->n) /* qsort's base must not be NULL, even for 0 */
		qsort(ex->v, ex->n, sizeof(*ex->v), cmp_export);
}

int elf_exports_read(struct elf_exports *ex, const char *path)
{
	memset(ex, 0, sizeof(*ex));
	struct elf_file f;
	int ret = elf_file_open(&f, path, NULL, 0);
	if (ret)
		return ret;
	struct elf_dyn d;
	struct symtab t;
	bool dyn = elf_dyn_load(&d, &f);
	if (dynsym_table(f.elf, &d, dyn, &t) && t.n > 1) {
		size_t len;
		ex->strs = copy_strings(&t, 1, &len);
		collect(ex, &t);
	}
	elf_dyn_destroy(&d);
	elf_file_close(&f);
	return 0;
}

const struct elf_export *elf_exports_find(const struct elf_exports *ex,
					  const char *name)
{
	struct elf_export key = { .name = name };
	if (!ex->n)
		return NULL;
	return bsearch(&key, ex->v, ex->n, sizeof(*ex->v), cmp_export);
}

void elf_exports_destroy(struct elf_exports *ex)
{
	free(ex->v);
	free(ex->strs);
	memset(ex, 0, sizeof(*ex));
}

/* ---- the functions a file defines (-x) ---- */

/* The executable PT_LOAD span of D's segments into FS. */
static void read_text_span(struct elf_funcs *fs, const struct elf_dyn *d)
{
	for (size_t i = 0; i < d->nload; i++) {
		const GElf_Phdr *ph = &d->load[i];
		if (!(ph->p_flags & PF_X) ||
		    ph->p_memsz > UINT64_MAX - ph->p_vaddr)
			continue;
		if (!fs->text_hi || ph->p_vaddr < fs->text_lo)
			fs->text_lo = ph->p_vaddr;
		if (ph->p_vaddr + ph->p_memsz > fs->text_hi)
			fs->text_hi = ph->p_vaddr + ph->p_memsz;
	}
}

/* Whether ADDR lies in an executable PT_LOAD segment of D. */
static bool in_text(const struct elf_dyn *d, uint64_t addr)
{
	for (size_t i = 0; i < d->nload; i++) {
		const GElf_Phdr *ph = &d->load[i];
		if ((ph->p_flags & PF_X) && addr >= ph->p_vaddr &&
		    addr - ph->p_vaddr < ph->p_memsz)
			return true;
	}
	return false;
}

/* Whether SYM is a function defined at an address of D's code. */
static bool is_func(const struct elf_dyn *d, const Elf64_Sym *sym)
{
	int type = ELF64_ST_TYPE(sym->st_info);
	return (type == STT_FUNC || type == STT_GNU_IFUNC) &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
	       sym->st_name != 0 && sym->st_value != 0 &&
	       in_text(d, sym->st_value);
}

static struct elf_func *push_func(struct elf_funcs *fs, size_t *cap)
{
	if (fs->n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		fs->v = xreallocarray(fs->v, *cap, sizeof(*fs->v));
	}
	return &fs->v[fs->n++];
}

static void add_funcs(struct elf_funcs *fs, size_t *cap,
		      const struct elf_dyn *d, const struct symtab *t)
{
	Elf64_Sym sym;
	for (uint64_t i = 1; i < t->n; i++) {
		get_sym(t, i, &sym);
		if (!is_func(d, &sym) || sym.st_name >= t->strsz)
			continue;
		struct elf_func *f = push_func(fs, cap);
		int bind = ELF64_ST_BIND(sym.st_info);
		f->name = fs->strs + t->base + sym.st_name;
		f->addr = sym.st_value;
		f->bind = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
		f->ifunc = ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
		f->size = sym.st_size;
	}
}

static size_t underscores(const char *s)
{
	return strspn(s, "_");
}

/* By address; at one address the public name first (elfscan.h). */
static int cmp_func(const void *a, const void *b)
{
	const struct elf_func *x = a;
	const struct elf_func *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	size_t ux = underscores(x->name);
	size_t uy = underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	if (x->bind != y->bind)
		return x->bind - y->bind;
	size_t lx = strlen(x->name);
	size_t ly = strlen(y->name);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sort FS's functions and drop the copies that .symtab and the dynamic
 * symbols both hold (same address and name). */
static void sort_funcs(struct elf_funcs *fs)
{
	if (!fs->n)
		return; /* qsort's base must not be NULL, even for 0 */
	qsort(fs->v, fs->n, sizeof(*fs->v), cmp_func);
	size_t n = 0;
	for (size_t i = 0; i < fs->n; i++)
		if (!n || fs->v[n - 1].addr != fs->v[i].addr ||
		    strcmp(fs->v[n - 1].name, fs->v[i].name))
			fs->v[n++] = fs->v[i];
	fs->n = n;
}

/* Note R if it is an IRELATIVE relocation. */
static void add_irel(struct elf_funcs *fs, size_t *cap, const Elf64_Rela *r)
{
	if (plt_arch_reloc_kind(ELF64_R_TYPE(r->r_info)) != PLT_RELOC_IRELATIVE)
		return;
	if (fs->nirel == *cap) {
		*cap = *cap ? 2 * *cap : 32;
		fs->irel = xreallocarray(fs->irel, *cap, sizeof(*fs->irel));
	}
	fs->irel[fs->nirel].resolver = (uint64_t)r->r_addend;
	fs->irel[fs->nirel++].got = r->r_offset;
}

/* The N relocations at P (maybe unaligned). */
static void add_relas(struct elf_funcs *fs, size_t *cap, const uint8_t *p,
		      uint64_t n)
{
	Elf64_Rela r;
	for (uint64_t i = 0; p && i < n; i++) {
		memcpy(&r, p + i * sizeof(r), sizeof(r));
		add_irel(fs, cap, &r);
	}
}

/* DT_RELA and DT_JMPREL, as the loader reads them. */
static void dyn_irels(struct elf_funcs *fs, size_t *cap,
		      const struct elf_dyn *d)
{
	uint64_t n;
	const uint8_t *p = elf_dyn_table(d, d->rela, d->relasz, d->relaent,
					 sizeof(Elf64_Rela), &n);
	add_relas(fs, cap, p, n);
	if (d->pltrel != DT_RELA)
		return;
	p = elf_dyn_table(d, d->jmprel, d->pltrelsz, d->relaent,
			  sizeof(Elf64_Rela), &n);
	add_relas(fs, cap, p, n);
}

/* Every SHT_RELA section: a static program's .rela.iplt. */
static void section_irels(struct elf_funcs *fs, size_t *cap, Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		Elf_Data *data = gelf_getshdr(scn, &sh) &&
						 sh.sh_type == SHT_RELA ?
					 elf_getdata(scn, NULL) :
					 NULL;
		if (data && data->d_buf && data->d_type == ELF_T_RELA)
			add_relas(fs, cap, data->d_buf,
				  data->d_size / sizeof(Elf64_Rela));
	}
}

static int cmp_irel(const void *a, const void *b)
{
	const struct elf_irel *x = a;
	const struct elf_irel *y = b;
	return x->resolver < y->resolver ? -1 : x->resolver > y->resolver;
}

static void read_irels(struct elf_funcs *fs, Elf *elf, const struct elf_dyn *d,
		       bool dyn)
{
	size_t cap = 0;
	if (dyn)
		dyn_irels(fs, &cap, d);
	else
		section_irels(fs, &cap, elf);
	if (fs->nirel)
		qsort(fs->irel, fs->nirel, sizeof(*fs->irel), cmp_irel);
}

/* .symtab (T[0]) and the dynamic symbols (T[1]); their strings copied
 * into FS->strs with every version suffix ("name@VERSION",
 * "name@@VERSION") cut off. */
static void read_tables(struct elf_funcs *fs, Elf *elf, const struct elf_dyn *d,
			bool dyn, struct symtab *t)
{
	memset(t, 0, 2 * sizeof(*t));
	if (!section_table(elf, SHT_SYMTAB, &t[0]))
		memset(&t[0], 0, sizeof(t[0]));
	if (!dynsym_table(elf, d, dyn, &t[1]))
		memset(&t[1], 0, sizeof(t[1]));
	size_t len;
	fs->strs = copy_strings(t, 2, &len);
	for (size_t i = 0; i < len; i++)
		if (fs->strs[i] == '@')
			fs->strs[i] = '\0';
}

static void read_funcs(struct elf_funcs *fs, const struct elf_file *f)
{
	struct elf_dyn d;
	struct symtab t[2];
	bool dyn = elf_dyn_load(&d, f);
	read_text_span(fs, &d);
	read_tables(fs, f->elf, &d, dyn, t);
	size_t cap = 0;
	for (int i = 0; i < 2; i++)
		if (t[i].syms)
			add_funcs(fs, &cap, &d, &t[i]);
	sort_funcs(fs);
	read_irels(fs, f->elf, &d, dyn);
	elf_dyn_destroy(&d);
}

int elf_funcs_read(struct elf_funcs *fs, const char *path)
{
	memset(fs, 0, sizeof(*fs));
	struct elf_file f;
	int ret = elf_file_open(&f, path, NULL, 0);
	if (ret)
		return ret;
	read_funcs(fs, &f);
	elf_file_close(&f);
	return 0;
}

uint64_t elf_funcs_irel_slot(const struct elf_funcs *fs, uint64_t resolver)
{
	struct elf_irel key = { resolver, 0 };
	const struct elf_irel *r =
		fs->nirel ? bsearch(&key, fs->irel, fs->nirel,
				    sizeof(*fs->irel), cmp_irel) :
			    NULL;
	return r ? r->got : 0;
}

void elf_funcs_destroy(struct elf_funcs *fs)
{
	free(fs->v);
	free(fs->irel);
	free(fs->strs);
	memset(fs, 0, sizeof(*fs));
}
