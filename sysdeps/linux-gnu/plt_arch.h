/* Between the generic ELF reader (elf.c) and the per-architecture PLT
 * stub decoder (<arch>/plt.c).  Internal to sysdeps/linux-gnu; the core
 * sees only ltrace/elfscan.h. */
#ifndef LTRACE_PLT_ARCH_H
#define LTRACE_PLT_ARCH_H

#include <stddef.h>
#include <stdint.h>

/* The ELF e_machine and EI_CLASS this backend traces. */
extern const unsigned int plt_arch_machine;
extern const int plt_arch_class;

/* Names of the sections that hold call stubs, NULL-terminated. */
extern const char *const plt_arch_sections[];

/* What a dynamic relocation type means for a GOT slot. */
enum plt_reloc_kind {
	PLT_RELOC_OTHER,     /* not a function slot: ignored */
	PLT_RELOC_SYMBOL,    /* JUMP_SLOT, GLOB_DAT: named by its symbol */
	PLT_RELOC_IRELATIVE, /* resolver at r_addend, no symbol */
};

enum plt_reloc_kind plt_arch_reloc_kind(uint32_t type);

/* Called once per stub found: STUB is the address of its first byte,
 * GOT the address of the slot its indirect jump reads. */
typedef void plt_stub_fn(void *ctx, uint64_t stub, uint64_t got);

/* Decode the SIZE bytes of CODE, loaded at link-time address ADDR, and
 * call FN for every stub that jumps through a GOT slot.  Resolver
 * headers (PLT0) and lazy-binding tails are not stubs and are skipped.
 * Reads nothing outside CODE; never fails (bad bytes are skipped). */
void plt_arch_scan(const uint8_t *code, size_t size, uint64_t addr,
		   plt_stub_fn *fn, void *ctx);

#endif
