/* The fetch plan compiler (plan.h).  It walks a prototype the way the
 * lenses (lenses/) walk its values, and for every read a lens makes
 * through its memsrc at the entry stop it emits a copy that covers it:
 * DESIGN.md, "Fetch plans", says which reads and why.  What depends on a
 * value the compiler cannot know (the length of a zero-terminated array,
 * a pointer equal to one being shown) is covered by copying the most the
 * lens could read, never less. */
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "expr.h"
#include "fdpath.h"
#include "lens.h"
#include "fetchpc.h"
#include "fetchplan.h"
#include "recorder/planrun.h"
#include "type.h"
#include "xmalloc.h"

int pc_fail(struct pc *pc, const char *why)
{
	if (!pc->why)
		pc->why = why;
	return -1;
}

int pc_emit(struct pc *pc, uint8_t code, unsigned dst, unsigned src, uint64_t a)
{
	struct fetch_plan *pl = pc->plan;

	if (pl->nops >= PLAN_MAX_OPS - 1)
		return pc_fail(pc, "more copies than a plan holds");
	if (a > UINT32_MAX)
		return pc_fail(pc, "a copy too large for a plan");
	pl->ops[pl->nops++] = (struct plan_op){ .op = code,
						.dst = (uint8_t)dst,
						.src = (uint8_t)src,
						.a = (uint32_t)a };
	return 0;
}

struct plan_op *pc_last_op(struct pc *pc)
{
	return &pc->plan->ops[pc->plan->nops - 1];
}

int pc_reg_alloc(struct pc *pc, unsigned *r)
{
	for (unsigned i = 0; i < PLAN_NREGS; i++) {
		if (!(pc->used_regs & 1u << i)) {
			pc->used_regs |= 1u << i;
			*r = i;
			return 0;
		}
	}
	return pc_fail(pc, "more pointers at once than a plan has registers");
}

void pc_reg_free(struct pc *pc, unsigned r)
{
	pc->used_regs &= ~(1u << r);
}

struct loc pc_loc_at(const struct loc *l, uint64_t off, bool local)
{
	struct loc n = *l;

	n.off += off;
	n.local = local;
	return n;
}

struct loc pc_loc_mem(unsigned reg, bool local)
{
	return (struct loc){ .mem = true, .reg = reg, .local = local };
}

/* The 8 bytes at L into register DST. */
int pc_word_to_reg(struct pc *pc, const struct loc *l, unsigned dst)
{
	if (l->mem)
		return pc_emit(pc, PLAN_LOAD, dst, l->reg, l->off);
	uint64_t w = l->off / 8;
	const struct plan_argloc *a = l->arg;
	if (l->off % 8)
		return pc_fail(pc, "a misaligned word in an argument");
	if (a->stack && pc->at_return)
		return pc_fail(pc, "an out-parameter on the stack");
	if (a->stack && w < a->nwords)
		return pc_emit(pc, PLAN_ARG, dst, 0, 6 + a->word + w);
	if (a->stack || w >= a->nregs || a->reg[w].sse)
		return pc_fail(pc, "a pointer in an SSE register");
	return pc_emit(pc, PLAN_ARG, dst, 0, a->reg[w].idx);
}

/* The value of integer member N (1-based) of the struct being shown. */
static int elt_count(struct pc *pc, long n, struct count *c)
{
	if (!pc->st || n < 1 || (size_t)n > pc->st->nfields)
		return pc_fail(pc, "eltN outside a struct");
	const struct type *f = pc->st->fields[n - 1];
	if (!type_is_integer(f) && f->kind != TYPE_POINTER)
		return pc_fail(pc, "a length that is not an integer");
	struct loc l =
		pc_loc_at(&pc->st_loc, type_offsetof(pc->st, n - 1), true);
	if (pc_reg_alloc(pc, &c->reg) < 0)
		return -1;
	c->kind = COUNT_REG;
	return pc_word_to_reg(pc, &l, c->reg);
}

/* The return value, at the return: in its first integer register. */
static int ret_count(struct pc *pc, struct count *c)
{
	const struct type *t = pc->p->ret;
	if (!pc->at_return)
		return pc_fail(pc, "a length from the return value");
	if (!type_is_integer(t) && t->kind != TYPE_POINTER)
		return pc_fail(pc, "a length that is not an integer");
	if (pc_reg_alloc(pc, &c->reg) < 0)
		return -1;
	c->kind = COUNT_REG;
	return pc_emit(pc, PLAN_ARG, c->reg, 0, PLAN_ARG_RET0);
}

/* The value of argument N (1-based). */
static int arg_count(struct pc *pc, long n, struct count *c)
{
	if (n < 1 || n > pc->nlocs)
		return pc_fail(pc, "a length from the return value");
	const struct type *t = pc->p->params[n - 1];
	if (!type_is_integer(t) && t->kind != TYPE_POINTER)
		return pc_fail(pc, "a length that is not an integer");
	struct loc l = { .arg = &pc->locs[n - 1], .local = true };
	if (pc_reg_alloc(pc, &c->reg) < 0)
		return -1;
	c->kind = COUNT_REG;
	return pc_word_to_reg(pc, &l, c->reg);
}

/* Length expression E as a constant or in a register. */
int pc_count_of(struct pc *pc, const struct expr *e, struct count *c)
{
	c->kind = COUNT_NONE;
	switch (e->kind) {
	case EXPR_NUM:
		c->kind = COUNT_CONST;
		c->k = e->num;
		return 0;
	case EXPR_ARG:
		return arg_count(pc, e->num, c);
	case EXPR_ELT:
		return elt_count(pc, e->num, c);
	case EXPR_ZERO:
		return e->sub ? pc_count_of(pc, e->sub, c) : 0;
	case EXPR_RETVAL:
		return ret_count(pc, c);
	}
	return pc_fail(pc, "a length from the return value");
}

/* Copy at BASE min(C, MAX) elements of ESZ bytes, plus EXTRA bytes (the
 * byte lens_pointer reads first); frees C's register.  Returns the most
 * elements copied. */
int pc_copy_count(struct pc *pc, unsigned base, struct count *c, uint64_t max,
		  uint64_t esz, uint64_t extra)
{
	if (max > PLAN_LEN_MAX || (max * esz + extra) > PLAN_LEN_MAX)
		return pc_fail(pc, "a copy too large for a plan");
	if (c->kind == COUNT_REG && max) {
		int r = pc_emit(pc, PLAN_MULADD, c->reg, c->reg, 1);
		if (!r)
			pc_last_op(pc)->c = max;
		/* bytes: one more step unless they are the count */
		if (esz != 1 || extra)
			r = r ?: pc_emit(pc, PLAN_MULADD, c->reg, c->reg, esz);
		if (!r && (esz != 1 || extra))
			pc_last_op(pc)->b = extra;
		r = r ?: pc_emit(pc, PLAN_MEM, 0, base, max * esz + extra);
		if (!r)
			pc_last_op(pc)->len = (uint8_t)c->reg;
		pc_reg_free(pc, c->reg);
		return r;
	}
	if (c->kind == COUNT_REG)
		pc_reg_free(pc, c->reg);
	uint64_t k = c->kind == COUNT_CONST && (uint64_t)c->k < max ?
			     (uint64_t)c->k :
			     max;
	if (c->kind == COUNT_REG)
		k = 0;
	if (!(k * esz + extra))
		return 0;
	return pc_emit(pc, PLAN_FIXED, 0, base, k * esz + extra);
}

/* Parameter I: an array decays to a pointer to it (fetched_value in
 * calltext.c). */
static int param(struct pc *pc, size_t i)
{
	const struct type *t = pc->p->params[i];
	struct loc l = { .arg = &pc->locs[i], .local = true };
	unsigned r;

	if (t->kind != TYPE_ARRAY)
		return pc_render(pc, t, &l, NULL);
	if (pc_reg_alloc(pc, &r) < 0)
		return -1;
	int ret = pc_word_to_reg(pc, &l, r);
	struct loc al = pc_loc_mem(r, false);
	ret = ret ?: pc_render(pc, t, &al, NULL);
	pc_reg_free(pc, r);
	return ret;
}

/* Whether T, shown at the return from registers, would read memory:
 * a dry run into a scratch plan. */
static bool reads_at_return(struct pc *pc, const struct type *t)
{
	struct fetch_plan scratch = { .nops = 0 };
	struct plan_argloc ret = { .nregs = 2 };
	struct pc dry = {
		.l = pc->l, .p = pc->p, .plan = &scratch, .at_return = true
	};
	struct loc l = { .arg = &ret, .local = true };

	ret.reg[0].idx = PLAN_ARG_RET0;
	ret.reg[1].idx = PLAN_ARG_RET1;
	return pc_render(&dry, t, &l, NULL) < 0 || scratch.nops;
}

/* The return value's reads.  A scalar or a pointer is in the first
 * integer return register; a struct in registers may have words in
 * floating point registers; what the calling convention returns
 * elsewhere (planarch_ret_in_regs) is read from where no record has
 * it: those stay in ptrace mode, if their text reads memory. */
static int retval(struct pc *pc)
{
	const struct type *t = pc->p->ret;
	struct plan_argloc ret = { .nregs = 1 };
	struct loc l = { .arg = &ret, .local = true };

	ret.reg[0].idx = PLAN_ARG_RET0;
	if (t->kind == TYPE_ARRAY || !planarch_ret_in_regs(t))
		return pc_fail(pc, "a return value read from memory");
	if (t->kind == TYPE_STRUCT)
		return reads_at_return(pc, t) ?
			       pc_fail(pc, "a return value read from memory") :
			       0;
	return pc_render(pc, t, &l, NULL);
}

/* The stack words and the SSE registers the arguments take. */
static int arg_words(struct pc *pc)
{
	uint64_t words = 0;
	bool sse = false;

	for (long i = 0; i < pc->nlocs; i++) {
		const struct plan_argloc *a = &pc->locs[i];
		if (a->stack && a->word + a->nwords > words)
			words = a->word + a->nwords;
		for (unsigned j = 0; j < a->nregs; j++)
			sse |= a->reg[j].sse;
	}
	if (words && pc_emit(pc, PLAN_STACK, 0, 0, 8 + 8 * words) < 0)
		return -1;
	return sse ? pc_emit(pc, PLAN_FPR, 0, 0, 0) : 0;
}

/* The entry plan: the parameters shown at the entry (before the split),
 * and the stack words and floating point registers every parameter is fetched from
 * then. */
static int compile(struct pc *pc)
{
	const struct prototype *p = pc->p;

	if (arg_words(pc) < 0)
		return -1;
	for (long i = 0; i < pc->nlocs && (size_t)i < p->split; i++)
		if (param(pc, (size_t)i) < 0)
			return -1;
	return 0;
}

/* The return plan: the parameters shown at the return, read through the
 * entry's registers, and the return value. */
static int compile_return(struct pc *pc)
{
	const struct prototype *p = pc->p;

	pc->at_return = true;
	pc->used_regs = 0;
	for (long i = (long)p->split; i < pc->nlocs; i++)
		if (param(pc, (size_t)i) < 0)
			return -1;
	return retval(pc);
}

static void plan_end(struct fetch_plan *plan)
{
	plan->ops[plan->nops++] = (struct plan_op){ .op = PLAN_END };
	plan->bound = plan_bound(plan->ops);
}

int plan_compile(const struct prototype *p, const struct lens_limits *l,
		 struct fetch_plan *plan, struct fetch_plan *rplan,
		 const char **why)
{
	struct pc pc = { .l = l, .p = p, .plan = plan };
	int r = 0;

	memset(plan, 0, sizeof(*plan));
	memset(rplan, 0, sizeof(*rplan));
	if (p) {
		pc.locs =
			xcalloc(p->nparams ? p->nparams : 1, sizeof(*pc.locs));
		pc.nlocs = planarch_locate(p, pc.locs);
		r = pc.nlocs < 0 ?
			    pc_fail(&pc, "an argument the ABI code cannot "
					 "place") :
		    l->fds && fdpath_frees(p->name) ?
			    pc_fail(&pc, "it closes descriptors (-y)") :
			    compile(&pc);
		pc.plan = rplan;
		if (!r)
			r = compile_return(&pc);
		free(pc.locs);
	}
	plan_end(plan);
	plan_end(rplan);
	*why = r < 0 ? pc.why : NULL;
	return r < 0 ? -1 : 0;
}
