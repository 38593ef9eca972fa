/* x86_64 PLT stub decoding with Zydis.
 *
 * Stubs are found by decoding, not by assuming a slot size: a stub is
 * an instruction sequence made of nothing but optional endbr64s followed
 * by `jmp *disp(%rip)` (with or without a bnd prefix), starting after
 * padding (nop, int3) or after the previous unconditional jump.  This
 * covers, as emitted by GNU ld and lld:
 *   .plt      jmp *GOT(%rip); push $idx; jmp PLT0   (lazy)
 *   .plt.sec  endbr64; [bnd] jmp *GOT(%rip); nop    (IBT / MPX)
 *   .plt.got  [endbr64;] jmp *GOT(%rip); nop        (GLOB_DAT slots)
 * and rejects PLT0 (`push GOT+8(%rip); jmp *GOT+16(%rip)`) and the IBT
 * lazy entries (`endbr64; push $idx; [bnd] jmp PLT0`), which start with
 * a push. */
#include "../plt_arch.h"

#include <elf.h>
#include <emmintrin.h>
#include <stdbool.h>
#include <string.h>
#include <Zydis/Zydis.h>

const unsigned int plt_arch_machine = EM_X86_64;
const int plt_arch_class = ELFCLASS64;

const char *const plt_arch_sections[] = {
	".plt", ".plt.sec", ".plt.got", ".iplt", NULL,
};

enum plt_reloc_kind plt_arch_reloc_kind(uint32_t type)
{
	switch (type) {
	case R_X86_64_JUMP_SLOT:
		return PLT_RELOC_SYMBOL;
	case R_X86_64_GLOB_DAT:
		return PLT_RELOC_DATA;
	case R_X86_64_IRELATIVE:
		return PLT_RELOC_IRELATIVE;
	case R_X86_64_TPOFF64:
		return PLT_RELOC_TPOFF;
	default:
		return PLT_RELOC_OTHER;
	}
}

struct stub_state {
	uint64_t start; /* first byte of the candidate stub */
	bool open;	/* a candidate is being decoded */
	bool clean;	/* only endbr64 so far */
};

/* If INSN at ADDR is `jmp *disp(%rip)`, store the slot address in GOT. */
static bool got_jump(const ZydisDecoder *dec, const ZydisDecoderContext *ctx,
		     const ZydisDecodedInstruction *insn, uint64_t addr,
		     uint64_t *got)
{
	if (insn->mnemonic != ZYDIS_MNEMONIC_JMP ||
	    insn->meta.branch_type != ZYDIS_BRANCH_TYPE_NEAR ||
	    insn->operand_count_visible != 1)
		return false; /* a far `ljmp *m(%rip)` is no stub */
	ZydisDecodedOperand op[ZYDIS_MAX_OPERAND_COUNT];
	if (ZYAN_FAILED(ZydisDecoderDecodeOperands(dec, ctx, insn, op, 1)))
		return false;
	if (op[0].type != ZYDIS_OPERAND_TYPE_MEMORY ||
	    op[0].mem.base != ZYDIS_REGISTER_RIP ||
	    op[0].mem.index != ZYDIS_REGISTER_NONE)
		return false;
	ZyanU64 abs;
	if (ZYAN_FAILED(ZydisCalcAbsoluteAddress(insn, &op[0], addr, &abs)))
		return false;
	*got = abs;
	return true;
}

/* An instruction after which no stub continues. */
static bool ends_flow(const ZydisDecodedInstruction *insn)
{
	return insn->mnemonic == ZYDIS_MNEMONIC_JMP ||
	       insn->mnemonic == ZYDIS_MNEMONIC_RET ||
	       insn->mnemonic == ZYDIS_MNEMONIC_UD2 ||
	       insn->mnemonic == ZYDIS_MNEMONIC_HLT;
}

static bool is_padding(const ZydisDecodedInstruction *insn)
{
	return insn->mnemonic == ZYDIS_MNEMONIC_NOP ||
	       insn->mnemonic == ZYDIS_MNEMONIC_INT3;
}

/* Advance the stub state machine over one decoded instruction. */
static void step(struct stub_state *st, const ZydisDecoder *dec,
		 const ZydisDecoderContext *ctx,
		 const ZydisDecodedInstruction *insn, uint64_t addr,
		 plt_stub_fn *fn, void *fctx)
{
	uint64_t got;

	if (!st->open) {
		if (is_padding(insn))
			return;
		st->open = true;
		st->clean = true;
		st->start = addr;
	}
	if (st->clean && got_jump(dec, ctx, insn, addr, &got))
		fn(fctx, st->start, got);
	if (ends_flow(insn))
		st->open = false;
	else if (insn->mnemonic != ZYDIS_MNEMONIC_ENDBR64)
		st->clean = false;
}

void plt_arch_scan(const uint8_t *code, size_t size, uint64_t addr,
		   plt_stub_fn *fn, void *ctx)
{
	ZydisDecoder dec;
	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	struct stub_state st = { 0, false, false };
	size_t off = 0;
	while (off < size) {
		ZydisDecoderContext zctx;
		ZydisDecodedInstruction insn;

		if (ZYAN_FAILED(ZydisDecoderDecodeInstruction(
			    &dec, &zctx, code + off, size - off, &insn))) {
			st.open = false; /* garbage: resync */
			off++;
			continue;
		}
		step(&st, &dec, &zctx, &insn, addr + off, fn, ctx);
		off += insn.length;
	}
}

static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

/* What may follow a stub's jump: the lazy entry's push, or padding. */
static bool stub_tail(const ZydisDecoder *dec, const uint8_t *code, size_t size)
{
	ZydisDecoderContext zctx;
	ZydisDecodedInstruction insn;

	if (!size)
		return true;
	if (ZYAN_FAILED(ZydisDecoderDecodeInstruction(dec, &zctx, code, size,
						      &insn)))
		return false;
	return insn.mnemonic == ZYDIS_MNEMONIC_PUSH || is_padding(&insn);
}

/* Whether the bytes [START, END) of CODE decode as endbr64s, then one near
 * `jmp *GOT(%rip)` that ends at END; its slot goes to *GOT. */
static bool stub_body(const ZydisDecoder *dec, const uint8_t *code,
		      size_t start, size_t end, uint64_t addr, uint64_t *got)
{
	size_t off = start;
	while (off < end) {
		ZydisDecoderContext zctx;
		ZydisDecodedInstruction insn;

		if (ZYAN_FAILED(ZydisDecoderDecodeInstruction(
			    dec, &zctx, code + off, end - off, &insn)))
			return false;
		if (insn.mnemonic == ZYDIS_MNEMONIC_ENDBR64) {
			off += insn.length;
			continue;
		}
		return off + insn.length == end &&
		       got_jump(dec, &zctx, &insn, addr + off, got);
	}
	return false;
}

/* The stub whose `ff 25` opcode is at OFF, if its slot is one IS_SLOT
 * wants: its start (before a bnd prefix and an endbr64) must be 8-byte
 * aligned, as GNU ld, gold and lld lay out .plt, .plt.sec and .plt.got,
 * and what follows must be a push or padding. */
static void try_stub(const ZydisDecoder *dec, const uint8_t *code, size_t size,
		     uint64_t addr, size_t off, plt_slot_fn *is_slot,
		     plt_found_fn *fn, void *ctx)
{
	int32_t disp;
	memcpy(&disp, code + off + 2, sizeof(disp));
	uint64_t got = addr + off + 6 + (uint64_t)(int64_t)disp;
	if (!is_slot(ctx, got))
		return;
	size_t start = off;
	if (start >= 1 && code[start - 1] == 0xf2)
		start--; /* bnd */
	if (start >= 4 && !memcmp(code + start - 4, endbr64, 4))
		start -= 4;
	uint64_t decoded;
	if ((addr + start) % 8 ||
	    !stub_body(dec, code, start, off + 6, addr, &decoded) ||
	    decoded != got || !stub_tail(dec, code + off + 6, size - off - 6))
		return;
	fn(ctx, addr + start, got, (unsigned)(off + 6 - start));
}

/* The offset of the first `ff 25` starting in CODE[FROM..END), or END.
 * Sixteen starts at a time (SSE2 is part of x86_64): glibc's memmem
 * takes a byte at a time for a two-byte needle, and over libc's 1.5 MB
 * of text that was 0.7 ms of every start. */
static size_t find_jmp(const uint8_t *code, size_t from, size_t end)
{
	const __m128i ff = _mm_set1_epi8((char)0xff);
	const __m128i x25 = _mm_set1_epi8(0x25);
	size_t i = from;
	/* the second load reads CODE[i + 1 .. i + 16], within END + 1 */
	for (; end - i >= 16; i += 16) {
		__m128i a = _mm_loadu_si128((const __m128i *)(code + i));
		__m128i b = _mm_loadu_si128((const __m128i *)(code + i + 1));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_and_si128(
			_mm_cmpeq_epi8(a, ff), _mm_cmpeq_epi8(b, x25)));
		if (m)
			return i + (size_t)__builtin_ctz(m);
	}
	for (; i < end; i++)
		if (code[i] == 0xff && code[i + 1] == 0x25)
			return i;
	return end;
}

void plt_arch_find_stubs(const uint8_t *code, size_t size, uint64_t addr,
			 plt_slot_fn *is_slot, plt_found_fn *fn, void *ctx)
{
	ZydisDecoder dec;
	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	if (size < 6)
		return;
	/* a stub's jump is 6 bytes: it starts at size - 6 at the latest */
	size_t end = size - 5;
	for (size_t off = find_jmp(code, 0, end); off < end;
	     off = find_jmp(code, off + 1, end))
		try_stub(&dec, code, size, addr, off, is_slot, fn, ctx);
}
