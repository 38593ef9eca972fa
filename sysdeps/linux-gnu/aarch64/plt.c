/* aarch64 PLT stub decoding.  GNU ld and lld emit, for every stub (Arm
 * ELF for the Arm 64-bit Architecture, "PLT sequences"):
 *	[bti c]			with -z force-bti, in a non-PIC link
 *	adrp x16, PAGE(GOT slot)
 *	ldr  x17, [x16, #:lo12:slot]
 *	add  x16, x16, #:lo12:slot
 *	[autia1716 | autib1716]	with -z pac-plt
 *	br   x17
 *	[nop]			padding to 24 bytes
 * and PLT0 is the same adrp/ldr/add/br (to _dl_runtime_resolve through
 * GOT+16) after `[bti c;] stp x16, x30, [sp, #-16]!`, by which it is
 * told apart.  With -z now the stubs are unchanged.  Stubs are found by
 * matching this shape, 4-byte aligned, with the add's offset equal to
 * the ldr's, so no section header is needed. */
#include "../plt_arch.h"

#include <elf.h>
#include <string.h>

const unsigned int plt_arch_machine = EM_AARCH64;
const int plt_arch_class = ELFCLASS64;

const char *const plt_arch_sections[] = { ".plt", ".iplt", NULL };

enum plt_reloc_kind plt_arch_reloc_kind(uint32_t type)
{
	switch (type) {
	case R_AARCH64_JUMP_SLOT:
		return PLT_RELOC_SYMBOL;
	case R_AARCH64_GLOB_DAT:
		return PLT_RELOC_DATA;
	case R_AARCH64_IRELATIVE:
		return PLT_RELOC_IRELATIVE;
	case R_AARCH64_TLS_TPREL: /* TPREL64 in the psABI */
		return PLT_RELOC_TPOFF;
	default: /* R_AARCH64_TLSDESC and data: no function slot */
		return PLT_RELOC_OTHER;
	}
}

#define BTI_C 0xd503245f
#define STP_X16_X30 0xa9bf7bf0 /* stp x16, x30, [sp, #-16]! */
#define AUTIA1716 0xd503219f
#define AUTIB1716 0xd50321df
#define BR_X17 0xd61f0220

static uint32_t word(const uint8_t *code, size_t off)
{
	uint32_t w;

	memcpy(&w, code + off, 4);
	return w;
}

/* Whether the adrp at OFF starts a stub body (adrp, ldr, add, [aut],
 * br) within SIZE: its slot into *GOT, its end into *END. */
static bool stub_body(const uint8_t *code, size_t size, size_t off,
		      uint64_t addr, uint64_t *got, size_t *end)
{
	uint32_t adrp = word(code, off);
	if ((adrp & 0x9f00001f) != 0x90000010 || size - off < 16)
		return false; /* adrp x16 */
	uint32_t ldr = word(code, off + 4);
	uint32_t add = word(code, off + 8);
	size_t br = off + 12;
	if ((ldr & 0xffc003ff) != 0xf9400211 || /* ldr x17, [x16, #imm] */
	    (add & 0xffc003ff) != 0x91000210 || /* add x16, x16, #imm */
	    ((ldr >> 10) & 0xfff) * 8 != ((add >> 10) & 0xfff))
		return false;
	uint32_t w = word(code, br);
	if ((w == AUTIA1716 || w == AUTIB1716) && size - br >= 8)
		w = word(code, br += 4);
	if (w != BR_X17)
		return false;
	uint32_t imm = ((adrp >> 29) & 3) | ((adrp >> 5) & 0x7ffff) << 2;
	int64_t pages = (int64_t)((uint64_t)imm << 43) >> 43;
	uint64_t pc = addr + off;
	*got = (pc & ~(uint64_t)0xfff) + (uint64_t)pages * 4096 +
	       ((add >> 10) & 0xfff);
	*end = br + 4;
	return true;
}

/* The stub whose adrp is at OFF: its first byte (a bti c before the
 * adrp belongs to it) into *START, or false for PLT0 and non-stubs. */
static bool stub_at(const uint8_t *code, size_t size, size_t off, uint64_t addr,
		    uint64_t *got, size_t *start, size_t *end)
{
	if (!stub_body(code, size, off, addr, got, end))
		return false;
	*start = off;
	if (off >= 4 && word(code, off - 4) == STP_X16_X30)
		return false; /* PLT0 */
	if (off >= 4 && word(code, off - 4) == BTI_C)
		*start = off - 4;
	return true;
}

/* The first 4-aligned (by address) offset of CODE at ADDR. */
static size_t first_word(uint64_t addr)
{
	return (4 - addr % 4) % 4;
}

void plt_arch_scan(const uint8_t *code, size_t size, uint64_t addr,
		   plt_stub_fn *fn, void *ctx)
{
	for (size_t off = first_word(addr); off + 4 <= size; off += 4) {
		uint64_t got;
		size_t start, end;
		if (stub_at(code, size, off, addr, &got, &start, &end))
			fn(ctx, addr + start, got);
	}
}

void plt_arch_find_stubs(const uint8_t *code, size_t size, uint64_t addr,
			 plt_slot_fn *is_slot, plt_found_fn *fn, void *ctx)
{
	for (size_t off = first_word(addr); off + 4 <= size; off += 4) {
		uint64_t got;
		size_t start, end;
		if (stub_at(code, size, off, addr, &got, &start, &end) &&
		    is_slot(ctx, got))
			fn(ctx, addr + start, got, (unsigned)(end - start));
	}
}
