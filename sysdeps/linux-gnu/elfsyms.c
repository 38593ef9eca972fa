/* Reading what one ELF file exports: the symbols of its .dynsym with
 * global or weak binding that it defines.  They answer -l ("calls into
 * a library": does it define this function?) and name the dynamic
 * linker's rendezvous (_dl_debug_state, _r_debug).  And, for -x only,
 * the functions it defines (.symtab and .dynsym, local ones included),
 * with its IRELATIVE relocations, which say where the resolver of an
 * IFUNC stores the implementation it chose.
 *
 * The string table is copied once and the symbols point into it, so a
 * table of libc (some 3000 symbols) is two allocations.  Symbol names
 * are bounded by that copy, which is NUL-terminated here whatever the
 * file says. */
#include "elfscan.h"
#include "plt_arch.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Elf_Scn *find_dynsym(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
			return scn;
	return NULL;
}

/* Copy the string table STRNDX, NUL-terminated; its size in *LEN. */
static char *copy_strings(Elf *elf, size_t strndx, size_t *len)
{
	Elf_Data *d = elf_getdata(elf_getscn(elf, strndx), NULL);
	if (!d || !d->d_buf || d->d_size == 0 || d->d_size == SIZE_MAX)
		return NULL;
	char *s = xmalloc(d->d_size + 1);
	memcpy(s, d->d_buf, d->d_size);
	s[d->d_size] = '\0';
	*len = d->d_size;
	return s;
}

static bool exported(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);
	int type = GELF_ST_TYPE(sym->st_info);
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

/* Fill EX from the symbols of SCN, whose strings are EX->strs (LEN
 * bytes). */
static void collect(struct elf_exports *ex, Elf *elf, Elf_Scn *scn, size_t len)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t ent = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!data || !ent)
		return;
	size_t n = data->d_size / ent;
	ex->v = xreallocarray(NULL, n ? n : 1, sizeof(*ex->v));
	GElf_Sym sym;
	for (size_t i = 1; i < n && gelf_getsym(data, (int)i, &sym); i++) {
		if (!exported(&sym) || sym.st_name >= len)
			continue;
		struct elf_export *e = &ex->v[ex->n++];
		e->name = ex->strs + sym.st_name;
		e->addr = sym.st_value;
		e->func = GELF_ST_TYPE(sym.st_info) == STT_FUNC ||
			  GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	}
	qsort(ex->v, ex->n, sizeof(*ex->v), cmp_export);
}

static void read_elf(struct elf_exports *ex, Elf *elf)
{
	Elf_Scn *scn = find_dynsym(elf);
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh))
		return;
	size_t len = 0;
	ex->strs = copy_strings(elf, sh.sh_link, &len);
	if (ex->strs)
		collect(ex, elf, scn, len);
}

int elf_exports_read(struct elf_exports *ex, const char *path)
{
	memset(ex, 0, sizeof(*ex));
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int ret = -ENOEXEC;
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		read_elf(ex, elf);
		ret = 0;
	}
	elf_end(elf);
	close(fd);
	return ret;
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

/* One symbol table and its strings, as copied into the funcs' STRS. */
struct symtab {
	Elf_Scn *scn;
	Elf_Data *strs;
	size_t base; /* offset of its strings in the copy */
};

/* The executable PT_LOAD span of ELF into FS. */
static void read_text_span(struct elf_funcs *fs, Elf *elf)
{
	size_t n = 0;
	if (elf_getphdrnum(elf, &n) < 0)
		return;
	GElf_Phdr ph;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X) ||
		    ph.p_memsz > UINT64_MAX - ph.p_vaddr)
			continue;
		if (!fs->text_hi || ph.p_vaddr < fs->text_lo)
			fs->text_lo = ph.p_vaddr;
		if (ph.p_vaddr + ph.p_memsz > fs->text_hi)
			fs->text_hi = ph.p_vaddr + ph.p_memsz;
	}
}

/* Find .symtab and .dynsym (T[0], T[1]) and their string tables; copy
 * the strings once into FS->strs, NUL-terminated, with every version
 * suffix ("name@VERSION", "name@@VERSION") cut off. */
static void copy_tables(struct elf_funcs *fs, Elf *elf, struct symtab *t)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM))
			continue;
		struct symtab *st = &t[sh.sh_type == SHT_DYNSYM];
		Elf_Data *d = elf_getdata(elf_getscn(elf, sh.sh_link), NULL);
		if (!st->scn && d && d->d_buf && d->d_size) {
			st->scn = scn;
			st->strs = d;
		}
	}
	size_t len = 0;
	for (int i = 0; i < 2; i++)
		if (t[i].scn)
			len += t[i].strs->d_size + 1; /* within the file */
	fs->strs = xmalloc(len + 1);
	size_t at = 0;
	for (int i = 0; i < 2; i++) {
		if (!t[i].scn)
			continue;
		t[i].base = at;
		memcpy(fs->strs + at, t[i].strs->d_buf, t[i].strs->d_size);
		at += t[i].strs->d_size;
		fs->strs[at++] = '\0';
	}
	for (size_t i = 0; i < len; i++)
		if (fs->strs[i] == '@')
			fs->strs[i] = '\0';
}

/* Whether SYM is a function defined at an address of FS's text. */
static bool is_func(const struct elf_funcs *fs, const GElf_Sym *sym)
{
	int type = GELF_ST_TYPE(sym->st_info);
	return (type == STT_FUNC || type == STT_GNU_IFUNC) &&
	       sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE &&
	       sym->st_name != 0 && sym->st_value != 0 &&
	       sym->st_value >= fs->text_lo && sym->st_value < fs->text_hi;
}

static struct elf_func *push_func(struct elf_funcs *fs, size_t *cap)
{
	if (fs->n == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		fs->v = xreallocarray(fs->v, *cap, sizeof(*fs->v));
	}
	return &fs->v[fs->n++];
}

static void add_funcs(struct elf_funcs *fs, size_t *cap, Elf *elf,
		      const struct symtab *t)
{
	Elf_Data *data = elf_getdata(t->scn, NULL);
	size_t ent = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!data || !ent)
		return;
	size_t n = data->d_size / ent;
	GElf_Sym sym;
	for (size_t i = 1; i < n && gelf_getsym(data, (int)i, &sym); i++) {
		if (!is_func(fs, &sym) || sym.st_name >= t->strs->d_size)
			continue;
		struct elf_func *f = push_func(fs, cap);
		int bind = GELF_ST_BIND(sym.st_info);
		f->name = fs->strs + t->base + sym.st_name;
		f->addr = sym.st_value;
		f->bind = bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
		f->ifunc = GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	}
}

static size_t underscores(const char *s)
{
	return strspn(s, "_");
}

static int cmp_func(const void *a, const void *b)
{
	const struct elf_func *x = a;
	const struct elf_func *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->bind != y->bind)
		return x->bind - y->bind;
	size_t ux = underscores(x->name);
	size_t uy = underscores(y->name);
	if (ux != uy)
		return ux < uy ? -1 : 1;
	size_t lx = strlen(x->name);
	size_t ly = strlen(y->name);
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sort FS's functions and drop the copies that .symtab and .dynsym
 * both hold (same address and name). */
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

/* The IRELATIVE relocations of one relocation section. */
static void add_irels(struct elf_funcs *fs, size_t *cap, Elf *elf, Elf_Scn *scn)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t ent = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
	if (!data || !ent)
		return;
	size_t n = data->d_size / ent;
	GElf_Rela r;
	for (size_t i = 0; i < n && gelf_getrela(data, (int)i, &r); i++) {
		if (plt_arch_reloc_kind(GELF_R_TYPE(r.r_info)) !=
		    PLT_RELOC_IRELATIVE)
			continue;
		if (fs->nirel == *cap) {
			*cap = *cap ? 2 * *cap : 32;
			fs->irel = xreallocarray(fs->irel, *cap,
						 sizeof(*fs->irel));
		}
		fs->irel[fs->nirel].resolver = (uint64_t)r.r_addend;
		fs->irel[fs->nirel++].got = r.r_offset;
	}
}

static int cmp_irel(const void *a, const void *b)
{
	const struct elf_irel *x = a;
	const struct elf_irel *y = b;
	return x->resolver < y->resolver ? -1 : x->resolver > y->resolver;
}

/* Every SHT_RELA section, .rela.dyn, .rela.plt and a static program's
 * .rela.iplt alike. */
static void read_irels(struct elf_funcs *fs, Elf *elf)
{
	size_t cap = 0;
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_RELA)
			add_irels(fs, &cap, elf, scn);
	if (fs->nirel)
		qsort(fs->irel, fs->nirel, sizeof(*fs->irel), cmp_irel);
}

static void read_funcs(struct elf_funcs *fs, Elf *elf)
{
	struct symtab t[2];
	memset(t, 0, sizeof(t));
	read_text_span(fs, elf);
	copy_tables(fs, elf, t);
	size_t cap = 0;
	for (int i = 0; i < 2; i++)
		if (t[i].scn)
			add_funcs(fs, &cap, elf, &t[i]);
	sort_funcs(fs);
	read_irels(fs, elf);
}

int elf_funcs_read(struct elf_funcs *fs, const char *path)
{
	memset(fs, 0, sizeof(*fs));
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int ret = -ENOEXEC;
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		read_funcs(fs, elf);
		ret = 0;
	}
	elf_end(elf);
	close(fd);
	return ret;
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
