/* The fetch plan compiler: from a prototype to the plans (recorder/plan.h)
 * that the --fast recorder runs at each call's entry and at its return,
 * so that formatting the records later reads, through recmem.h, every
 * byte the lenses would have read at a ptrace entry or return stop
 * (DESIGN.md, "Fetch plans").
 *
 * What the compiler cannot express, it refuses, and the function is
 * traced with breakpoints: callbacks and printf-style packs, return
 * values read from memory that no record holds (structs returned in
 * memory or holding pointers, long doubles), out-parameters passed on
 * the stack, structs whose layout depends on their contents, and
 * whatever would take more instructions or registers than a plan has. */
#ifndef LTRACE_FETCHPLAN_H
#define LTRACE_FETCHPLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "forward.h"
#include "recorder/plan.h"

struct fetch_plan {
	struct plan_op ops[PLAN_MAX_OPS]; /* ends with PLAN_END */
	size_t nops;			  /* PLAN_END included */
	uint64_t bound;			  /* plan_bound(ops) */
};

/* Compile prototype P (NULL: the default prototype of functions without
 * one) for the limits L (-s, -A) into the entry plan *PLAN and the return
 * plan *RPLAN (the parameters after the split and the return value; just
 * PLAN_END when the return reads no memory).  Returns 0, or -1 with *WHY
 * set to a static reason when P cannot be expressed. */
int plan_compile(const struct prototype *p, const struct lens_limits *l,
		 struct fetch_plan *plan, struct fetch_plan *rplan,
		 const char **why);

/* The architecture's hook (sysdeps/linux-gnu/ARCH/planarch.c): where the
 * calling convention puts each argument at entry, as the fetch code
 * (fetch.h) reads it. */
struct plan_argloc {
	/* In stack words: word WORD (0 is the first word above the return
	 * address) and the NWORDS after it. */
	bool stack;
	uint64_t word, nwords;
	/* Else in NREGS registers, one per eightbyte: an integer argument word
	 * (PLAN_ARG's A) or, when SSE, a floating point register. */
	unsigned nregs;
	struct {
		bool sse;
		unsigned idx;
	} reg[2];
};

/* Fill LOCS[0..N) for the first N parameters of P (N: up to and
 * including a printf-style pack, or all).  Returns N; -1 when an
 * argument's place cannot be told. */
long planarch_locate(const struct prototype *p, struct plan_argloc *locs);

/* Whether a return value of type T (a scalar or a struct) is in the
 * registers a return record holds (PLAN_ARG_RET0, PLAN_ARG_RET1 and the
 * first floating point ones), rather than in memory or elsewhere. */
bool planarch_ret_in_regs(const struct type *t);

#endif
