/* Prototypes from DWARF (libdw): see ltrace/dwarfproto.h for the
 * contract.  This file keeps one entry per ELF file: its debug info
 * (debugfile.c), an index from function names and entry addresses to
 * DIEs, and the prototypes built from them (dwarftypes.c), misses
 * included. */
#include <dwarf.h>
#include <gelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "debugfile.h"
#include "dwarfproto.h"
#include "dwarftypes.h"
#include "hmap.h"
#include "type.h"
#include "xmalloc.h"

#define SCORE_DEFINITION 4

/* One ELF file and, once looked at, its DWARF. */
struct dfile {
	char *path;
	bool opened;	     /* debugfile_open ran (success or not) */
	struct debugfile df; /* df.dw is NULL without debug info */
	/* name -> best subprogram DIE (val); ptr holds its score_die() + 1 */
	struct hmap names;
	struct hmap addrs;  /* entry address -> defining DIE */
	struct hmap protos; /* owned name -> prototype or NULL (miss) */
	struct hmap at;	    /* address -> prototype or NULL (miss) */
	struct dwarftypes *types;
	struct dfile *next;
};

struct dwarf_protos {
	struct dfile *files;
};

/* --- the name index --- */

/* How much a subprogram DIE tells: a definition beats a declaration, a
 * prototyped one beats an old-style one, parameters beat none. */
static unsigned score_die(Dwarf_Die *die)
{
	bool decl = dwarf_hasattr(die, DW_AT_declaration);

	return (decl ? 0 : SCORE_DEFINITION) +
	       (dwarf_hasattr_integrate(die, DW_AT_prototyped) ? 2 : 0) +
	       (dwarf_haschildren(die) > 0 ? 1 : 0);
}

static bool is_external(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	bool flag = false;

	if (!dwarf_attr_integrate(die, DW_AT_external, &a))
		return false;
	return dwarf_formflag(&a, &flag) == 0 && flag;
}

/* Entry addresses of a definition, for symbol aliases.  Functions split
 * into hot and cold parts have DW_AT_ranges instead of DW_AT_low_pc: the
 * start of every range is recorded (only the entry matches a symbol). */
static void index_addrs(struct dfile *f, Dwarf_Die *die, Dwarf_Off off)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t it = 0;
	int n = 0;

	if (dwarf_lowpc(die, &start) == 0) {
		hmap_get(&f->addrs, NULL, start)->val = off;
		return;
	}
	while (n++ < 8 && (it = dwarf_ranges(die, it, &base, &start, &end)) > 0)
		hmap_get(&f->addrs, NULL, start)->val = off;
}

static void index_die(struct dfile *f, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	Dwarf_Off off = dwarf_dieoffset(die);

	if (!name)
		return;
	if (!dwarf_hasattr(die, DW_AT_declaration))
		index_addrs(f, die, off);
	if (!is_external(die))
		return;
	unsigned score = score_die(die);
	struct hent *e = hmap_get(&f->names, name, 0);
	if (!e->ptr || score > (unsigned)(uintptr_t)e->ptr) {
		e->val = off;
		e->ptr = (void *)(uintptr_t)(score + 1);
	}
}

/* One pass over the top-level DIEs of every unit; nested DIEs are
 * skipped (DW_AT_sibling makes that cheap).  .debug_pubnames would not
 * help: GCC emits it only with -gpubnames, glibc's debug file has none,
 * and this pass takes ~55 ms on glibc's. */
static void index_dwarf(struct dfile *f)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, die;
	uint8_t unit_type;

	while (dwarf_get_units(f->df.dw, cu, &cu, NULL, &unit_type, &cudie,
			       NULL) == 0) {
		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			continue;
		/* gas describes assembly functions as taking nothing and
		 * returning DW_TAG_unspecified_type: no information. */
		if (dwarf_srclang(&cudie) == DW_LANG_Mips_Assembler)
			continue;
		if (dwarf_child(&cudie, &die) != 0)
			continue;
		do {
			if (dwarf_tag(&die) == DW_TAG_subprogram)
				index_die(f, &die);
		} while (dwarf_siblingof(&die, &die) == 0);
	}
}

/* --- lookup --- */

/* NAME among the defined global functions of symbol table SCN (not
 * IFUNC: the DIE at its address would be the resolver's); its address,
 * or 0. */
static GElf_Addr symtab_find(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
			     const char *name)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t n = data ? sh->sh_size / sh->sh_entsize : 0;

	for (size_t i = 0; i < n; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(data, (int)i, &sym) ||
		    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
		    sym.st_shndx == SHN_UNDEF)
			continue;
		const char *s = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (s && !strcmp(s, name))
			return sym.st_value;
	}
	return 0;
}

/* The address of NAME's symbol in F's own ELF file, or 0. */
static GElf_Addr sym_addr(struct dfile *f, const char *name)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(f->df.file.elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_entsize == 0 ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
			continue;
		GElf_Addr addr = symtab_find(f->df.file.elf, scn, &sh, name);
		if (addr)
			return addr;
	}
	return 0;
}

/* The DIE describing NAME: its own definition, else the definition at
 * the address of NAME's symbol (an alias: fopen is _IO_new_fopen), else
 * its best declaration. */
static bool find_die(struct dfile *f, const char *name, Dwarf_Off *off)
{
	struct hent *e = hmap_find(&f->names, name, 0);

	if (e && (uintptr_t)e->ptr - 1 >= SCORE_DEFINITION) {
		*off = e->val;
		return true;
	}
	GElf_Addr addr = sym_addr(f, name);
	struct hent *a = addr ? hmap_find(&f->addrs, NULL, addr) : NULL;
	if (a || e)
		*off = a ? a->val : e->val;
	return a || e;
}

static struct prototype *lookup_uncached(struct dfile *f, const char *name)
{
	Dwarf_Off off;
	Dwarf_Die die;

	if (!find_die(f, name, &off) || !dwarf_offdie(f->df.dw, off, &die))
		return NULL;
	return dwarftypes_proto(f->types, &die, name);
}

/* --- files --- */

static struct dfile *file_get(struct dwarf_protos *d, const char *path)
{
	for (struct dfile *f = d->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	struct dfile *f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->types = dwarftypes_new(f->path);
	f->next = d->files;
	d->files = f;
	return f;
}

/* Open and index F's debug info, the first time only. */
static void file_open(struct dfile *f)
{
	if (f->opened)
		return;
	f->opened = true;
	if (debugfile_open(&f->df, f->path) == 0)
		index_dwarf(f);
}

static void file_free(struct dfile *f)
{
	for (struct hent *e = NULL; (e = hmap_next(&f->protos, e));) {
		prototype_free(e->ptr);
		free((char *)e->skey);
	}
	hmap_destroy(&f->protos);
	for (struct hent *e = NULL; (e = hmap_next(&f->at, e));)
		prototype_free(e->ptr);
	hmap_destroy(&f->at);
	hmap_destroy(&f->names);
	hmap_destroy(&f->addrs);
	dwarftypes_free(f->types);
	if (f->opened)
		debugfile_close(&f->df);
	free(f->path);
	free(f);
}

struct dwarf_protos *dwarf_protos_new(void)
{
	elf_version(EV_CURRENT);
	return xcalloc(1, sizeof(struct dwarf_protos));
}

void dwarf_protos_free(struct dwarf_protos *d)
{
	struct dfile *next;

	if (!d)
		return;
	for (struct dfile *f = d->files; f; f = next) {
		next = f->next;
		file_free(f);
	}
	free(d);
}

const struct prototype *dwarf_lookup(struct dwarf_protos *d, const char *path,
				     const char *name)
{
	struct dfile *f = file_get(d, path);

	file_open(f);
	if (!f->df.dw)
		return NULL;
	struct hent *e = hmap_find(&f->protos, name, 0);
	if (e)
		return e->ptr;
	struct prototype *p = lookup_uncached(f, name);
	hmap_get(&f->protos, xstrdup(name), 0)->ptr = p;
	return p;
}

const struct prototype *dwarf_lookup_at(struct dwarf_protos *d,
					const char *path, uint64_t addr,
					const char *name)
{
	struct dfile *f = file_get(d, path);

	file_open(f);
	if (!f->df.dw)
		return NULL;
	struct hent *e = hmap_find(&f->at, NULL, addr);
	if (e)
		return e->ptr;
	struct hent *a = hmap_find(&f->addrs, NULL, addr);
	Dwarf_Die die;
	struct prototype *p = NULL;
	if (a && dwarf_offdie(f->df.dw, a->val, &die))
		p = dwarftypes_proto(f->types, &die, name);
	hmap_get(&f->at, NULL, addr)->ptr = p;
	return p;
}
