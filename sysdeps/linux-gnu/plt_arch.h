/* Between the generic ELF reader (elf.c) and the per-architecture code
 * decoders: the PLT stub decoder (<arch>/plt.c) and the call site
 * scanner for code built without a PLT (<arch>/sites.c).  Internal to
 * sysdeps/linux-gnu; the core sees only ltrace/elfscan.h. */
#ifndef LTRACE_PLT_ARCH_H
#define LTRACE_PLT_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The ELF e_machine and EI_CLASS this backend traces. */
extern const unsigned int plt_arch_machine;
extern const int plt_arch_class;

/* Names of the sections that hold call stubs, NULL-terminated: for
 * tools and tests only, since the tracer trusts no section header. */
extern const char *const plt_arch_sections[];

/* What a dynamic relocation type means for a GOT slot. */
enum plt_reloc_kind {
	PLT_RELOC_OTHER,     /* not a function slot: ignored */
	PLT_RELOC_SYMBOL,    /* JUMP_SLOT: named by its symbol, read by stubs */
	PLT_RELOC_DATA,	     /* GLOB_DAT: named by its symbol; stubs and
				code built without a PLT both read it */
	PLT_RELOC_IRELATIVE, /* resolver at r_addend, no symbol */
	/* not a function slot: the loader writes the offset of a TLS
	 * variable from the thread pointer (initial-exec TLS), of the
	 * symbol, or at r_addend in the object's own block for none */
	PLT_RELOC_TPOFF,
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

/* Whether GOT is the address of a function's GOT slot that the caller
 * wants sites for.  It is also asked of byte patterns that turn out
 * not to be instructions, so it must have no side effect, and should
 * be cheap (a binary search, say). */
typedef bool plt_slot_fn(void *ctx, uint64_t got);

/* Called once per stub found by plt_arch_find_stubs: LEN is the length
 * of its bytes from STUB to the end of its indirect jump. */
typedef void plt_found_fn(void *ctx, uint64_t stub, uint64_t got, unsigned len);

/* Find the stubs in the SIZE bytes of CODE (an executable segment as
 * the loader maps it), loaded at link-time address ADDR, with no
 * section header: every indirect jump whose slot IS_SLOT(CTX, slot)
 * accepts and whose bytes, with those around it, decode as a stub of
 * .plt, .plt.sec or .plt.got.  FN is called once per stub, in address
 * order.  Reads nothing outside CODE; never fails. */
void plt_arch_find_stubs(const uint8_t *code, size_t size, uint64_t addr,
			 plt_slot_fn *is_slot, plt_found_fn *fn, void *ctx);

/* A call site that reads a GOT slot itself, with no stub (-fno-plt):
 * an indirect call or, for a tail call, jump through the slot. */
enum plt_site_kind {
	PLT_SITE_CALL, /* pushes ADDR + LEN, then goes to *GOT */
	PLT_SITE_JUMP, /* goes to *GOT; the return address is the caller's */
};

struct plt_site {
	uint64_t addr; /* first byte of the instruction, prefixes included */
	uint64_t got;  /* address of the slot it reads */
	unsigned len;  /* its length: a call returns to ADDR + LEN */
	enum plt_site_kind kind;
};

/* Called once per site found, in increasing address order.  SITE is
 * valid only during the call. */
typedef void plt_site_fn(void *ctx, const struct plt_site *site);

/* Decode the SIZE bytes of CODE, loaded at link-time address ADDR, in
 * one linear sweep from the first byte, and call FN(CTX, site) for
 * every instruction that reads its target from a GOT slot for which
 * IS_SLOT(CTX, slot) returns true.  Every address is a link-time one (the caller adds the
 * load bias).  CODE should be one executable section that holds no
 * stubs: stubs jump through GOT slots too and would be reported as
 * jump sites.  A site is only reported where the sweep decodes exactly
 * that instruction, so bytes inside another instruction never are;
 * undecodable bytes are skipped one at a time.  Reads nothing outside
 * CODE; never fails. */
void plt_arch_scan_sites(const uint8_t *code, size_t size, uint64_t addr,
			 plt_slot_fn *is_slot, plt_site_fn *fn, void *ctx);

#endif
