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
	{ DT_HASH, offsetof(struct elf_dyn, hash) },
	{ DT_GNU_HASH, offsetof(struct elf_dyn, gnu_hash) },
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

bool elf_dyn_load(struct elf_dyn *d, const struct elf_file *f)
{
	elf_dyn_init(d, f->raw, f->raw ? f->size : 0);
	size_t n = 0;
	if (elf_getphdrnum(f->elf, &n) < 0)
		return false;
	GElf_Phdr ph;
	GElf_Phdr dyn = { .p_type = PT_NULL };
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(f->elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD)
			elf_dyn_add_load(d, &ph);
		else if (ph.p_type == PT_DYNAMIC && dyn.p_type == PT_NULL)
			dyn = ph;
	}
	return dyn.p_type == PT_DYNAMIC &&
	       elf_dyn_read(d, dyn.p_vaddr, dyn.p_filesz);
}

const uint8_t *elf_dyn_table(const struct elf_dyn *d, uint64_t vaddr,
			     uint64_t size, uint64_t entsize, size_t want,
			     uint64_t *n)
{
	*n = 0;
	if (entsize != want || size < want)
		return NULL;
	const uint8_t *p = elf_dyn_at(d, vaddr, size);
	if (p)
		*n = size / want;
	return p;
}

static bool read_u32(const struct elf_dyn *d, uint64_t vaddr, uint32_t *v)
{
	const uint8_t *p = elf_dyn_at(d, vaddr, sizeof(*v));
	if (p)
		memcpy(v, p, sizeof(*v));
	return p != NULL;
}

/* The GNU hash table (glibc's dl-lookup.c): nbuckets, symoffset,
 * bloom_size, bloom_shift (32 bits each), bloom_size 64-bit words,
 * nbuckets bucket words (each the lowest index of its chain, or 0),
 * then one chain word per symbol from symoffset, whose low bit ends a
 * chain.  So the last symbol ends the chain of the highest bucket.
 * Every word is read through the segments: the walk ends at the file's
 * end at the latest. */
static uint64_t gnu_hash_nsyms(const struct elf_dyn *d)
{
	uint32_t hdr[3];
	const uint8_t *p = elf_dyn_at(d, d->gnu_hash, sizeof(hdr));
	if (!p)
		return 0;
	memcpy(hdr, p, sizeof(hdr));
	uint64_t buckets, at;
	if (__builtin_add_overflow(d->gnu_hash, 16 + (uint64_t)hdr[2] * 8,
				   &buckets))
		return 0;
	const uint8_t *b = elf_dyn_at(d, buckets, 4 * (uint64_t)hdr[0]);
	if (!b)
		return 0;
	uint32_t top = 0;
	for (uint32_t i = 0; i < hdr[0]; i++) {
		uint32_t v;
		memcpy(&v, b + 4 * (size_t)i, sizeof(v));
		top = v > top ? v : top;
	}
	if (top < hdr[1])
		return hdr[1]; /* no chain: only the unhashed symbols */
	if (__builtin_add_overflow(
		    buckets, 4 * ((uint64_t)hdr[0] + (top - hdr[1])), &at))
		return 0;
	for (uint64_t ndx = top;; ndx++) {
		uint32_t v;
		if (!read_u32(d, at, &v) || __builtin_add_overflow(at, 4, &at))
			return 0;
		if (v & 1)
			return ndx + 1;
	}
}

uint64_t elf_dyn_nsyms(const struct elf_dyn *d)
{
	if (d->gnu_hash)
		return gnu_hash_nsyms(d);
	uint32_t nchain = 0;
	if (d->hash && d->hash <= UINT64_MAX - 4)
		read_u32(d, d->hash + 4, &nchain);
	return nchain;
}

bool elf_dyn_sym(const struct elf_dyn *d, uint64_t ndx, Elf64_Sym *sym)
{
	if (d->syment != sizeof(*sym) ||
	    ndx > (UINT64_MAX - d->symtab) / sizeof(*sym))
		return false;
	const uint8_t *p =
		elf_dyn_at(d, d->symtab + ndx * sizeof(*sym), sizeof(*sym));
	if (p)
		memcpy(sym, p, sizeof(*sym));
	return p != NULL;
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

	if (ndx == 0 || !elf_dyn_sym(d, ndx, &sym))
		return NULL;
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
