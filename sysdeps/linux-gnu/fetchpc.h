/* The fetch plan compiler's own interface (fetchplan.c, fetchlens.c):
 * fetchplan.c owns the plan being built (instructions, registers, counts)
 * and the prototype's parameters; fetchlens.c walks a value's type as its
 * lens reads it and asks for the copies.  Included by those two only. */
#ifndef LTRACE_FETCHPC_H
#define LTRACE_FETCHPC_H

#include <stdbool.h>
#include <stdint.h>

#include "fetchplan.h"
#include "forward.h"
#include "lens.h"

/* Where a value is: in memory at register REG + OFF (copied by an
 * earlier instruction), or in an argument's words from byte OFF.  LOCAL
 * when the lens holds it in tracer memory (fetched, or localized as part
 * of a struct or an array's element). */
struct loc {
	bool mem;
	unsigned reg;
	uint64_t off;
	const struct plan_argloc *arg;
	bool local;
};

struct pc {
	const struct lens_limits *l;
	const struct prototype *p;
	struct plan_argloc *locs;
	long nlocs;
	struct fetch_plan *plan;
	unsigned used_regs; /* bit per register */
	const char *why;
	size_t nptrs;
	const struct type *ptr_types[LENS_MAX_DEPTH];
	size_t depth;
	const struct type *st; /* the struct whose members eltN names */
	struct loc st_loc;
	/* Compiling the return plan: arguments are the entry's registers,
	 * and the return value is known. */
	bool at_return;
	/* Compiling a loop's body (PLAN_LOOP): no loop in it. */
	bool in_loop;
};

enum count_kind { COUNT_CONST, COUNT_REG, COUNT_NONE };

struct count {
	enum count_kind kind;
	int64_t k;    /* COUNT_CONST */
	unsigned reg; /* COUNT_REG, allocated */
};

/* ---- fetchplan.c ---- */

/* Fail with WHY (the first reason kept): -1. */
int pc_fail(struct pc *pc, const char *why);
/* Append instruction CODE (DST, SRC, A): 0, or -1 when the plan is full. */
int pc_emit(struct pc *pc, uint8_t code, unsigned dst, unsigned src,
	    uint64_t a);
/* The instruction appended last. */
struct plan_op *pc_last_op(struct pc *pc);
/* A free register into *R: 0, or -1 when none is. */
int pc_reg_alloc(struct pc *pc, unsigned *r);
void pc_reg_free(struct pc *pc, unsigned r);
/* L moved on by OFF bytes, LOCAL as said. */
struct loc pc_loc_at(const struct loc *l, uint64_t off, bool local);
/* Memory at register REG. */
struct loc pc_loc_mem(unsigned reg, bool local);
/* The 8 bytes at L into register DST. */
int pc_word_to_reg(struct pc *pc, const struct loc *l, unsigned dst);
/* Length expression E as a constant or in a register (allocated). */
int pc_count_of(struct pc *pc, const struct expr *e, struct count *c);
/* Copy at BASE min(C, MAX) elements of ESZ bytes, plus EXTRA bytes;
 * frees C's register. */
int pc_copy_count(struct pc *pc, unsigned base, struct count *c, uint64_t max,
		  uint64_t esz, uint64_t extra);

/* ---- fetchlens.c ---- */

/* What rendering T at L reads, by its lens, as copies (PROBE: see
 * fetchlens.c). */
int pc_render(struct pc *pc, const struct type *t, const struct loc *l,
	      bool *probe);

#endif
