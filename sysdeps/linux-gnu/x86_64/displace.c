/* Displaced execution of one x86_64 instruction: see ltrace/displace.h.
 *
 * The instruction is decoded with Zydis and turned into a short,
 * position-exact sequence for its cell in the scratch page.  The sequence
 * never depends on register values, so one copy serves every thread.
 *
 * Encoding facts used below (Intel SDM vol. 2):
 *  - FF /2 is CALL r/m64, FF /4 JMP r/m64, FF /6 PUSH r/m64; the /digit is
 *    the reg field, bits 5:3 of the ModRM byte.
 *  - ModRM mod=00 rm=101 in 64-bit mode is RIP+disp32, relative to the
 *    end of the instruction; so FF 25 00 00 00 00 followed by 8 bytes is
 *    "jmp qword [rip+0]" through those 8 bytes: an absolute jump that
 *    reaches anywhere and touches no register or flag.
 *  - Jcc rel32 is 0F 80+cc, Jcc rel8 is 70+cc (same cc).  LOOPNE E0,
 *    LOOPE E1, LOOP E2 and JRCXZ E3 only exist with rel8.
 *  - With a 66 prefix, near branches in 64-bit mode behave differently on
 *    Intel (prefix ignored) and AMD (16-bit IP): such branches are not
 *    relocated, they are stepped in place.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <Zydis/Zydis.h>

#include "displace.h"

/* FF 25 00000000 imm64: jmp qword [rip+0] through the following qword. */
#define JMP_ABS_LEN 14

struct ctx {
	const uint8_t *bytes; /* original instruction */
	uint64_t addr;	      /* its address in the tracee */
	uint64_t cell;	      /* where out->code will live */
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	struct displaced *out;
};

/* Append N bytes to the cell's code D->code, as all code_* functions do;
 * on overflow, mark the copy as too long (checked once, at the end, by
 * displace_prepare). */
static void code_add(struct displaced *d, const void *p, unsigned n)
{
	if (d->code_len + n > DISPLACE_CELL_SIZE) {
		d->code_len = DISPLACE_CELL_SIZE + 1;
		return;
	}
	memcpy(d->code + d->code_len, p, n);
	d->code_len += n;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* jmp qword [rip+0]; .quad TARGET */
static void code_jmp_abs(struct displaced *d, uint64_t target)
{
	uint8_t b[JMP_ABS_LEN] = { 0xff, 0x25, 0, 0, 0, 0 };

	put_le(b + 6, target, 8);
	code_add(d, b, sizeof(b));
}

/* mov dword [rsp+DISP8], imm32: C7 /0 with ModRM 00 000 100 (SIB, no
 * displacement) or 01 000 100 (SIB + disp8); SIB 0x24 is base=rsp,
 * no index. */
static void code_store_rsp32(struct displaced *d, uint8_t disp8, uint32_t v)
{
	uint8_t b[8] = { 0xc7, 0x44, 0x24, disp8 };
	unsigned n = 4;

	if (disp8 == 0) {
		b[1] = 0x04;
		n = 3;
	}
	put_le(b + n, v, 4);
	code_add(d, b, n + 4);
}

/* Store the 8-byte return address RET at [rsp+DISP8] in two halves, as
 * no mov stores a 64-bit immediate to memory. */
static void code_store_ret(struct displaced *d, uint8_t disp8, uint64_t ret)
{
	code_store_rsp32(d, disp8, (uint32_t)ret);
	code_store_rsp32(d, disp8 + 4, (uint32_t)(ret >> 32));
}

static bool fits_i32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

/* Index of the visible memory operand addressed relative to RIP or EIP,
 * or -1. */
static int rip_operand(const struct ctx *c)
{
	for (unsigned i = 0; i < c->zi.operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &c->ops[i];

		if (op->type == ZYDIS_OPERAND_TYPE_MEMORY &&
		    (op->mem.base == ZYDIS_REGISTER_RIP ||
		     op->mem.base == ZYDIS_REGISTER_EIP))
			return (int)i;
	}
	return -1;
}

/* Index of the operand that is a relative branch displacement, or -1. */
static int rel_operand(const struct ctx *c)
{
	for (unsigned i = 0; i < c->zi.operand_count_visible; i++) {
		const ZydisDecodedOperand *op = &c->ops[i];

		if (op->type == ZYDIS_OPERAND_TYPE_IMMEDIATE &&
		    op->imm.is_relative)
			return (int)i;
	}
	return -1;
}

/* Append BYTES (the instruction, possibly with its opcode changed but
 * with the original length and layout) and retarget a RIP-relative
 * disp32 so that it designates the same absolute address from the cell.
 * False when that address is out of the ±2 GiB reach of the cell, or
 * EIP-relative (67 prefix), which is not worth relocating. */
static bool code_relocated(struct ctx *c, const uint8_t *bytes)
{
	struct displaced *d = c->out;
	unsigned at = d->code_len;
	unsigned len = c->zi.length;

	code_add(d, bytes, len);
	int i = rip_operand(c);
	if (i < 0)
		return true;
	if (c->ops[i].mem.base != ZYDIS_REGISTER_RIP ||
	    c->zi.raw.disp.size != 32 || d->code_len > DISPLACE_CELL_SIZE)
		return false;
	ZyanU64 abs;
	if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&c->zi, &c->ops[i], c->addr,
						   &abs)))
		return false;
	int64_t disp = (int64_t)(abs - (c->cell + at + len));
	if (!fits_i32(disp))
		return false;
	put_le(d->code + at + c->zi.raw.disp.offset, (uint64_t)disp, 4);
	return true;
}

/* Anything without a relative branch: copy (RIP-relative operand
 * retargeted), then jump back.  ret and indirect jmp never fall through,
 * so they need no jump back. */
static bool plan_copy(struct ctx *c)
{
	ZydisInstructionCategory cat = c->zi.meta.category;

	if (!code_relocated(c, c->bytes))
		return false;
	if (cat != ZYDIS_CATEGORY_RET && cat != ZYDIS_CATEGORY_UNCOND_BR)
		code_jmp_abs(c->out, c->addr + c->zi.length);
	return true;
}

/* call rel32, done in the cell:
 *	lea rsp, [rsp-8]	48 8D 64 24 F8 (lea, unlike sub, keeps flags)
 *	mov dword [rsp], lo	C7 04 24 imm32
 *	mov dword [rsp+4], hi	C7 44 24 04 imm32
 *	jmp qword [rip+0]; .quad target */
static bool plan_call_rel(struct ctx *c, uint64_t target)
{
	static const uint8_t lea[] = { 0x48, 0x8d, 0x64, 0x24, 0xf8 };
	struct displaced *d = c->out;

	code_add(d, lea, sizeof(lea));
	code_store_ret(d, 0, c->addr + c->zi.length);
	code_jmp_abs(d, target);
	return true;
}

/* Jcc/LOOPcc/JRCXZ: the same condition, as a rel8 branch over the
 * fall-through jump to a "taken" jump:
 *	[prefixes] 7x/Ex 0E	-> taken
 *	jmp qword [rip+0]; .quad addr+len
 * taken:
 *	jmp qword [rip+0]; .quad target
 * Prefixes (branch hints, 67 for JECXZ/LOOP on ecx) are kept. */
static bool plan_cond(struct ctx *c, uint64_t target)
{
	unsigned n = c->zi.raw.imm[0].offset;
	uint8_t head[ZYDIS_MAX_INSTRUCTION_LENGTH];

	memcpy(head, c->bytes, n);
	if (c->zi.raw.imm[0].size == 32) {
		/* 0F 80+cc rel32 -> 70+cc rel8 */
		if (n < 2 || head[n - 2] != 0x0f ||
		    (head[n - 1] & 0xf0) != 0x80)
			return false;
		head[n - 2] = 0x70 | (head[n - 1] & 0x0f);
		n--;
	} else if (c->zi.raw.imm[0].size != 8) {
		return false;
	}
	head[n++] = JMP_ABS_LEN;
	code_add(c->out, head, n);
	code_jmp_abs(c->out, c->addr + c->zi.length);
	code_jmp_abs(c->out, target);
	return true;
}

/* Instructions with a relative branch operand. */
static bool plan_relative(struct ctx *c, int i)
{
	struct displaced *d = c->out;
	ZyanU64 target;

	if (c->zi.meta.branch_type == ZYDIS_BRANCH_TYPE_NONE ||
	    c->zi.meta.branch_type == ZYDIS_BRANCH_TYPE_FAR ||
	    (c->zi.attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE) ||
	    c->zi.mnemonic == ZYDIS_MNEMONIC_XBEGIN)
		return false;
	if (!ZYAN_SUCCESS(ZydisCalcAbsoluteAddress(&c->zi, &c->ops[i], c->addr,
						   &target)))
		return false;
	switch (c->zi.meta.category) {
	case ZYDIS_CATEGORY_UNCOND_BR:
		d->kind = DISPLACE_JUMP;
		d->target = target;
		return true;
	case ZYDIS_CATEGORY_CALL:
		return plan_call_rel(c, target);
	case ZYDIS_CATEGORY_COND_BR:
		return plan_cond(c, target);
	default:
		return false;
	}
}

/* call r/m64 (FF /2), done in the cell.  The target is read first, as
 * the CPU does, by PUSH r/m64 (FF /6) with the same prefixes, ModRM, SIB
 * and displacement; PUSH computes an RSP-based address, and reads RSP as
 * a register operand, before decrementing RSP, exactly like CALL.  So no
 * operand needs adjusting (except a RIP-relative one) and a target
 * loaded from just below RSP is read before the return address lands
 * there.
 *	push r/m64		[rsp0-8] = target
 *	push qword [rsp]	FF 34 24: [rsp0-16] = target
 *	mov dword [rsp+8], lo	C7 44 24 08 imm32
 *	mov dword [rsp+12], hi	C7 44 24 0C imm32: [rsp0-8] = return
 *	lea rsp, [rsp+8]	48 8D 64 24 08: rsp = rsp0-8, as after CALL
 *	jmp qword [rsp-8]	FF 64 24 F8: to target
 * The last jump reads the red zone, which signal delivery skips (the
 * kernel leaves 128 bytes below RSP, or uses the alternate stack); a
 * call clobbers the area below RSP anyway. */
static bool plan_call_ind(struct ctx *c)
{
	static const uint8_t push_top[] = { 0xff, 0x34, 0x24 };
	static const uint8_t tail[] = { 0x48, 0x8d, 0x64, 0x24, 0x08,
					0xff, 0x64, 0x24, 0xf8 };
	unsigned m = c->zi.raw.modrm.offset;

	if (c->zi.meta.branch_type != ZYDIS_BRANCH_TYPE_NEAR ||
	    (c->zi.attributes & ZYDIS_ATTRIB_HAS_OPERANDSIZE) ||
	    c->zi.encoding != ZYDIS_INSTRUCTION_ENCODING_LEGACY || m < 1 ||
	    c->bytes[m - 1] != 0xff || c->zi.raw.modrm.reg != 2)
		return false;
	uint8_t push[ZYDIS_MAX_INSTRUCTION_LENGTH];
	memcpy(push, c->bytes, c->zi.length);
	push[m] = (uint8_t)((push[m] & ~0x38) | (6 << 3));
	if (!code_relocated(c, push))
		return false;
	code_add(c->out, push_top, sizeof(push_top));
	code_store_ret(c->out, 8, c->addr + c->zi.length);
	code_add(c->out, tail, sizeof(tail));
	return true;
}

/* int $0x80: the i386 system call gate, no trap for the program. */
static bool is_int80(const ZydisDecodedInstruction *zi)
{
	return zi->mnemonic == ZYDIS_MNEMONIC_INT &&
	       zi->raw.imm[0].value.u == 0x80;
}

/* Traps whose in-place semantics (the RIP the handler sees) matter. */
static bool is_trap(const ZydisDecodedInstruction *zi)
{
	ZydisMnemonic mn = zi->mnemonic;
	return mn == ZYDIS_MNEMONIC_INT3 || mn == ZYDIS_MNEMONIC_INT1 ||
	       (mn == ZYDIS_MNEMONIC_INT && !is_int80(zi)) ||
	       mn == ZYDIS_MNEMONIC_INTO;
}

static bool prepare_dispatch(struct ctx *c)
{
	int rel = rel_operand(c);

	if (is_trap(&c->zi))
		return false;
	if (rel >= 0)
		return plan_relative(c, rel);
	if (c->zi.mnemonic == ZYDIS_MNEMONIC_CALL)
		return plan_call_ind(c);
	return plan_copy(c);
}

static bool decode(struct ctx *c, const uint8_t *insn, size_t len)
{
	ZydisDecoder dec;

	if (!ZYAN_SUCCESS(ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64,
					   ZYDIS_STACK_WIDTH_64)))
		return false;
	return ZYAN_SUCCESS(
		ZydisDecoderDecodeFull(&dec, insn, len, &c->zi, c->ops));
}

/* The last resort: single-step the instruction in place. */
static void plan_step(struct displaced *out, unsigned insn_len)
{
	memset(out, 0, sizeof(*out));
	out->kind = DISPLACE_STEP;
	out->insn_len = insn_len;
}

int displace_prepare(const uint8_t *insn, size_t len, uint64_t addr,
		     uint64_t cell, struct displaced *out)
{
	struct ctx c = { .bytes = insn, .addr = addr, .cell = cell, .out = out };

	plan_step(out, 0);
	if (insn == NULL || len == 0 || !decode(&c, insn, len))
		return -EINVAL;
	out->insn_len = c.zi.length;
	out->kind = DISPLACE_COPY;
	if (!prepare_dispatch(&c) || out->code_len > DISPLACE_CELL_SIZE)
		plan_step(out, c.zi.length);
	else if (c.zi.mnemonic == ZYDIS_MNEMONIC_SYSCALL || is_int80(&c.zi))
		out->syscall_end = c.zi.length; /* copied as it is */
	return 0;
}
