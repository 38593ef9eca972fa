/* Entry patching for -x in --fast (fastentry.c; DESIGN.md, "Fast
 * mode"): the x86-64 shapes.  A function's first whole instructions, at
 * least RECPATCH_JMP_LEN bytes, become a jmp rel32 to its entry cell in
 * scratch memory:
 *
 *	push $index			68 imm32
 *	jmp *xentry(%rip)		FF 25 rel32: rec_xentry
 *	the relocated prologue		RIP-relative operands and Jcc
 *					retargeted
 *	jmp entry+len			E9 rel32
 *	xentry: .quad rec_xentry
 *
 * rec_xentry records the call and goes on at the relocated prologue.
 * Nothing here depends on register values: one cell serves every
 * thread. */
#ifndef LTRACE_X86_64_RECPATCH_H
#define LTRACE_X86_64_RECPATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"

#define RECPATCH_JMP_LEN 5
#define RECPATCH_CELL_SIZE 64
/* The relocated prologue's offset in the cell; the push's length. */
#define RECPATCH_COPY 11
#define RECPATCH_PUSH_LEN 5

struct recpatch {
	unsigned len;			  /* bytes of the function replaced */
	uint8_t jmp[RECPATCH_JMP_LEN];	  /* what replaces the first of them */
	uint8_t cell[RECPATCH_CELL_SIZE]; /* the entry cell's bytes */
	unsigned copy;			  /* the relocated prologue's offset */
};

/* Plan the patch of the function at ADDR whose SIZE bytes (the symbol's)
 * are FN, its cell at CELL, its index in the recorder's table INDEX,
 * rec_xentry at XENTRY.  0, or -1 with *WHY saying why the function
 * must keep its breakpoint: a call, far branch, trap or system call in
 * the prologue (a Jcc is retargeted; a near ret or jmp ends the copy),
 * a function too small, an operand or the way back out of
 * rel32 reach, or a jump anywhere in the function (a linear decode)
 * into the replaced bytes past the first. */
int recpatch_plan(const uint8_t *fn, size_t size, uint64_t addr, uint64_t cell,
		  uint32_t index, uint64_t xentry, struct recpatch *out,
		  const char **why);

/* A thread at offset OFF of a cell's head (before RECPATCH_COPY), its
 * registers R: put back at the function's ENTRY as it was before the
 * jump there, the push undone.  False if OFF is not in the head. */
static inline bool recpatch_head_undo(uint64_t off, uint64_t entry,
				      struct arch_regs *r)
{
	if (off >= RECPATCH_COPY)
		return false;
	if (off >= RECPATCH_PUSH_LEN)
		r->r.rsp += sizeof(uint64_t);
	arch_set_ip(r, entry);
	return true;
}

#endif
