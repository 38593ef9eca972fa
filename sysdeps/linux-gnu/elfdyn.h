/* An ELF64 file seen as the dynamic linker sees it: its PT_LOAD segments
 * and its dynamic section, with no section header.  Internal to
 * sysdeps/linux-gnu (elf.c reads stubs and slots with it).  Everything
 * points into the caller's copy or mapping of the file, which must
 * outlive the struct; nothing is allocated but the segment list. */
#ifndef LTRACE_ELFDYN_H
#define LTRACE_ELFDYN_H

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
};

/* Start D on the file of SIZE bytes at RAW, with no segment. */
void elf_dyn_init(struct elf_dyn *d, const uint8_t *raw, size_t size);
/* Note one PT_LOAD program header. */
void elf_dyn_add_load(struct elf_dyn *d, const GElf_Phdr *ph);
/* Read the dynamic section at VADDR, FILESZ bytes, up to DT_NULL, once
 * every PT_LOAD is added.  False if the loader could not read it (not
 * in a segment's file part, or a big-endian file). */
bool elf_dyn_read(struct elf_dyn *d, uint64_t vaddr, uint64_t filesz);
/* The LEN bytes at link-time address VADDR as the loader maps them from
 * the file: NULL unless one PT_LOAD segment holds them all in its file
 * part, within the file. */
const uint8_t *elf_dyn_at(const struct elf_dyn *d, uint64_t vaddr,
			  uint64_t len);
/* The NUL-terminated string at OFF in DT_STRTAB, or NULL. */
const char *elf_dyn_string(const struct elf_dyn *d, uint64_t off);
/* The name of dynamic symbol NDX (not empty), or NULL; whether it is a
 * FUNC or an IFUNC in *FUNC. */
const char *elf_dyn_symbol(const struct elf_dyn *d, uint64_t ndx, bool *func);
void elf_dyn_destroy(struct elf_dyn *d);

#endif
