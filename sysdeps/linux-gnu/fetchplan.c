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
#include "fetchplan.h"
#include "recorder/planrun.h"
#include "type.h"
#include "xmalloc.h"

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
};

static int fail(struct pc *pc, const char *why)
{
	if (!pc->why)
		pc->why = why;
	return -1;
}

static int emit(struct pc *pc, uint8_t code, unsigned dst, unsigned src,
		uint64_t a)
{
	struct fetch_plan *pl = pc->plan;

	if (pl->nops >= PLAN_MAX_OPS - 1)
		return fail(pc, "more copies than a plan holds");
	if (a > UINT32_MAX)
		return fail(pc, "a copy too large for a plan");
	pl->ops[pl->nops++] = (struct plan_op){ .op = code,
						.dst = (uint8_t)dst,
						.src = (uint8_t)src,
						.a = (uint32_t)a };
	return 0;
}

static struct plan_op *last_op(struct pc *pc)
{
	return &pc->plan->ops[pc->plan->nops - 1];
}

static int reg_alloc(struct pc *pc, unsigned *r)
{
	for (unsigned i = 0; i < PLAN_NREGS; i++) {
		if (!(pc->used_regs & 1u << i)) {
			pc->used_regs |= 1u << i;
			*r = i;
			return 0;
		}
	}
	return fail(pc, "more pointers at once than a plan has registers");
}

static void reg_free(struct pc *pc, unsigned r)
{
	pc->used_regs &= ~(1u << r);
}

static struct loc loc_at(const struct loc *l, uint64_t off, bool local)
{
	struct loc n = *l;

	n.off += off;
	n.local = local;
	return n;
}

static struct loc loc_mem(unsigned reg, bool local)
{
	return (struct loc){ .mem = true, .reg = reg, .local = local };
}

/* The 8 bytes at L into register DST. */
static int word_to_reg(struct pc *pc, const struct loc *l, unsigned dst)
{
	if (l->mem)
		return emit(pc, PLAN_LOAD, dst, l->reg, l->off);
	uint64_t w = l->off / 8;
	const struct plan_argloc *a = l->arg;
	if (l->off % 8)
		return fail(pc, "a misaligned word in an argument");
	if (a->stack && pc->at_return)
		return fail(pc, "an out-parameter on the stack");
	if (a->stack && w < a->nwords)
		return emit(pc, PLAN_ARG, dst, 0, 6 + a->word + w);
	if (a->stack || w >= a->nregs || a->reg[w].sse)
		return fail(pc, "a pointer in an SSE register");
	return emit(pc, PLAN_ARG, dst, 0, a->reg[w].idx);
}

enum count_kind { COUNT_CONST, COUNT_REG, COUNT_NONE };

struct count {
	enum count_kind kind;
	int64_t k;    /* COUNT_CONST */
	unsigned reg; /* COUNT_REG, allocated */
};

/* The value of integer member N (1-based) of the struct being shown. */
static int elt_count(struct pc *pc, long n, struct count *c)
{
	if (!pc->st || n < 1 || (size_t)n > pc->st->nfields)
		return fail(pc, "eltN outside a struct");
	const struct type *f = pc->st->fields[n - 1];
	if (!type_is_integer(f) && f->kind != TYPE_POINTER)
		return fail(pc, "a length that is not an integer");
	struct loc l = loc_at(&pc->st_loc, type_offsetof(pc->st, n - 1), true);
	if (reg_alloc(pc, &c->reg) < 0)
		return -1;
	c->kind = COUNT_REG;
	return word_to_reg(pc, &l, c->reg);
}

/* The return value, at the return: in its first integer register. */
static int ret_count(struct pc *pc, struct count *c)
{
	const struct type *t = pc->p->ret;
	if (!pc->at_return)
		return fail(pc, "a length from the return value");
	if (!type_is_integer(t) && t->kind != TYPE_POINTER)
		return fail(pc, "a length that is not an integer");
	if (reg_alloc(pc, &c->reg) < 0)
		return -1;
	c->kind = COUNT_REG;
	return emit(pc, PLAN_ARG, c->reg, 0, PLAN_ARG_RET0);
}

/* The value of argument N (1-based). */
static int arg_count(struct pc *pc, long n, struct count *c)
{
	if (n < 1 || n > pc->nlocs)
		return fail(pc, "a length from the return value");
	const struct type *t = pc->p->params[n - 1];
	if (!type_is_integer(t) && t->kind != TYPE_POINTER)
		return fail(pc, "a length that is not an integer");
	struct loc l = { .arg = &pc->locs[n - 1], .local = true };
	if (reg_alloc(pc, &c->reg) < 0)
		return -1;
	c->kind = COUNT_REG;
	return word_to_reg(pc, &l, c->reg);
}

/* Length expression E as a constant or in a register. */
static int count_of(struct pc *pc, const struct expr *e, struct count *c)
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
		return e->sub ? count_of(pc, e->sub, c) : 0;
	case EXPR_RETVAL:
		return ret_count(pc, c);
	}
	return fail(pc, "a length from the return value");
}

/* Copy at BASE min(C, MAX) elements of ESZ bytes, plus EXTRA bytes (the
 * byte lens_pointer reads first); frees C's register.  Returns the most
 * elements copied. */
static int copy_count(struct pc *pc, unsigned base, struct count *c,
		      uint64_t max, uint64_t esz, uint64_t extra)
{
	if (max > PLAN_LEN_MAX || (max * esz + extra) > PLAN_LEN_MAX)
		return fail(pc, "a copy too large for a plan");
	if (c->kind == COUNT_REG && max) {
		int r = emit(pc, PLAN_MULADD, c->reg, c->reg, 1);
		if (!r)
			last_op(pc)->c = max;
		/* bytes: one more step unless they are the count */
		if (esz != 1 || extra)
			r = r ?: emit(pc, PLAN_MULADD, c->reg, c->reg, esz);
		if (!r && (esz != 1 || extra))
			last_op(pc)->b = extra;
		r = r ?: emit(pc, PLAN_MEM, 0, base, max * esz + extra);
		if (!r)
			last_op(pc)->len = (uint8_t)c->reg;
		reg_free(pc, c->reg);
		return r;
	}
	if (c->kind == COUNT_REG)
		reg_free(pc, c->reg);
	uint64_t k = c->kind == COUNT_CONST && (uint64_t)c->k < max ?
			     (uint64_t)c->k :
			     max;
	if (c->kind == COUNT_REG)
		k = 0;
	if (!(k * esz + extra))
		return 0;
	return emit(pc, PLAN_FIXED, 0, base, k * esz + extra);
}

static int render(struct pc *pc, const struct type *t, const struct loc *l,
		  bool *probe);

/* Elements [0, N) of an array at L (tracer memory for the lens): unrolled,
 * unless the first one needs no copy (then none does). */
static int elements(struct pc *pc, const struct type *elt, const struct loc *l,
		    uint64_t n)
{
	size_t esz = type_sizeof(elt);

	for (uint64_t i = 0; i < n; i++) {
		size_t before = pc->plan->nops;
		struct loc el = loc_at(l, i * esz, true);
		if (render(pc, elt, &el, NULL) < 0)
			return -1;
		if (pc->plan->nops == before)
			break;
	}
	return 0;
}

/* lens_array (lenses/default.c): min(length, -A + 1) elements read one at
 * a time, -A of them shown; a zero-terminated array may stop earlier,
 * and the plan copies as if it did not. */
static int array(struct pc *pc, const struct type *t, const struct loc *l,
		 bool *probe)
{
	size_t esz = type_sizeof(t->elt);
	uint64_t max = pc->l->arraylen + 1;

	if (!t->len || !esz || (l->local && !type_array_is_fixed(t)))
		return 0;
	struct count c;
	if (count_of(pc, t->len, &c) < 0)
		return -1;
	if (c.kind == COUNT_CONST)
		max = c.k < 0 ? 0 : ((uint64_t)c.k < max ? (uint64_t)c.k : max);
	if (c.kind == COUNT_NONE && !expr_is_zero(t->len))
		max = 0;
	if (!l->local) {
		bool extra = probe && *probe;
		if (copy_count(pc, l->reg, &c, max, esz, extra) < 0)
			return -1;
		if (probe)
			*probe = false;
	} else if (c.kind == COUNT_REG) {
		reg_free(pc, c.reg);
	}
	uint64_t shown = max < pc->l->arraylen ? max : pc->l->arraylen;
	return elements(pc, t->elt, l, shown);
}

static bool is_dynamic(const struct type *f)
{
	return f->kind == TYPE_ARRAY && f->len && !type_array_is_fixed(f);
}

/* struct_fields (lenses/default.c): each member shown from the struct's
 * local copy, eltN naming its members. */
static int fields(struct pc *pc, const struct type *t, const struct loc *l)
{
	const struct type *st = pc->st;
	struct loc st_loc = pc->st_loc;
	int r = 0;

	for (size_t i = 0; i < t->nfields; i++)
		if (!l->local && is_dynamic(t->fields[i]))
			return fail(pc,
				    "a struct with a variable-length member");
	pc->st = t;
	pc->st_loc = *l;
	for (size_t i = 0; i < t->nfields && !r; i++) {
		const struct type *f = t->fields[i];
		if (lens_hidden(f))
			continue;
		struct loc fl = loc_at(l, type_offsetof(t, i), true);
		r = render(pc, f, &fl, NULL);
	}
	pc->st = st;
	pc->st_loc = st_loc;
	return r;
}

/* A pointee TO at register BASE, after lens_pointer's first byte: an
 * array reads what its lens reads, anything else its size. */
static int pointee(struct pc *pc, const struct type *to, unsigned base)
{
	bool probe = true;
	struct loc l = loc_mem(base, to->kind != TYPE_ARRAY);
	size_t n = type_sizeof(to);

	if (to->kind == TYPE_STRUCT)
		for (size_t i = 0; i < to->nfields; i++)
			if (is_dynamic(to->fields[i]))
				return fail(pc, "a struct with a "
						"variable-length member");
	if (to->kind != TYPE_ARRAY) {
		if (n == TYPE_SIZE_BAD || to->kind == TYPE_PACK)
			return fail(pc, "a pointer to a value of unknown size");
		if (emit(pc, PLAN_FIXED, 0, base, n ? n : 1) < 0)
			return -1;
		probe = false;
	}
	if (render(pc, to, &l, &probe) < 0)
		return -1;
	return probe ? emit(pc, PLAN_FIXED, 0, base, 1) : 0;
}

/* lens_pointer: void * is an address; others are followed unless
 * recursion_stop stops first (the same struct -A deep, or LENS_MAX_DEPTH
 * pointers). */
static int pointer(struct pc *pc, const struct type *t, const struct loc *l)
{
	const struct type *to = t->elt;
	size_t same = 0;
	unsigned r;

	if (to->kind == TYPE_VOID)
		return 0;
	for (size_t i = 0; i < pc->nptrs; i++)
		same += to->kind == TYPE_STRUCT && pc->ptr_types[i] == to;
	if (same >= pc->l->arraylen || pc->nptrs >= LENS_MAX_DEPTH)
		return 0;
	if (reg_alloc(pc, &r) < 0)
		return -1;
	int ret = word_to_reg(pc, l, r);
	pc->ptr_types[pc->nptrs++] = to;
	ret = ret ?: pointee(pc, to, r);
	pc->nptrs--;
	reg_free(pc, r);
	return ret;
}

static int nested(struct pc *pc, const struct type *t, const struct loc *l,
		  bool *probe)
{
	if (pc->depth >= 4 * LENS_MAX_DEPTH)
		return 0;
	pc->depth++;
	int r = t->kind == TYPE_ARRAY ? array(pc, t, l, probe) :
					fields(pc, t, l);
	pc->depth--;
	return r;
}

static int lens_default_reads(struct pc *pc, const struct type *t,
			      const struct loc *l, bool *probe)
{
	switch (t->kind) {
	case TYPE_POINTER:
		return pointer(pc, t, l);
	case TYPE_ARRAY:
	case TYPE_STRUCT:
		return nested(pc, t, l, probe);
	case TYPE_PACK:
		return fail(pc, "a printf-style format");
	default:
		return 0;
	}
}

/* print_elts over min(length, -s + 1) characters at BASE: up to the NUL
 * for the zero forms (a C string: PLAN_CSTR), else all of them. */
static int string_chars(struct pc *pc, const struct type *t, unsigned base,
			bool *probe)
{
	size_t esz = type_char_size(t->elt);
	uint64_t max = pc->l->strlen + 1;
	struct count c = { COUNT_NONE, 0, 0 };

	uint64_t extra = probe && *probe;

	if (max > PLAN_LEN_MAX / 4)
		return fail(pc, "a copy too large for a plan");
	if (probe)
		*probe = false;
	if (expr_is_zero(t->len) && esz == 1)
		return emit(pc, PLAN_CSTR, 0, base, max);
	if (t->len && !expr_is_zero(t->len) && count_of(pc, t->len, &c) < 0)
		return -1;
	if (c.kind == COUNT_CONST && c.k < 0)
		c.kind = COUNT_NONE;
	return copy_count(pc, base, &c, max, esz, extra);
}

/* string_array: characters of an array; an array in tracer memory is
 * shown from there. */
static int string_array(struct pc *pc, const struct type *t,
			const struct loc *l, bool *probe)
{
	if (!type_char_size(t->elt))
		return lens_default_reads(pc, t, l, probe);
	if (l->local)
		return 0;
	return string_chars(pc, t, l->reg, probe);
}

static int string_pointer(struct pc *pc, const struct type *t,
			  const struct loc *l)
{
	const struct type *to = t->elt;
	unsigned r;

	if (to->kind != TYPE_ARRAY && !type_char_size(to))
		return pointer(pc, t, l);
	if (reg_alloc(pc, &r) < 0)
		return -1;
	int ret = word_to_reg(pc, l, r);
	if (!ret && to->kind == TYPE_ARRAY) {
		struct loc al = loc_mem(r, false);
		ret = string_array(pc, to, &al, NULL);
	} else if (!ret) {
		size_t esz = type_char_size(to);
		uint64_t max = pc->l->strlen + 1;
		ret = max > PLAN_LEN_MAX / 4 ?
			      fail(pc, "a copy too large for a plan") :
		      esz == 1 ? emit(pc, PLAN_CSTR, 0, r, max) :
				 emit(pc, PLAN_FIXED, 0, r, max * esz);
	}
	reg_free(pc, r);
	return ret;
}

static int lens_string_reads(struct pc *pc, const struct type *t,
			     const struct loc *l, bool *probe)
{
	if (t->kind == TYPE_POINTER)
		return string_pointer(pc, t, l);
	if (t->kind == TYPE_ARRAY)
		return string_array(pc, t, l, probe);
	if (type_is_integer(t) && t->kind != TYPE_CHAR)
		return 0; /* a wide character */
	return lens_default_reads(pc, t, l, probe);
}

/* lens_bitvec: the bytes of the value, or of its pointee. */
static int lens_bitvec_reads(struct pc *pc, const struct type *t,
			     const struct loc *l, bool *probe)
{
	const struct type *v = t->kind == TYPE_POINTER ? t->elt : t;
	size_t n = type_sizeof(v);
	unsigned r;

	if (!n || n > 128 || v->kind == TYPE_PACK)
		return lens_default_reads(pc, t, l, probe);
	if (t->kind != TYPE_POINTER) {
		if (l->local)
			return 0;
		if (probe)
			*probe = false;
		return emit(pc, PLAN_FIXED, 0, l->reg, n);
	}
	if (reg_alloc(pc, &r) < 0)
		return -1;
	int ret = word_to_reg(pc, l, r);
	ret = ret ?: emit(pc, PLAN_FIXED, 0, r, n);
	reg_free(pc, r);
	return ret;
}

/* lens_fd (lenses/fd.c): a FILE * under -y reads its _fileno, 4 bytes
 * at abi_file_fileno; an fd reads nothing (its path comes from /proc
 * when the record is shown). */
static int lens_fd_reads(struct pc *pc, const struct type *t,
			 const struct loc *l)
{
	unsigned r;

	if (t->kind != TYPE_POINTER || !pc->l->fds)
		return 0;
	if (reg_alloc(pc, &r) < 0)
		return -1;
	int ret = word_to_reg(pc, l, r);
	ret = ret ?: emit(pc, PLAN_MULADD, r, r, 1);
	if (!ret)
		last_op(pc)->b = abi_file_fileno;
	ret = ret ?: emit(pc, PLAN_FIXED, 0, r, 4);
	reg_free(pc, r);
	return ret;
}

/* What rendering T at L reads, by its lens (lenses/value.c, render).
 * PROBE, when not NULL, says that the first byte at L must be covered
 * too (lens_pointer read it); an array's copy covers it and clears it. */
static int render(struct pc *pc, const struct type *t, const struct loc *l,
		  bool *probe)
{
	bool num = type_is_integer(t) || t->kind == TYPE_POINTER;

	switch (t->lens) {
	case LENS_HIDE:
	case LENS_ADDR:
		return 0;
	case LENS_BOOL:
	case LENS_GUESS:
		return num ? 0 : lens_default_reads(pc, t, l, probe);
	case LENS_ENUM:
		return type_is_integer(t) ? 0 :
					    lens_default_reads(pc, t, l, probe);
	case LENS_BITVEC:
		return lens_bitvec_reads(pc, t, l, probe);
	case LENS_STRING:
		return lens_string_reads(pc, t, l, probe);
	case LENS_FD:
		return lens_fd_reads(pc, t, l);
	default:
		return lens_default_reads(pc, t, l, probe);
	}
}

/* Parameter I: an array decays to a pointer to it (fetched_value in
 * calltext.c). */
static int param(struct pc *pc, size_t i)
{
	const struct type *t = pc->p->params[i];
	struct loc l = { .arg = &pc->locs[i], .local = true };
	unsigned r;

	if (t->kind != TYPE_ARRAY)
		return render(pc, t, &l, NULL);
	if (reg_alloc(pc, &r) < 0)
		return -1;
	int ret = word_to_reg(pc, &l, r);
	struct loc al = loc_mem(r, false);
	ret = ret ?: render(pc, t, &al, NULL);
	reg_free(pc, r);
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
	return render(&dry, t, &l, NULL) < 0 || scratch.nops;
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
		return fail(pc, "a return value read from memory");
	if (t->kind == TYPE_STRUCT)
		return reads_at_return(pc, t) ?
			       fail(pc, "a return value read from memory") :
			       0;
	return render(pc, t, &l, NULL);
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
	if (words && emit(pc, PLAN_STACK, 0, 0, 8 + 8 * words) < 0)
		return -1;
	return sse ? emit(pc, PLAN_FPR, 0, 0, 0) : 0;
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
		r = pc.nlocs < 0 ? fail(&pc, "an argument the ABI code cannot "
					     "place") :
		    l->fds && fdpath_frees(p->name) ?
				   fail(&pc, "it closes descriptors (-y)") :
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
