/* Displaced execution of one instruction (implemented per architecture
 * in sysdeps/linux-gnu/ARCH/displace.c).
 *
 * A return breakpoint replaces the first bytes of the instruction at a
 * return address.  To let the tracee go on, that instruction is executed
 * from a copy in a scratch page mapped into the tracee, followed by a jump
 * back to the instruction after it; or, when it is a jump or a call, it is
 * emulated by setting registers.  Single-stepping is the counted last
 * resort.  The displacement for an address is computed once and is then used by
 * every thread that returns there, concurrently: the copy is immutable. */
#ifndef LTRACE_DISPLACE_H
#define LTRACE_DISPLACE_H

#include <stddef.h>
#include <stdint.h>

/* Bytes reserved in the scratch page per displaced instruction. */
#define DISPLACE_CELL_SIZE 64

enum displace_kind {
	DISPLACE_COPY, /* run CODE at the cell: set IP = cell */
	DISPLACE_JUMP, /* IP = target */
	DISPLACE_CALL, /* push ret_addr; IP = target */
	DISPLACE_STEP, /* cannot relocate: single-step in place */
};

struct displaced {
	enum displace_kind kind;
	unsigned insn_len; /* length of the original instruction */
	uint64_t target;   /* JUMP, CALL */
	uint64_t ret_addr; /* CALL: address pushed */
	uint8_t code[DISPLACE_CELL_SIZE]; /* COPY: bytes for the cell */
	unsigned code_len;
	/* COPY of a system call instruction, at the cell's start: the
	 * offset just past it, where a thread in the call stops (0: not a
	 * system call). */
	unsigned syscall_end;
};

/* Prepare the execution of the instruction at tracee address ADDR whose
 * original bytes are INSN[0..LEN) (LEN at least the longest instruction,
 * ARCH_MAX_INSN, when available; fewer only at the end of a mapping), with
 * its copy to be placed at CELL (an address in the scratch page).  Returns 0, or -EINVAL when the bytes do not
 * decode (the displacement is then DISPLACE_STEP). */
int displace_prepare(const uint8_t *insn, size_t len, uint64_t addr,
		     uint64_t cell, struct displaced *out);

#endif
