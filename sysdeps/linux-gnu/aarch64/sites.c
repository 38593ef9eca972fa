/* aarch64 call sites built without a PLT (gcc -fno-plt).  Such code
 * loads the callee from its GOT slot and branches through a register:
 *	adrp xN, PAGE(slot)
 *	ldr  xM, [xN, #:lo12:slot]	(xM often xN)
 *	...				(other instructions may come between)
 *	blr  xM				a call
 *	br   xM				a tail call (or mov x16, xM; br x16)
 * The site is the blr/br: the breakpoint goes there, and a call returns
 * to its address + 4.  One linear sweep of 4-byte words tracks, per
 * register, the address an adrp (and an add of a low offset) put in it
 * and the GOT slot an ldr from that address loaded into it.  Any other
 * instruction forgets every register it may write (Rd/Rt; for loads and
 * stores also the base, which write-back changes, Rt2 of a pair and Rs
 * of an exclusive or atomic), a call forgets them all (x0-x18 and x30
 * are the callee's), and code after an unconditional branch starts
 * afresh: so only straight-line loads are trusted. */
#include "../plt_arch.h"

#include <string.h>

struct track {
	uint64_t addr[32]; /* adrp (+ add) value */
	uint64_t slot[32]; /* the GOT slot loaded */
	uint32_t has_addr; /* bit R: addr[R] valid */
	uint32_t has_slot; /* bit R: slot[R] valid */
};

static unsigned reg(uint32_t w, unsigned lo)
{
	return (w >> lo) & 31;
}

static void forget(struct track *t, unsigned r)
{
	t->has_addr &= ~(1u << r);
	t->has_slot &= ~(1u << r);
}

/* An instruction of no interest: forget every register it may write
 * (C4.1: loads and stores are op0 x1x0, pairs x01x, exclusives 001000,
 * atomics and compare-and-swap 111x00 with bit 21 and no option bits;
 * everything else writes at most Rd, bits 4:0). */
static void forget_written(struct track *t, uint32_t w)
{
	forget(t, reg(w, 0));
	if ((w & 0x0a000000) != 0x08000000)
		return;
	forget(t, reg(w, 5));
	if ((w & 0x3a000000) == 0x28000000)
		forget(t, reg(w, 10));
	else if ((w & 0x3f000000) == 0x08000000 ||
		 (w & 0x3b200c00) == 0x38200000)
		forget(t, reg(w, 16));
}

static uint64_t adrp_value(uint32_t w, uint64_t pc)
{
	uint32_t imm = ((w >> 29) & 3) | ((w >> 5) & 0x7ffff) << 2;
	int64_t pages = (int64_t)((uint64_t)imm << 43) >> 43;

	return (pc & ~(uint64_t)0xfff) + (uint64_t)pages * 4096;
}

/* adrp, add #imm (unshifted) and ldr x, [x, #imm]: tracked; true. */
static bool track_load(struct track *t, uint32_t w, uint64_t pc)
{
	unsigned d = reg(w, 0), n = reg(w, 5);
	uint64_t imm = (w >> 10) & 0xfff;

	if ((w & 0x9f000000) == 0x90000000) { /* adrp xD */
		forget(t, d);
		t->addr[d] = adrp_value(w, pc);
		t->has_addr |= 1u << d;
	} else if ((w & 0xffc00000) == 0x91000000 && /* add xD, xN, #imm */
		   (t->has_addr >> n & 1) && d != 31) {
		uint64_t v = t->addr[n] + imm;
		forget(t, d);
		t->addr[d] = v;
		t->has_addr |= 1u << d;
	} else if ((w & 0xffc00000) == 0xf9400000 && /* ldr xD, [xN, #imm] */
		   (t->has_addr >> n & 1) && n != 31) {
		uint64_t v = t->addr[n] + imm * 8;
		forget(t, d);
		t->slot[d] = v;
		t->has_slot |= 1u << d;
	} else if ((w & 0xffe0ffe0) == 0xaa0003e0) { /* mov xD, xM */
		unsigned m = reg(w, 16);
		uint64_t v = t->slot[m];
		bool has = t->has_slot >> m & 1;
		forget(t, d);
		t->slot[d] = v;
		t->has_slot |= (uint32_t)has << d;
	} else {
		return false;
	}
	return true;
}

/* blr xM (kind CALL) or br xM (JUMP) through a tracked slot: report. */
static void check_site(struct track *t, uint32_t w, uint64_t pc,
		       plt_slot_fn *is_slot, plt_site_fn *fn, void *ctx)
{
	unsigned m = reg(w, 5);
	struct plt_site site = { .addr = pc, .len = 4 };

	site.kind = (w & 0xfffffc1f) == 0xd63f0000 ? PLT_SITE_CALL :
						     PLT_SITE_JUMP;
	site.got = t->slot[m];
	if ((t->has_slot >> m & 1) && is_slot(ctx, site.got))
		fn(ctx, &site);
}

void plt_arch_scan_sites(const uint8_t *code, size_t size, uint64_t addr,
			 plt_slot_fn *is_slot, plt_site_fn *fn, void *ctx)
{
	struct track t = { .has_addr = 0, .has_slot = 0 };

	for (size_t off = (4 - addr % 4) % 4; off + 4 <= size; off += 4) {
		uint32_t w;
		uint64_t pc = addr + off;

		memcpy(&w, code + off, 4);
		if (track_load(&t, w, pc))
			continue;
		if ((w & 0xfffffc1f) == 0xd63f0000 || /* blr */
		    (w & 0xfffffc1f) == 0xd61f0000) { /* br */
			check_site(&t, w, pc, is_slot, fn, ctx);
			t.has_addr = t.has_slot = 0;
		} else if ((w & 0x7c000000) == 0x14000000 || /* b, bl */
			   (w & 0xfffffc1f) == 0xd65f0000) { /* ret */
			t.has_addr = t.has_slot = 0;
		} else {
			forget_written(&t, w);
		}
	}
}
