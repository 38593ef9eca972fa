/* The fetch plan compiler's walk over values (fetchpc.h): for each lens
 * (lenses/), the reads it makes through its memsrc at a stop, as the
 * copies of a plan that cover them (DESIGN.md, "Fetch plans").  What
 * depends on a value the compiler cannot know is covered by copying the
 * most the lens could read, never less. */
#include "abi.h"
#include "expr.h"
#include "fetchpc.h"
#include "lens.h"
#include "type.h"

/* Whether elements [0, N) at L go in a loop (PLAN_LOOP): more than one,
 * in a copy the plan made, and not inside another loop's body. */
static bool loop_ok(const struct pc *pc, const struct loc *l, uint64_t n)
{
	return n > 1 && l->mem && !pc->in_loop;
}

/* Elements [0, N) at L in a loop whose runs register CNT counts (as
 * many as the array has; PLAN_NREGS: N), at most N: one body, the
 * first element's reads from the element's register, so that -A
 * 9999999 costs one body, not one per element (the plan has 64
 * instructions).  No loop when the body copies nothing. */
static int loop(struct pc *pc, const struct type *elt, const struct loc *l,
		uint64_t n, unsigned cnt)
{
	unsigned e;

	if (cnt == PLAN_NREGS) {
		if (pc_reg_alloc(pc, &cnt) < 0 ||
		    pc_emit(pc, PLAN_MULADD, cnt, cnt, 0) < 0)
			return -1;
		pc_last_op(pc)->b = n;
	}
	if (pc_reg_alloc(pc, &e) < 0 || pc_emit(pc, PLAN_LOOP, e, l->reg, 0))
		return -1;
	size_t at = pc->plan->nops - 1;
	struct plan_op *op = pc_last_op(pc);
	op->len = (uint8_t)cnt;
	op->b = type_sizeof(elt);
	op->c = n;
	pc_reg_free(pc, cnt); /* the loop reads it once, before the body */
	struct loc base = pc_loc_mem(e, true);
	struct loc el = pc_loc_at(&base, l->off, true);
	pc->in_loop = true;
	int r = pc_render(pc, elt, &el, NULL);
	pc->in_loop = false;
	pc_reg_free(pc, e);
	if (r < 0)
		return -1;
	size_t body = pc->plan->nops - at - 1;
	if (!body)
		pc->plan->nops = at;
	else
		pc->plan->ops[at].a = (uint32_t)body;
	return 0;
}

/* Elements [0, N) of an array at L (tracer memory for the lens), CNT
 * their count's register or PLAN_NREGS: in a loop, or unrolled, unless
 * the first one needs no copy (then none does). */
static int elements(struct pc *pc, const struct type *elt, const struct loc *l,
		    uint64_t n, unsigned cnt)
{
	size_t esz = type_sizeof(elt);

	if (loop_ok(pc, l, n))
		return loop(pc, elt, l, n, cnt);
	if (cnt != PLAN_NREGS)
		pc_reg_free(pc, cnt);
	for (uint64_t i = 0; i < n; i++) {
		size_t before = pc->plan->nops;
		struct loc el = pc_loc_at(l, i * esz, true);
		if (pc_render(pc, elt, &el, NULL) < 0)
			return -1;
		if (pc->plan->nops == before)
			break;
	}
	return 0;
}

/* lens_array (lenses/default.c): min(length, -A + 1) elements read one at
 * a time, -A of them shown; a zero-terminated array may stop earlier,
 * and the plan copies as if it did not.  A loop over them runs as many
 * times as the array's count says, up to -A (the register holds the
 * count's whole word: for a narrower or signed count, as many or more
 * than the lens shows). */
static int array(struct pc *pc, const struct type *t, const struct loc *l,
		 bool *probe)
{
	size_t esz = type_sizeof(t->elt);
	uint64_t max = pc->l->arraylen + 1;
	unsigned cnt = PLAN_NREGS;

	if (!t->len || !esz || (l->local && !type_array_is_fixed(t)))
		return 0;
	struct count c;
	if (pc_count_of(pc, t->len, &c) < 0)
		return -1;
	if (c.kind == COUNT_CONST)
		max = c.k < 0 ? 0 : ((uint64_t)c.k < max ? (uint64_t)c.k : max);
	if (c.kind == COUNT_NONE && !expr_is_zero(t->len))
		max = 0;
	uint64_t shown = max < pc->l->arraylen ? max : pc->l->arraylen;
	if (c.kind == COUNT_REG && loop_ok(pc, l, shown) &&
	    (pc_reg_alloc(pc, &cnt) < 0 ||
	     pc_emit(pc, PLAN_MULADD, cnt, c.reg, 1) < 0))
		return -1;
	if (!l->local) {
		bool extra = probe && *probe;
		if (pc_copy_count(pc, l->reg, &c, max, esz, extra) < 0)
			return -1;
		if (probe)
			*probe = false;
	} else if (c.kind == COUNT_REG) {
		pc_reg_free(pc, c.reg);
	}
	return elements(pc, t->elt, l, shown, cnt);
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
			return pc_fail(
				pc, "a struct with a variable-length member");
	pc->st = t;
	pc->st_loc = *l;
	for (size_t i = 0; i < t->nfields && !r; i++) {
		const struct type *f = t->fields[i];
		if (lens_hidden(f))
			continue;
		struct loc fl = pc_loc_at(l, type_offsetof(t, i), true);
		r = pc_render(pc, f, &fl, NULL);
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
	struct loc l = pc_loc_mem(base, to->kind != TYPE_ARRAY);
	size_t n = type_sizeof(to);

	if (to->kind == TYPE_STRUCT)
		for (size_t i = 0; i < to->nfields; i++)
			if (is_dynamic(to->fields[i]))
				return pc_fail(pc, "a struct with a "
						   "variable-length member");
	if (to->kind != TYPE_ARRAY) {
		if (n == TYPE_SIZE_BAD || to->kind == TYPE_PACK)
			return pc_fail(pc,
				       "a pointer to a value of unknown size");
		if (pc_emit(pc, PLAN_FIXED, 0, base, n ? n : 1) < 0)
			return -1;
		probe = false;
	}
	if (pc_render(pc, to, &l, &probe) < 0)
		return -1;
	return probe ? pc_emit(pc, PLAN_FIXED, 0, base, 1) : 0;
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
	if (pc_reg_alloc(pc, &r) < 0)
		return -1;
	int ret = pc_word_to_reg(pc, l, r);
	pc->ptr_types[pc->nptrs++] = to;
	ret = ret ?: pointee(pc, to, r);
	pc->nptrs--;
	pc_reg_free(pc, r);
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
		return pc_fail(pc, "a printf-style format");
	default:
		return 0;
	}
}

/* The count of zero(E) into C: COUNT_NONE (up to the NUL alone) when E
 * cannot be known where the lens reads it (the return value at the
 * entry: the lens shows the string up to its NUL then). */
static int zero_count(struct pc *pc, const struct expr *e, struct count *c)
{
	size_t nops = pc->plan->nops;
	unsigned regs = pc->used_regs;

	if (!pc->why && pc_count_of(pc, e, c) < 0) {
		pc->plan->nops = nops;
		pc->used_regs = regs;
		pc->why = NULL;
		c->kind = COUNT_NONE;
	}
	return 0;
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
		return pc_fail(pc, "a copy too large for a plan");
	if (probe)
		*probe = false;
	/* zero(E) (string[E]): up to the NUL, at most E: a copy of E bytes
	 * covers it, which a chunk of a run can be (writev's strings), and
	 * E bounds what -s 9999999 would copy; with no E, up to the NUL. */
	bool zero = expr_is_zero(t->len);
	if (t->len && !zero && pc_count_of(pc, t->len, &c) < 0)
		return -1;
	if (zero && esz == 1 && t->len->sub && zero_count(pc, t->len, &c) < 0)
		return -1;
	if (c.kind == COUNT_CONST && c.k < 0)
		c.kind = COUNT_NONE;
	if (zero && esz == 1 && c.kind == COUNT_NONE)
		return pc_emit(pc, PLAN_CSTR, 0, base, max);
	return pc_copy_count(pc, base, &c, max, esz, extra);
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
	if (pc_reg_alloc(pc, &r) < 0)
		return -1;
	int ret = pc_word_to_reg(pc, l, r);
	if (!ret && to->kind == TYPE_ARRAY) {
		struct loc al = pc_loc_mem(r, false);
		ret = string_array(pc, to, &al, NULL);
	} else if (!ret) {
		size_t esz = type_char_size(to);
		uint64_t max = pc->l->strlen + 1;
		ret = max > PLAN_LEN_MAX / 4 ?
			      pc_fail(pc, "a copy too large for a plan") :
		      esz == 1 ? pc_emit(pc, PLAN_CSTR, 0, r, max) :
				 pc_emit(pc, PLAN_FIXED, 0, r, max * esz);
	}
	pc_reg_free(pc, r);
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
		return pc_emit(pc, PLAN_FIXED, 0, l->reg, n);
	}
	if (pc_reg_alloc(pc, &r) < 0)
		return -1;
	int ret = pc_word_to_reg(pc, l, r);
	ret = ret ?: pc_emit(pc, PLAN_FIXED, 0, r, n);
	pc_reg_free(pc, r);
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
	if (pc_reg_alloc(pc, &r) < 0)
		return -1;
	int ret = pc_word_to_reg(pc, l, r);
	ret = ret ?: pc_emit(pc, PLAN_MULADD, r, r, 1);
	if (!ret)
		pc_last_op(pc)->b = abi_file_fileno;
	ret = ret ?: pc_emit(pc, PLAN_FIXED, 0, r, 4);
	pc_reg_free(pc, r);
	return ret;
}

/* What rendering T at L reads, by its lens (lenses/value.c, render).
 * PROBE, when not NULL, says that the first byte at L must be covered
 * too (lens_pointer read it); an array's copy covers it and clears it. */
int pc_render(struct pc *pc, const struct type *t, const struct loc *l,
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
