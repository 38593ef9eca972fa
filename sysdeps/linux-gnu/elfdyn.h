/* An ELF64 file seen as the dynamic linker sees it: its PT_LOAD segments
 * and its dynamic section, with no section header.  Internal to
 * sysdeps/linux-gnu (elf.c reads stubs and slots with it, elfsyms.c the
 * dynamic symbols and relocations).  Everything
 * points into the caller's copy or mapping of the file, which must
 * outlive the struct; nothing is allocated but the segment list. */
#ifndef LTRACE_ELFDYN_H
#define LTRACE_ELFDYN_H

#include "elffile.h"

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_dyn {
	const uint8_t *raw; /* the whole file, SIZE bytes */
	size_t size;
	GElf_Phdr *load; /* the PT_LOAD headers: owned, elf_dyn_destroy */
	size_t nload;
	/* the dynamic entries read (0 where absent; SYMENT, RELAENT and
	 * PLTREL default to the ELF64 RELA values) */
	uint64_t symtab, syment, strtab, strsz;
	uint64_t rela, relasz, relaent;
	uint64_t jmprel, pltrelsz, pltrel;
	uint64_t soname;
	bool has_soname;
	uint64_t hash, gnu_hash; /* DT_HASH, DT_GNU_HASH */
};

/* Start D on the file of SIZE bytes at RAW, with no segment. */
void elf_dyn_init(struct elf_dyn *d, const uint8_t *raw, size_t size);
/* Note one PT_LOAD program header. */
void elf_dyn_add_load(struct elf_dyn *d, const GElf_Phdr *ph);
/* Read the dynamic section at VADDR, FILESZ bytes, up to DT_NULL, once
 * every PT_LOAD is added.  False if the loader could not read it (not
 * in a segment's file part, or a big-endian file). */
bool elf_dyn_read(struct elf_dyn *d, uint64_t vaddr, uint64_t filesz);
/* Start D on the file F as the loader maps it: every PT_LOAD added,
 * then the first PT_DYNAMIC read.  Whether there is a dynamic section
 * the loader could read (a static program or a relocatable file has
 * none; the segments are added all the same). */
bool elf_dyn_load(struct elf_dyn *d, const struct elf_file *f);
/* The LEN bytes at link-time address VADDR as the loader maps them from
 * the file: NULL unless one PT_LOAD segment holds them all in its file
 * part, within the file. */
const uint8_t *elf_dyn_at(const struct elf_dyn *d, uint64_t vaddr,
			  uint64_t len);
/* The table of SIZE bytes at VADDR, in entries of ENTSIZE bytes (the
 * table's own DT_*ENT, which must be WANT): their number in *N and the
 * first one's bytes, or NULL (*N 0) if the loader could not read it
 * whole.  Entries may be unaligned: copy each out with memcpy. */
const uint8_t *elf_dyn_table(const struct elf_dyn *d, uint64_t vaddr,
			     uint64_t size, uint64_t entsize, size_t want,
			     uint64_t *n);
/* How many symbols DT_SYMTAB holds, as the loader's symbol lookup can
 * reach them: walked from DT_GNU_HASH (the highest index in a bucket,
 * then along its chain to the end), else DT_HASH's nchain; 0 if neither
 * can be read. */
uint64_t elf_dyn_nsyms(const struct elf_dyn *d);
/* Copy dynamic symbol NDX (index 0 included) into *SYM; false if it is
 * not in the file. */
bool elf_dyn_sym(const struct elf_dyn *d, uint64_t ndx, Elf64_Sym *sym);
/* The NUL-terminated string at OFF in DT_STRTAB, or NULL. */
const char *elf_dyn_string(const struct elf_dyn *d, uint64_t off);
/* The name of dynamic symbol NDX (not empty), or NULL; whether it is a
 * FUNC or an IFUNC in *FUNC. */
const char *elf_dyn_symbol(const struct elf_dyn *d, uint64_t ndx, bool *func);
/* The GOT slot (a link-time address) that the loader fills with the
 * offset from the thread pointer of the TLS variable NAME this object
 * defines, through a PLT_RELOC_TPOFF relocation in DT_RELA (against the
 * symbol, or against none with the variable's offset in its block as
 * addend); 0 if there is none (elftls.c). */
uint64_t elf_dyn_tls_slot(const struct elf_dyn *d, const char *name);
void elf_dyn_destroy(struct elf_dyn *d);

#endif
