/* Entry patching for -x in --fast: recpatch.h.  Decoded with Zydis, as
 * displace.c does for one instruction; here for a prologue, whole
 * instructions only, and the whole function once to find jumps into the
 * bytes the patch replaces.  Encodings (Intel SDM vol. 2): E9 is jmp
 * rel32, 68 push imm32 (sign-extended to 64 bits), FF /4 with ModRM 25
 * jmp through a RIP-relative qword; Jcc rel8 is 70+cc, Jcc rel32
 * 0F 80+cc. */
#include <stdbool.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "recpatch.h"

/* Where the cell keeps rec_xentry's address. */
#define XENTRY_WORD (RECPATCH_CELL_SIZE - 8)

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static bool fits_i32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static bool decode(const ZydisDecoder *d, const uint8_t *p, size_t n,
		   ZydisDecodedInstruction *zi, ZydisDecodedOperand *ops)
{
	return ZYAN_SUCCESS(ZydisDecoderDecodeFull(d, p, n, zi, ops));
}

/* The relative branch target of ZI at ADDR, if it has one. */
static bool branch_target(const ZydisDecodedInstruction *zi,
			  const ZydisDecodedOperand *ops, uint64_t addr,
			  uint64_t *to)
{
	for (unsigned i = 0; i < zi->operand_count_visible; i++)
		if (ops[i].type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		    ops[i].imm.is_relative)
			return ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(
				zi, &ops[i], addr, (ZyanU64 *)to));
	return false;
}

/* Whether a relative jump anywhere in the function lands in
 * (ADDR, ADDR + LEN): a linear decode, skipping a byte where none
 * decodes (data in the code, as far as it can tell). */
static bool jumped_into(const ZydisDecoder *d, const uint8_t *fn, size_t size,
			uint64_t addr, unsigned len)
{
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	for (size_t at = 0; at < size;) {
		if (!decode(d, fn + at, size - at, &zi, ops)) {
			at++;
			continue;
		}
		uint64_t to;
		if (zi.meta.branch_type != ZYDIS_BRANCH_TYPE_NONE &&
		    branch_target(&zi, ops, addr + at, &to) && to > addr &&
		    to < addr + len)
			return true;
		at += zi.length;
	}
	return false;
}

/* Append to OUT's cell at *AT (CELL in the program) the branch of
 * opcode OP (LEN bytes) with a rel32 to TO.  NULL, or why not. */
static const char *put_branch(struct recpatch *out, unsigned *at, uint64_t cell,
			      uint64_t to, const uint8_t *op, unsigned len)
{
	if (*at + len + 4 > XENTRY_WORD - RECPATCH_JMP_LEN)
		return "the prologue does not fit its cell";
	int64_t rel = (int64_t)(to - (cell + *at + len + 4));
	if (!fits_i32(rel))
		return "a branch target out of reach";
	memcpy(out->cell + *at, op, len);
	put32(out->cell + *at + len, (uint32_t)rel);
	*at += len + 4;
	return NULL;
}

/* Append the prologue's instruction ZI (bytes P, at FROM) to OUT's cell
 * at *AT, relocated; *ENDS when control never goes past it (a near ret
 * or jmp: the copy needs no way back).  NULL, or why not. */
static const char *relocate(const ZydisDecodedInstruction *zi,
			    const ZydisDecodedOperand *ops, const uint8_t *p,
			    uint64_t from, uint64_t cell, struct recpatch *out,
			    unsigned *at, bool *ends)
{
	uint8_t *c = out->cell + *at;
	ZydisInstructionCategory cat = zi->meta.category;
	bool near_jmp = zi->mnemonic == ZYDIS_MNEMONIC_JMP &&
			zi->meta.branch_type != ZYDIS_BRANCH_TYPE_FAR;
	uint64_t to;
	if (near_jmp && branch_target(zi, ops, from, &to)) {
		/* jmp rel8/rel32 (a tail call): jmp rel32 from the copy */
		if (zi->attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE)
			return "a branch in the prologue";
		*ends = true;
		return put_branch(out, at, cell, to, (const uint8_t[]){ 0xe9 },
				  1);
	}
	/* A near ret, or a jmp through a register or memory (a RIP-relative
	 * operand retargeted below), runs the same from the copy. */
	*ends = zi->mnemonic == ZYDIS_MNEMONIC_RET || near_jmp;
	if (cat == ZYDIS_CATEGORY_COND_BR) {
		unsigned n = zi->raw.imm[0].offset;
		if ((zi->attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE) ||
		    !branch_target(zi, ops, from, &to))
			return "a branch in the prologue";
		uint8_t cc;
		if (zi->raw.imm[0].size == 8 && n == 1 && (p[0] & 0xf0) == 0x70)
			cc = p[0] & 0x0f;
		else if (zi->raw.imm[0].size == 32 && n == 2 && p[0] == 0x0f)
			cc = p[1] & 0x0f;
		else
			return "a branch in the prologue";
		return put_branch(
			out, at, cell, to,
			(const uint8_t[]){ 0x0f, (uint8_t)(0x80 | cc) }, 2);
	}
	if (!*ends &&
	    (cat == ZYDIS_CATEGORY_UNCOND_BR || cat == ZYDIS_CATEGORY_CALL ||
	     cat == ZYDIS_CATEGORY_RET || cat == ZYDIS_CATEGORY_INTERRUPT ||
	     cat == ZYDIS_CATEGORY_SYSCALL || cat == ZYDIS_CATEGORY_SYSTEM ||
	     zi->meta.branch_type != ZYDIS_BRANCH_TYPE_NONE))
		return "a call, far branch, trap or system call in the prologue";
	if (*at + zi->length > XENTRY_WORD - RECPATCH_JMP_LEN)
		return "the prologue does not fit its cell";
	memcpy(c, p, zi->length);
	for (unsigned i = 0; i < zi->operand_count_visible; i++) {
		if (ops[i].type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    (ops[i].mem.base != ZYDIS_REGISTER_RIP &&
		     ops[i].mem.base != ZYDIS_REGISTER_EIP))
			continue;
		ZyanU64 abs;
		if (ops[i].mem.base != ZYDIS_REGISTER_RIP ||
		    zi->raw.disp.size != 32 ||
		    !ZYAN_SUCCESS(
			    ZydisCalcAbsoluteAddress(zi, &ops[i], from, &abs)))
			return "an operand it cannot relocate";
		int64_t disp = (int64_t)(abs - (cell + *at + zi->length));
		if (!fits_i32(disp))
			return "an operand out of reach";
		put32(c + zi->raw.disp.offset, (uint32_t)disp);
	}
	*at += zi->length;
	return NULL;
}

/* The cell's head: push $INDEX; jmp *XENTRY_WORD(%rip). */
static void cell_head(struct recpatch *out, uint32_t index, uint64_t xentry)
{
	out->cell[0] = 0x68;
	put32(out->cell + 1, index);
	out->cell[5] = 0xff;
	out->cell[6] = 0x25;
	put32(out->cell + 7, XENTRY_WORD - 11);
	memcpy(out->cell + XENTRY_WORD, &xentry, 8);
	out->copy = RECPATCH_COPY;
}

int recpatch_plan(const uint8_t *fn, size_t size, uint64_t addr, uint64_t cell,
		  uint32_t index, uint64_t xentry, struct recpatch *out,
		  const char **why)
{
	ZydisDecoder d;
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	memset(out, 0xcc, sizeof(*out));
	*why = "the function is smaller than the patch";
	if (size < RECPATCH_JMP_LEN ||
	    !ZYAN_SUCCESS(ZydisDecoderInit(&d, ZYDIS_MACHINE_MODE_LONG_64,
					   ZYDIS_STACK_WIDTH_64)))
		return -1;
	cell_head(out, index, xentry);
	unsigned at = out->copy, len = 0;
	bool ends = false;
	while (len < RECPATCH_JMP_LEN && !ends) {
		*why = "its prologue does not decode within the function";
		if (!decode(&d, fn + len, size - len, &zi, ops))
			return -1;
		*why = relocate(&zi, ops, fn + len, addr + len, cell, out, &at,
				&ends);
		if (*why)
			return -1;
		len += zi.length;
	}
	/* After a ret or jmp, the rest of the patch's bytes are reached by
	 * a jump into them only, which jumped_into refuses below. */
	if (len < RECPATCH_JMP_LEN)
		len = RECPATCH_JMP_LEN;
	*why = "its cell is out of reach";
	if (!fits_i32((int64_t)(cell - (addr + 5))))
		return -1;
	if (!ends) {
		int64_t back = (int64_t)(addr + len - (cell + at + 5));
		if (!fits_i32(back))
			return -1;
		out->cell[at] = 0xe9;
		put32(out->cell + at + 1, (uint32_t)back);
	}
	*why = "a jump in the function lands inside the patch";
	if (jumped_into(&d, fn, size, addr, len))
		return -1;
	out->len = len;
	out->jmp[0] = 0xe9;
	put32(out->jmp + 1, (uint32_t)(cell - (addr + 5)));
	*why = NULL;
	return 0;
}
