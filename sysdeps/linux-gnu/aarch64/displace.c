/* Displaced execution of one aarch64 instruction: see ltrace/displace.h.
 *
 * Instructions are 4 bytes, little endian, decoded by hand (Arm ARM,
 * C4.1 "A64 instruction set encoding").  The slot may be anywhere in the
 * address space, so every branch out of it is absolute:
 *	ldr xS, lit; ret xS; lit: .quad target
 * with xS one of x16/x17 (IP0/IP1), which AAPCS64 lets any veneer or
 * PLT stub between a call and its callee clobber: dead at a return
 * address and at a function's entry.  `ret xS`, not `br xS`: a ret
 * leaves PSTATE.BTYPE 0, so it may land on any instruction of a page
 * guarded by BTI (a br from the scratch page, which is not guarded,
 * would need a `bti c` there).  The scratch register is neither field
 * of the copied instruction that may name a register it writes (Rd/Rt,
 * Rn for write-back, Rt2, Rs); when both x16 and x17 appear, the
 * instruction is stepped.
 *
 * PC-relative instructions are relocated: adr/adrp load their value as
 * a literal; ldr literal (w, x, sw, s, d, q, prfm) loads the literal's
 * absolute address (into Rt itself when it is a general register, else
 * into xS) and then does the same load through it; b.cond, cbz/cbnz and
 * tbz/tbnz keep their condition and branch over the branch back to a
 * branch to the target; blr sets x30 to addr + 4 and branches with ret.
 * b and bl are emulated (DISPLACE_JUMP, DISPLACE_CALL: the caller sets
 * x30 = ret_addr).  br, ret and their pointer-authenticating forms are
 * copied with no branch back.  svc is copied (the kernel returns to the
 * next instruction of the slot); brk, hlt, hvc, smc, dcps, tcancel,
 * eret, drps and blraa-style calls are stepped in place, since the
 * exception or the return address they produce depends on where they
 * run; reserved and unallocated encodings do not decode (-EINVAL). */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "displace.h"

#define NINSN 8 /* instructions of the longest sequence */
#define NLIT 2	/* literals of the longest sequence */

/* A slot's code under construction: instructions, then a literal pool
 * aligned to 8 bytes (by absolute address) after them. */
struct seq {
	uint32_t insn[NINSN];
	unsigned n;
	uint64_t lit[NLIT];
	unsigned nlit;
	unsigned lit_user[NLIT]; /* the ldr that reads each literal */
};

static void put(struct seq *s, uint32_t insn)
{
	s->insn[s->n++] = insn;
}

/* ldr xT, =V (LDR literal, 64-bit: 0x58000000 | imm19 << 5 | Rt), its
 * offset filled in by seq_emit. */
static void put_ldr_lit(struct seq *s, unsigned t, uint64_t v)
{
	s->lit[s->nlit] = v;
	s->lit_user[s->nlit++] = s->n;
	put(s, 0x58000000 | t);
}

/* ret xN: branch to xN, PSTATE.BTYPE 0. */
static uint32_t ret_x(unsigned n)
{
	return 0xd65f0000 | n << 5;
}

/* ldr xS, =TARGET; ret xS */
static void put_jump(struct seq *s, unsigned scratch, uint64_t target)
{
	put_ldr_lit(s, scratch, target);
	put(s, ret_x(scratch));
}

/* The sequence S into OUT->code for SLOT, literal offsets resolved. */
static void seq_emit(const struct seq *s, uint64_t slot, struct displaced *out)
{
	unsigned pool = s->n * 4;

	if (s->nlit && (slot + pool) % 8)
		pool += 4;
	memcpy(out->code, s->insn, s->n * 4);
	if (pool > s->n * 4)
		memset(out->code + s->n * 4, 0, 4); /* udf #0: never run */
	for (unsigned i = 0; i < s->nlit; i++) {
		unsigned at = s->lit_user[i];
		uint32_t insn = s->insn[at];
		uint32_t imm19 = (pool + 8 * i - 4 * at) / 4;
		insn |= imm19 << 5;
		memcpy(out->code + 4 * at, &insn, 4);
		memcpy(out->code + pool + 8 * i, &s->lit[i], 8);
	}
	out->code_len = pool + 8 * s->nlit;
}

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = (uint64_t)1 << (bits - 1);

	return (int64_t)((v ^ m) - m);
}

static unsigned field(uint32_t insn, unsigned lo, unsigned bits)
{
	return (insn >> lo) & ((1u << bits) - 1);
}

/* x16, or x17 if the instruction names x16 in any register field, or
 * 0 when it names both. */
static unsigned scratch_for(uint32_t insn)
{
	static const unsigned lo[] = { 0, 5, 10, 16 };
	bool has16 = false, has17 = false;

	for (unsigned i = 0; i < 4; i++) {
		unsigned r = field(insn, lo[i], 5);
		has16 |= r == 16;
		has17 |= r == 17;
	}
	return !has16 ? 16 : !has17 ? 17 : 0;
}

/* Anything position independent: the copy, then the branch back. */
static bool plan_copy(struct seq *s, uint32_t insn, uint64_t next)
{
	unsigned sc = scratch_for(insn);

	if (!sc)
		return false;
	put(s, insn);
	put_jump(s, sc, next);
	return true;
}

/* adr (op 0) / adrp (op 1): Rd = the value, as a literal. */
static void plan_adr(struct seq *s, uint32_t insn, uint64_t addr)
{
	unsigned rd = field(insn, 0, 5);
	int64_t imm = sext(field(insn, 5, 19) << 2 | field(insn, 29, 2), 21);
	uint64_t v = insn >> 31 ?
			     (addr & ~(uint64_t)0xfff) + (uint64_t)imm * 4096 :
			     addr + (uint64_t)imm;

	put_ldr_lit(s, rd, v);
	put_jump(s, rd == 16 ? 17 : 16, addr + 4);
}

/* ldr (literal): opc (bits 31:30) and V (bit 26) select the load; the
 * same load with an unsigned offset of 0 from a base register. */
static bool plan_ldr_lit(struct seq *s, uint32_t insn, uint64_t addr)
{
	static const uint32_t gp[4] = { 0xb9400000, 0xf9400000, 0xb9800000,
					0xf9800000 }; /* w, x, sw, prfm */
	static const uint32_t fp[3] = { 0xbd400000, 0xfd400000, 0x3dc00000 };
	unsigned opc = field(insn, 30, 2);
	bool simd = insn >> 26 & 1;
	unsigned rt = field(insn, 0, 5);
	uint64_t lit = addr + (uint64_t)sext(field(insn, 5, 19), 19) * 4;

	if (simd && opc == 3)
		return false; /* unallocated */
	/* a general destination is its own base (but xzr would be sp) */
	unsigned base = !simd && opc != 3 && rt != 31 ? rt : 16;
	put_ldr_lit(s, base, lit);
	put(s, (simd ? fp[opc] : gp[opc]) | base << 5 | rt);
	put_jump(s, base == 16 && !simd && opc != 3 ? 17 : 16, addr + 4);
	return true;
}

/* A conditional branch whose offset is the field at LO of BITS bits:
 * the same test, to a branch to the target 3 instructions on.
 *	0:  b.cond/cbz/tbz  -> 3
 *	1:  ldr x16, =addr+4; 2: ret x16
 *	3:  ldr x16, =target; 4: ret x16 */
static void plan_cond(struct seq *s, uint32_t insn, uint64_t addr, unsigned lo,
		      unsigned bits)
{
	uint32_t mask = ((1u << bits) - 1) << lo;
	uint64_t target =
		addr + (uint64_t)sext(field(insn, lo, bits), bits) * 4;

	put(s, (insn & ~mask) | 3u << lo);
	put_jump(s, 16, addr + 4);
	put_jump(s, 16, target);
}

/* blr xN (plain, not authenticating): x30 = addr + 4, then to xN. */
static void plan_blr(struct seq *s, uint32_t insn, uint64_t addr)
{
	unsigned n = field(insn, 5, 5);

	if (n == 30) {
		put(s, 0xaa1e03f0); /* mov x16, x30 */
		n = 16;
	}
	put_ldr_lit(s, 30, addr + 4);
	put(s, ret_x(n));
}

/* Unconditional branch (register): bits 24:21 opc, 20:16 op2 (11111),
 * 15:10 op3, 4:0 op4. */
static bool plan_branch_reg(struct seq *s, uint32_t insn, uint64_t addr)
{
	unsigned opc = field(insn, 21, 4);
	unsigned op3 = field(insn, 10, 6);

	if (field(insn, 16, 5) != 31)
		return false;
	switch (opc & 7) {
	case 0: /* br, braa(z), brab(z) */
	case 2: /* ret, retaa, retab */
		put(s, insn);
		return true;
	case 1: /* blr; blraa(z), blrab(z) set x30 themselves */
		if (opc != 1 || op3 != 0 || field(insn, 0, 5) != 0)
			return false;
		plan_blr(s, insn, addr);
		return true;
	default: /* eret, drps: not at EL0 */
		return false;
	}
}

/* Exception generation: svc (opc 000, LL 01) is copied; the others
 * (hvc, smc, brk, hlt, tcancel, dcps) trap where they run. */
static bool plan_exception(struct seq *s, uint32_t insn, uint64_t addr)
{
	if ((insn & 0xffe0001f) != 0xd4000001)
		return false;
	return plan_copy(s, insn, addr + 4);
}

/* Set OUT's kind and code for INSN at ADDR; false: step it. */
static bool plan_insn(struct seq *s, uint32_t insn, uint64_t addr,
		      struct displaced *out)
{
	if ((insn & 0x7c000000) == 0x14000000) { /* b, bl */
		out->target = addr + (uint64_t)sext(field(insn, 0, 26), 26) * 4;
		out->kind = insn >> 31 ? DISPLACE_CALL : DISPLACE_JUMP;
		out->ret_addr = insn >> 31 ? addr + 4 : 0;
		return true;
	}
	if ((insn & 0x1f000000) == 0x10000000) /* adr, adrp */
		plan_adr(s, insn, addr);
	else if ((insn & 0x3b000000) == 0x18000000) /* ldr literal */
		return plan_ldr_lit(s, insn, addr);
	else if ((insn & 0xff000000) == 0x54000000) /* b.cond, bc.cond */
		plan_cond(s, insn, addr, 5, 19);
	else if ((insn & 0x7e000000) == 0x34000000) /* cbz, cbnz */
		plan_cond(s, insn, addr, 5, 19);
	else if ((insn & 0x7e000000) == 0x36000000) /* tbz, tbnz */
		plan_cond(s, insn, addr, 5, 14);
	else if ((insn & 0xfe000000) == 0xd6000000)
		return plan_branch_reg(s, insn, addr);
	else if ((insn & 0xff000000) == 0xd4000000)
		return plan_exception(s, insn, addr);
	else
		return plan_copy(s, insn, addr + 4);
	return true;
}

/* Reserved (op0 0000, udf among them) and unallocated (0001, 0011)
 * top-level encodings: bits 28:25. */
static bool undecodable(uint32_t insn)
{
	unsigned op0 = field(insn, 25, 4);

	return op0 == 0 || op0 == 1 || op0 == 3;
}

/* The last resort: single-step the instruction in place. */
static void plan_step(struct displaced *out, unsigned insn_len)
{
	memset(out, 0, sizeof(*out));
	out->kind = DISPLACE_STEP;
	out->insn_len = insn_len;
}

int displace_prepare(const uint8_t *insn, size_t len, uint64_t addr,
		     uint64_t slot, struct displaced *out)
{
	struct seq s = { .n = 0 };
	uint32_t w;

	plan_step(out, 0);
	if (insn == NULL || len < 4 || addr % 4 || slot % 4)
		return -EINVAL;
	memcpy(&w, insn, 4); /* little endian, as Linux runs aarch64 */
	if (undecodable(w))
		return -EINVAL;
	out->insn_len = 4;
	out->kind = DISPLACE_COPY;
	if (!plan_insn(&s, w, addr, out)) {
		plan_step(out, 4);
	} else if (out->kind == DISPLACE_COPY) {
		seq_emit(&s, slot, out);
		if ((w & 0xffe0001f) == 0xd4000001) /* svc, first */
			out->syscall_end = 4;
	}
	return 0;
}
