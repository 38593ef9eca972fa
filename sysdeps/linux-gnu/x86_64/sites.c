/* x86_64 call sites built without a PLT (gcc -fno-plt), with Zydis.
 *
 * Such code calls a library function with `call *GOT(%rip)` (FF /2) and
 * tail-calls it with `jmp *GOT(%rip)` (FF /4), ModRM mod 00 r/m 101:
 * in 64-bit mode that operand is [RIP + disp32], RIP being the address
 * of the next instruction, whatever REX.B says (Intel SDM vol. 2,
 * 2.2.1.6).  crt1's _start calls __libc_start_main that way even in
 * programs that have a PLT.
 *
 * Accepted prefixes are those that leave the instruction what it is:
 * REX, bnd (F2, MPX), and the segment overrides 64-bit mode ignores (CS,
 * SS, DS, ES), DS being CET's notrack and CS what GNU as pads branches
 * with (-malign-branch-prefix-size).  Any other prefix changes it (66:
 * a 16-bit target on AMD; 67: EIP-relative; FS/GS: not the GOT) or is
 * not emitted, and the instruction is not a site.
 *
 * Cost: the sweep decodes in Zydis' minimal mode (the length and the
 * raw ModRM, displacement and prefixes are all a site needs) at about
 * 45 MB/s, 15% faster than a full decode.  A byte search first finds
 * the last place a site could be (sites_end), at 2-3 GB/s: the sweep
 * stops there, and code with no candidate at all, as in programs built
 * with a PLT, is never decoded. */
#include "../plt_arch.h"

#include <string.h>
#include <Zydis/Zydis.h>

/* Whether every prefix of INSN is one that keeps it a plain near
 * call/jmp through [RIP + disp32]. */
static bool plain_prefixes(const ZydisDecodedInstruction *insn)
{
	for (unsigned i = 0; i < insn->raw.prefix_count; i++) {
		switch (insn->raw.prefixes[i].value) {
		case 0x26: /* ES */
		case 0x2e: /* CS */
		case 0x36: /* SS */
		case 0x3e: /* DS, notrack */
		case 0xf2: /* bnd */
			break;
		default:
			if ((insn->raw.prefixes[i].value & 0xf0) != 0x40)
				return false; /* not REX */
		}
	}
	return true;
}

/* If INSN is `call/jmp qword ptr [rip + disp32]`, store which in KIND.
 * FF /3 and FF /5 are far, and other ModRMs read no fixed address. */
static bool site_kind(const ZydisDecodedInstruction *insn,
		      enum plt_site_kind *kind)
{
	if (insn->opcode_map != ZYDIS_OPCODE_MAP_DEFAULT ||
	    insn->opcode != 0xff || insn->raw.modrm.mod != 0 ||
	    insn->raw.modrm.rm != 5 || insn->address_width != 64 ||
	    insn->operand_width != 64 || !plain_prefixes(insn))
		return false;
	if (insn->raw.modrm.reg == 2)
		*kind = PLT_SITE_CALL;
	else if (insn->raw.modrm.reg == 4)
		*kind = PLT_SITE_JUMP;
	else
		return false;
	return true;
}

/* Report INSN at ADDR if it is a site whose slot IS_SLOT accepts.  The
 * slot address wraps like the CPU's address arithmetic; IS_SLOT judges
 * it. */
static void check_site(const ZydisDecodedInstruction *insn, uint64_t addr,
		       plt_slot_fn *is_slot, plt_site_fn *fn, void *ctx)
{
	struct plt_site site;

	if (!site_kind(insn, &site.kind))
		return;
	site.addr = addr;
	site.len = insn->length;
	site.got = addr + insn->length + (uint64_t)insn->raw.disp.value;
	if (is_slot(ctx, site.got))
		fn(ctx, &site);
}

/* One past the offset of the last `FF 15 disp32` or `FF 25 disp32` in
 * CODE whose slot (its address + 6 + disp32) IS_SLOT accepts, or 0 if
 * there is none.  A site is made of its prefixes, then these 6 bytes,
 * so its slot does not depend on the prefixes and none starts after
 * that FF: the sweep can stop there, or not start at all.  This byte
 * search runs at memrchr's speed, the sweep at Zydis'. */
static size_t sites_end(const uint8_t *code, size_t size, uint64_t addr,
			plt_slot_fn *is_slot, void *ctx)
{
	if (size < 6)
		return 0;
	size_t lim = size - 5; /* an FF at N has bytes N+1..N+5 in CODE */
	const uint8_t *ff;
	while ((ff = memrchr(code, 0xff, lim)) != NULL) {
		lim = (size_t)(ff - code);
		int32_t disp;
		memcpy(&disp, ff + 2, sizeof(disp));
		if ((ff[1] == 0x15 || ff[1] == 0x25) &&
		    is_slot(ctx, addr + lim + 6 + (uint64_t)(int64_t)disp))
			return lim + 1;
	}
	return 0;
}

void plt_arch_scan_sites(const uint8_t *code, size_t size, uint64_t addr,
			 plt_slot_fn *is_slot, plt_site_fn *fn, void *ctx)
{
	ZydisDecoder dec;

	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	ZydisDecoderEnableMode(&dec, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
	size_t end = sites_end(code, size, addr, is_slot, ctx);
	size_t off = 0;
	while (off < end) {
		ZydisDecodedInstruction insn;

		if (ZYAN_FAILED(ZydisDecoderDecodeInstruction(
			    &dec, NULL, code + off, size - off, &insn))) {
			off++; /* garbage: resync on the next byte */
			continue;
		}
		check_site(&insn, addr + off, is_slot, fn, ctx);
		off += insn.length;
	}
}
