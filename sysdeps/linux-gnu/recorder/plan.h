/* Fetch plans: what the --fast recorder copies at a call's entry, and
 * how the copies travel to the tracer.
 *
 * The tracer compiles a function's prototype into a plan, a short array
 * of fixed-size instructions (struct plan_op), before the recorder may
 * run it.  The recorder, inside the traced process, runs the plan at
 * each call's entry with the call's argument registers and stack, and
 * appends what it copies to the call's record as chunks.  The tracer
 * later formats the call with the same lenses as at a ptrace stop,
 * reading memory through a memsrc that serves the chunks: whatever a
 * lens would read at the stop, the plan must have copied.
 *
 * This header is shared by the tracer and the freestanding recorder: no
 * libc, only fixed-width types.
 *
 * The plan machine has PLAN_NREGS 64-bit registers, all 0 at the start.
 * Every copy goes through the recorder's copy primitive
 * (process_vm_readv on its own pid), so a bad address costs a short
 * chunk, never a fault in the program. */
#ifndef LTRACE_RECORDER_PLAN_H
#define LTRACE_RECORDER_PLAN_H

#include <stdint.h>

#define PLAN_NREGS 8
/* Instructions per plan, the stop included. */
#define PLAN_MAX_OPS 64

enum plan_opcode {
	/* End of the plan. */
	PLAN_END = 0,
	/* r[dst] = the integer argument word A: the A-th integer argument
	 * register in the calling convention's order (planarch.c numbers
	 * them; 6 and up: the stack words above the return address), or,
	 * in a return plan, PLAN_ARG_RET0 and PLAN_ARG_RET1: the return
	 * value's first and second integer registers. */
	PLAN_ARG,
	/* r[dst] = the 8 bytes at r[src] + A (as much as can be read, the
	 * rest zero); nothing is recorded. */
	PLAN_LOAD,
	/* r[dst] = r[src] * A + B (wrapping), r[dst] = min(r[dst], C) when
	 * C != 0: element counts and byte lengths from arguments. */
	PLAN_MULADD,
	/* Record the bytes at r[src] up to and including the first NUL,
	 * at most A bytes. */
	PLAN_CSTR,
	/* Record r[len] bytes at r[src], at most A (0: no bound but the
	 * record's room). */
	PLAN_MEM,
	/* Record A bytes at r[src] (a constant length). */
	PLAN_FIXED,
	/* Record the stack: A bytes from the stack pointer at entry (the
	 * return address first). */
	PLAN_STACK,
	/* Record the floating point argument registers (128 bytes, as a
	 * chunk whose address is PLAN_FPR_ADDR). */
	PLAN_FPR,
	/* A loop over an array's elements (writev's iovecs): the A
	 * instructions after this one (its body) run once per element, for
	 * I from 0 to min(r[len], C, PLAN_LOOP_MAX), each time with
	 * r[dst] = r[src] + I * B; the plan goes on after the body.  The
	 * count is read once, before the first run.  A body that is empty,
	 * runs past the plan's end, or holds an instruction that is not
	 * valid or another PLAN_LOOP ends the plan here. */
	PLAN_LOOP,
};

/* The most runs of a loop's body: a count above it is cut there (and
 * the record says so, as when its room ran out). */
#define PLAN_LOOP_MAX (1u << 20)

/* PLAN_ARG's words for the return value (a return plan runs with the
 * argument registers of the entry and these).  A return plan reads no
 * stack word: the callee owns those words and may have changed them. */
#define PLAN_ARG_RET0 0x40000000u
#define PLAN_ARG_RET1 0x40000001u

/* The address the floating point registers' chunk claims: in no
 * mapping a program can have (non-canonical), so a lens never confuses
 * it with memory. */
#define PLAN_FPR_ADDR 0xfff0000000000000ull

struct plan_op {
	uint8_t op;  /* enum plan_opcode */
	uint8_t dst; /* register written (PLAN_ARG, _LOAD, _MULADD) */
	uint8_t src; /* register read */
	uint8_t len; /* register holding a length (PLAN_MEM) */
	uint32_t a;
	uint64_t b;
	uint64_t c;
};

/* A chunk in a record: LEN bytes copied from ADDR, which follow the
 * chunk padded with zeros to a multiple of 8.  WANTED is what the copy
 * asked for: LEN < WANTED means the byte at ADDR + LEN could not be
 * read.  A PLAN_CSTR chunk that found its NUL has WANTED = LEN (the NUL
 * included); one that hit its bound first has WANTED = LEN = A. */
struct plan_chunk {
	uint64_t addr;
	uint32_t len;
	uint32_t wanted;
};

/* Set in WANTED when the copy stopped at the end of the record's room,
 * not at unreadable memory: the byte at ADDR + LEN was not tried, so a
 * reader must not take it for unreadable. */
#define PLAN_CHUNK_CUT 0x80000000u
/* No chunk's LEN or WANTED exceeds this (the interpreter caps lengths). */
#define PLAN_LEN_MAX 0x7fffffffu

/* plan_chunk_size(LEN): bytes a chunk of LEN copied bytes takes. */
#define plan_chunk_size(len) \
	(sizeof(struct plan_chunk) + (((uint64_t)(len) + 7) & ~7ull))

#endif
