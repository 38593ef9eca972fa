/* An ELF64 file as the dynamic linker sees it (elfdyn.h): every address
 * is translated through the PT_LOAD headers and every offset and size
 * checked against the file, since the file may be anything. */
#include "elfdyn.h"
#include "xmalloc.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

void elf_dyn_init(struct elf_dyn *d, const uint8_t *raw, size_t size)
{
	memset(d, 0, sizeof(*d));
	d->raw = raw;
	d->size = size;
}

void elf_dyn_add_load(struct elf_dyn *d, const GElf_Phdr *ph)
{
	d->load = xreallocarray(d->load, d->nload + 1, sizeof(*d->load));
	d->load[d->nload++] = *ph;
}

const uint8_t *elf_dyn_at(const struct elf_dyn *d, uint64_t vaddr, uint64_t len)
{
	for (size_t i = 0; i < d->nload; i++) {
		const GElf_Phdr *ph = &d->load[i];

		if (vaddr < ph->p_vaddr || vaddr - ph->p_vaddr > ph->p_filesz ||
		    len > ph->p_filesz - (vaddr - ph->p_vaddr))
			continue;
		uint64_t delta = vaddr - ph->p_vaddr;
		if (ph->p_offset > d->size || delta > d->size - ph->p_offset ||
		    len > d->size - ph->p_offset - delta)
			continue;
		return d->raw + ph->p_offset + delta;
	}
	return NULL;
}

/* The dynamic tags read, and where they go. */
static const struct {
	int64_t tag;
	size_t off;
} dyn_tags[] = {
	{ DT_SYMTAB, offsetof(struct elf_dyn, symtab) },
	{ DT_SYMENT, offsetof(struct elf_dyn, syment) },
	{ DT_STRTAB, offsetof(struct elf_dyn, strtab) },
	{ DT_STRSZ, offsetof(struct elf_dyn, strsz) },
	{ DT_RELA, offsetof(struct elf_dyn, rela) },
	{ DT_RELASZ, offsetof(struct elf_dyn, relasz) },
	{ DT_RELAENT, offsetof(struct elf_dyn, relaent) },
	{ DT_JMPREL, offsetof(struct elf_dyn, jmprel) },
	{ DT_PLTRELSZ, offsetof(struct elf_dyn, pltrelsz) },
	{ DT_PLTREL, offsetof(struct elf_dyn, pltrel) },
	{ DT_SONAME, offsetof(struct elf_dyn, soname) },
};

static void note_dyn(struct elf_dyn *d, const Elf64_Dyn *e)
{
	for (size_t i = 0; i < sizeof(dyn_tags) / sizeof(dyn_tags[0]); i++) {
		if (e->d_tag != dyn_tags[i].tag)
			continue;
		memcpy((char *)d + dyn_tags[i].off, &e->d_un.d_val,
		       sizeof(uint64_t));
		d->has_soname |= e->d_tag == DT_SONAME;
	}
}

bool elf_dyn_read(struct elf_dyn *d, uint64_t vaddr, uint64_t filesz)
{
	const uint8_t *p = elf_dyn_at(d, vaddr, filesz);
	if (!p || d->size <= EI_DATA || d->raw[EI_DATA] != ELFDATA2LSB)
		return false;
	d->syment = sizeof(Elf64_Sym);
	d->relaent = sizeof(Elf64_Rela);
	d->pltrel = DT_RELA;
	for (uint64_t i = 0; i < filesz / sizeof(Elf64_Dyn); i++) {
		Elf64_Dyn e;

		memcpy(&e, p + i * sizeof(e), sizeof(e));
		if (e.d_tag == DT_NULL)
			break;
		note_dyn(d, &e);
	}
	return true;
}

const char *elf_dyn_string(const struct elf_dyn *d, uint64_t off)
{
	if (off >= d->strsz)
		return NULL;
	const uint8_t *s = elf_dyn_at(d, d->strtab + off, d->strsz - off);
	if (!s || !memchr(s, '\0', d->strsz - off))
		return NULL;
	return (const char *)s;
}

const char *elf_dyn_symbol(const struct elf_dyn *d, uint64_t ndx, bool *func)
{
	Elf64_Sym sym;

	if (ndx == 0 || d->syment != sizeof(sym) ||
	    ndx > (UINT64_MAX - d->symtab) / sizeof(sym))
		return NULL;
	const uint8_t *p =
		elf_dyn_at(d, d->symtab + ndx * sizeof(sym), sizeof(sym));
	if (!p)
		return NULL;
	memcpy(&sym, p, sizeof(sym));
	*func = ELF64_ST_TYPE(sym.st_info) == STT_FUNC ||
		ELF64_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	const char *s = elf_dyn_string(d, sym.st_name);
	return s && *s ? s : NULL;
}

void elf_dyn_destroy(struct elf_dyn *d)
{
	free(d->load);
	memset(d, 0, sizeof(*d));
}
