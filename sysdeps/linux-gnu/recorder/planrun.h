/* The fetch plan interpreter (plan.h): runs a plan at a call's entry and
 * appends the chunks it copies.
 *
 * Freestanding: no libc, no globals, static inline functions only, so
 * the same code is compiled into the position-independent recorder blob
 * (-ffreestanding -nostdlib -fPIC -mgeneral-regs-only) and into the
 * tracer's unit tests.  Loops that copy or clear memory hold a compiler
 * barrier so that GCC cannot turn them into calls to memcpy or memset,
 * which the blob does not have.  x86-64 only (little-endian words, the
 * psABI's stack words).
 *
 * A plan is untrusted input here: a bad register number or opcode ends
 * it (what was appended so far stays), and no plan runs more than
 * PLAN_MAX_OPS instructions, as it has no jumps.  Every length is capped
 * at PLAN_LEN_MAX, so a chunk's LEN and WANTED fit their 31 bits and
 * plan_bound's sum cannot overflow. */
#ifndef LTRACE_RECORDER_PLANRUN_H
#define LTRACE_RECORDER_PLANRUN_H

#include <stdint.h>

#include "plan.h"

/* Copy up to LEN bytes at ADDR of the program's memory to DST; returns
 * how many it could (short at unreadable memory; never faults). */
typedef uint64_t (*plan_copy_fn)(void *ctx, uint64_t addr, void *dst,
				 uint64_t len);

/* plan_bound of a plan with a PLAN_MEM of A = 0 (no bound but the
 * room). */
#define PLAN_UNBOUNDED UINT64_MAX

/* The first copy of a PLAN_CSTR; each next one is twice the last, up to
 * PLAN_CSTR_PIECE_MAX, so a short string costs one small copy even
 * under -s 9999999. */
#define PLAN_CSTR_PIECE 256
#define PLAN_CSTR_PIECE_MAX 65536

typedef uint64_t __attribute__((may_alias)) plan_word;
/* The same at any address (the architectures with a recorder load it
 * unaligned in one instruction). */
typedef uint64_t __attribute__((may_alias, aligned(1))) plan_uword;

/* Copies of fixed or counted lengths (PLAN_MEM, PLAN_FIXED) wait in a
 * run of at most PLAN_RUN_MAX, covering [lo, hi), and go out as one copy
 * of the span when it takes no more room than their chunks would: the
 * strings of writev's iovecs, lines of one buffer, cost one system call,
 * not one each (DESIGN.md, "Fetch plans"). */
#define PLAN_RUN_MAX 16

struct plan_pending {
	uint64_t addr, wanted;
};

struct plan_state {
	uint64_t r[PLAN_NREGS];
	const uint64_t *args;
	uint64_t sp;
	const void *fpr;
	unsigned char *out;
	uint64_t room, used;
	plan_copy_fn copy;
	void *ctx;
	struct plan_pending run[PLAN_RUN_MAX];
	unsigned nrun;
	uint64_t lo, hi, run_bytes; /* run_bytes: its chunks, apart */
	/* A copy was cut, a chunk left out or a loop cut at PLAN_LOOP_MAX:
	 * the record holds less than the plan asked for. */
	int cut;
};

static inline uint64_t plan_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* COPY, trusted no further than LEN. */
static inline uint64_t plan_copy(struct plan_state *s, uint64_t addr, void *dst,
				 uint64_t len)
{
	if (!len)
		return 0;
	return plan_min(s->copy(s->ctx, addr, dst, len), len);
}

/* Length A of an instruction, capped (see the head comment). */
static inline uint64_t plan_len(uint32_t a)
{
	return plan_min(a, PLAN_LEN_MAX);
}

/* Start a chunk at ADDR: its data area, with room for *MAX bytes (a
 * multiple of 8), or NULL when not even its header fits. */
static inline unsigned char *plan_chunk_open(struct plan_state *s,
					     uint64_t addr, uint64_t *max)
{
	uint64_t left = s->room - s->used;

	if (s->room < s->used || left < sizeof(struct plan_chunk)) {
		s->cut = 1;
		return 0;
	}
	*max = plan_min((left - sizeof(struct plan_chunk)) & ~7ull,
			PLAN_LEN_MAX & ~7ull);
	struct plan_chunk *ch = (struct plan_chunk *)(s->out + s->used);
	ch->addr = addr;
	return (unsigned char *)(ch + 1);
}

/* End the open chunk: LEN bytes copied of WANTED, CUT when the room
 * stopped the copy; the last word is padded with zeros. */
static inline void plan_chunk_close(struct plan_state *s, uint64_t len,
				    uint64_t wanted, int cut)
{
	struct plan_chunk *ch = (struct plan_chunk *)(s->out + s->used);
	unsigned char *data = (unsigned char *)(ch + 1);

	ch->len = (uint32_t)len;
	ch->wanted = (uint32_t)wanted | (cut ? PLAN_CHUNK_CUT : 0);
	s->cut |= cut;
	if (len & 7) {
		plan_word *w = (plan_word *)(data + (len & ~7ull));
		*w &= (1ull << (8 * (len & 7))) - 1;
	}
	s->used += plan_chunk_size(len);
}

/* Record WANTED bytes at ADDR, or what can be read of them. */
static inline void plan_chunk_mem(struct plan_state *s, uint64_t addr,
				  uint64_t wanted)
{
	uint64_t max;
	unsigned char *data = plan_chunk_open(s, addr, &max);

	if (!data)
		return;
	uint64_t n = plan_min(wanted, max);
	uint64_t got = plan_copy(s, addr, data, n);
	plan_chunk_close(s, got, wanted, got == n && n < wanted);
}

/* Index of the first NUL in P[0..N), or N. */
static inline uint64_t plan_nul(const unsigned char *p, uint64_t n)
{
	uint64_t i;

	for (i = 0; i < n; i++)
		if (!p[i])
			break;
	return i;
}

/* Record the string at ADDR up to its NUL, at most WANTED bytes, copied
 * in pieces that grow so that a short string is one short copy. */
static inline void plan_chunk_cstr(struct plan_state *s, uint64_t addr,
				   uint64_t wanted)
{
	uint64_t max;
	unsigned char *data = plan_chunk_open(s, addr, &max);

	if (!data)
		return;
	uint64_t n = plan_min(wanted, max);
	uint64_t pos = 0;
	uint64_t piece = PLAN_CSTR_PIECE;
	while (pos < n) {
		uint64_t k = plan_min(piece, n - pos);
		uint64_t got = plan_copy(s, addr + pos, data + pos, k);
		uint64_t nul = plan_nul(data + pos, got);
		if (nul < got) {
			plan_chunk_close(s, pos + nul + 1, pos + nul + 1, 0);
			return;
		}
		pos += got;
		if (got < k)
			break;
		piece = plan_min(2 * piece, PLAN_CSTR_PIECE_MAX);
	}
	plan_chunk_close(s, pos, wanted, pos == n && n < wanted);
}

/* The 128 bytes of the floating point argument registers, or an empty
 * chunk that wanted them when they were not saved. */
static inline void plan_chunk_fpr(struct plan_state *s)
{
	uint64_t max;
	unsigned char *data = plan_chunk_open(s, PLAN_FPR_ADDR, &max);

	if (!data)
		return;
	if (!s->fpr || max < 128) {
		plan_chunk_close(s, 0, 128, s->fpr != 0);
		return;
	}
	const plan_word *src = s->fpr;
	plan_word *dst = (plan_word *)data;
	for (unsigned i = 0; i < 16; i++) {
		dst[i] = src[i];
		__asm__ volatile("" ::: "memory");
	}
	plan_chunk_close(s, 128, 128, 0);
}

/* The 8 bytes at ADDR into *V from a chunk this plan copied already, if
 * one holds them all: a pointer in an array just copied (writev's
 * iovecs) costs no copy of its own, and is the value the tracer will
 * read in that chunk. */
static inline int plan_from_chunks(const struct plan_state *s, uint64_t addr,
				   uint64_t *v)
{
	uint64_t off = 0;

	while (off + sizeof(struct plan_chunk) <= s->used) {
		const struct plan_chunk *ch =
			(const struct plan_chunk *)(s->out + off);
		uint64_t at = addr - ch->addr;
		if (addr >= ch->addr && ch->len >= 8 && at <= ch->len - 8) {
			/* one unaligned load (a byte loop was the most of
			 * writev's plan under -A 9999999) */
			*v = *(const plan_uword *)((const unsigned char *)(ch +
									   1) +
						   at);
			return 1;
		}
		off += plan_chunk_size(ch->len);
	}
	return 0;
}

/* The waiting copies: one copy of their span, into one chunk, if it
 * fits the room left and all of it can be read; else one by one, each
 * short where memory is (the span's copy is dropped), as without the
 * run. */
static inline void plan_flush(struct plan_state *s)
{
	unsigned n = s->nrun;

	s->nrun = 0;
	if (n > 1) {
		uint64_t span = s->hi - s->lo, max;
		unsigned char *data = plan_chunk_open(s, s->lo, &max);
		if (data && span <= max &&
		    plan_copy(s, s->lo, data, span) == span) {
			plan_chunk_close(s, span, span, 0);
			return;
		}
	}
	for (unsigned i = 0; i < n; i++)
		plan_chunk_mem(s, s->run[i].addr, s->run[i].wanted);
}

/* Copy WANTED bytes at ADDR, in the waiting run if its span's chunk
 * stays within the room their separate chunks would take. */
static inline void plan_defer(struct plan_state *s, uint64_t addr,
			      uint64_t wanted)
{
	if (addr + wanted < addr) {
		plan_flush(s);
		plan_chunk_mem(s, addr, wanted);
		return;
	}
	if (!wanted)
		return; /* an empty chunk: nothing a reader could use */
	uint64_t lo = plan_min(s->nrun ? s->lo : addr, addr);
	uint64_t hi = s->nrun && s->hi > addr + wanted ? s->hi : addr + wanted;
	uint64_t bytes = (s->nrun ? s->run_bytes : 0) + plan_chunk_size(wanted);
	if (s->nrun && (s->nrun == PLAN_RUN_MAX || hi - lo > PLAN_LEN_MAX ||
			plan_chunk_size(hi - lo) > bytes)) {
		plan_flush(s);
		lo = addr;
		hi = addr + wanted;
		bytes = plan_chunk_size(wanted);
	}
	s->run[s->nrun].addr = addr;
	s->run[s->nrun].wanted = wanted;
	s->nrun++;
	s->lo = lo;
	s->hi = hi;
	s->run_bytes = bytes;
}

/* The 8 bytes at ADDR (as much as can be read, the rest zero): from a
 * chunk, once the waiting run that may cover them is out. */
static inline uint64_t plan_read_word(struct plan_state *s, uint64_t addr)
{
	uint64_t v = 0;

	if (s->nrun && addr + 8 > s->lo && addr < s->hi)
		plan_flush(s);
	if (!plan_from_chunks(s, addr, &v))
		plan_copy(s, addr, &v, 8);
	return v;
}

/* The integer argument word A: a register, the return value's, or a
 * stack word above the return address (zero where it cannot be read). */
static inline uint64_t plan_arg(struct plan_state *s, uint32_t a)
{
	if (a < 6)
		return s->args[a];
	if (a == PLAN_ARG_RET0 || a == PLAN_ARG_RET1)
		return s->args[6 + (a - PLAN_ARG_RET0)];
	return plan_read_word(s, s->sp + 8 + 8 * (uint64_t)(a - 6));
}

static inline uint64_t plan_muladd(const struct plan_op *op, uint64_t x)
{
	uint64_t v = x * op->a + op->b;

	return op->c && v > op->c ? op->c : v;
}

/* Whether OP names only registers that exist and an opcode known here:
 * the end of the plan otherwise. */
static inline int plan_op_valid(const struct plan_op *op)
{
	return op->op != PLAN_END && op->op <= PLAN_LOOP &&
	       op->dst < PLAN_NREGS && op->src < PLAN_NREGS &&
	       op->len < PLAN_NREGS;
}

static inline __attribute__((always_inline)) void
plan_step(struct plan_state *s, const struct plan_op *op)
{
	uint64_t *r = s->r;

	switch (op->op) {
	case PLAN_ARG:
		r[op->dst] = plan_arg(s, op->a);
		break;
	case PLAN_LOAD:
		r[op->dst] = plan_read_word(s, r[op->src] + op->a);
		break;
	case PLAN_MULADD:
		r[op->dst] = plan_muladd(op, r[op->src]);
		break;
	case PLAN_CSTR:
		plan_flush(s);
		plan_chunk_cstr(s, r[op->src], plan_len(op->a));
		break;
	case PLAN_MEM:
		plan_defer(s, r[op->src],
			   plan_min(r[op->len],
				    op->a ? plan_len(op->a) : PLAN_LEN_MAX));
		break;
	case PLAN_FIXED:
		plan_defer(s, r[op->src], plan_len(op->a));
		break;
	case PLAN_STACK:
		plan_flush(s);
		plan_chunk_mem(s, s->sp, plan_len(op->a));
		break;
	case PLAN_FPR:
		plan_flush(s);
		plan_chunk_fpr(s);
		break;
	}
}

/* The length of the body of the PLAN_LOOP at PLAN[I], or 0 when the
 * plan must end there (plan.h). */
static inline unsigned plan_loop_body(const struct plan_op *plan, unsigned i)
{
	uint32_t n = plan[i].a;

	if (!n || n > PLAN_MAX_OPS - 1 - i)
		return 0;
	for (unsigned j = i + 1; j <= i + n; j++)
		if (!plan_op_valid(&plan[j]) || plan[j].op == PLAN_LOOP)
			return 0;
	return n;
}

/* The runs of LOOP's body: min(count, C), at most PLAN_LOOP_MAX. */
static inline uint64_t plan_loop_runs(const struct plan_op *loop,
				      uint64_t count)
{
	return plan_min(plan_min(count, loop->c), PLAN_LOOP_MAX);
}

/* Run the N instructions after LOOP once per element; stop once a copy
 * was cut (the record's room is used up). */
static inline void plan_loop(struct plan_state *s, const struct plan_op *loop,
			     unsigned n)
{
	uint64_t count = s->r[loop->len];
	uint64_t runs = plan_loop_runs(loop, count);
	uint64_t base = s->r[loop->src];

	for (uint64_t k = 0; k < runs && !s->cut; k++) {
		s->r[loop->dst] = base + k * loop->b;
		for (unsigned j = 1; j <= n; j++)
			plan_step(s, &loop[j]);
	}
	if (plan_min(count, loop->c) > PLAN_LOOP_MAX)
		s->cut = 1;
}

/* Run PLAN for a call whose integer argument registers are ARGS[0..5]
 * (in the calling convention's order), with ARGS[6..7] the return
 * value's two integer registers (for a return plan; 0 at the entry),
 * whose stack pointer at entry is SP, and whose floating point argument
 * registers are at XMM (128 bytes, or NULL when not saved).  Append chunks
 * (struct plan_chunk + bytes, plan.h) at OUT (8-byte aligned), at most
 * ROOM bytes; return the bytes written.  COPY(CTX, ADDR, DST, LEN) copies
 * up to LEN bytes from the program's memory and returns how many it could
 * (short at unreadable memory; it never faults).  Stack argument words
 * (PLAN_ARG with A >= 6) are read through COPY at SP + 8 + 8 * (A - 6).
 * A chunk never runs past ROOM: a copy that would is cut, its WANTED
 * says what was asked and carries PLAN_CHUNK_CUT; a chunk whose header
 * does not fit is left out.  *CUT (when CUT is not NULL) says whether
 * either happened, or a loop was cut at PLAN_LOOP_MAX: the record then
 * holds less than the plan asked for. */
static inline uint64_t plan_run_cut(const struct plan_op *plan,
				    const uint64_t args[8], uint64_t sp,
				    const void *fpr, void *out, uint64_t room,
				    plan_copy_fn copy, void *ctx, int *cut)
{
	struct plan_state s;

	for (unsigned i = 0; i < PLAN_NREGS; i++) {
		s.r[i] = 0;
		__asm__ volatile("" ::: "memory");
	}
	s.args = args;
	s.sp = sp;
	s.fpr = fpr;
	s.out = out;
	s.room = room;
	s.used = 0;
	s.copy = copy;
	s.ctx = ctx;
	s.nrun = 0;
	s.lo = s.hi = s.run_bytes = 0;
	s.cut = 0;
	for (unsigned i = 0; i < PLAN_MAX_OPS && plan_op_valid(&plan[i]);) {
		unsigned n = 0;
		if (plan[i].op == PLAN_LOOP && !(n = plan_loop_body(plan, i)))
			break;
		if (n)
			plan_loop(&s, &plan[i], n);
		else
			plan_step(&s, &plan[i]);
		i += 1 + n;
	}
	plan_flush(&s);
	if (cut)
		*cut = s.cut;
	return s.used;
}

/* plan_run_cut without telling whether the chunks were cut. */
static inline uint64_t plan_run(const struct plan_op *plan,
				const uint64_t args[8], uint64_t sp,
				const void *fpr, void *out, uint64_t room,
				plan_copy_fn copy, void *ctx)
{
	return plan_run_cut(plan, args, sp, fpr, out, room, copy, ctx, 0);
}

/* The most bytes a chunk-making instruction OP appends: PLAN_UNBOUNDED
 * for a PLAN_MEM of A = 0. */
static inline uint64_t plan_op_bound(const struct plan_op *op)
{
	switch (op->op) {
	case PLAN_MEM:
		if (!op->a)
			return PLAN_UNBOUNDED;
		/* fall through */
	case PLAN_CSTR:
	case PLAN_FIXED:
	case PLAN_STACK:
		return plan_chunk_size(plan_len(op->a));
	case PLAN_FPR:
		return plan_chunk_size(128);
	}
	return 0;
}

static inline uint64_t plan_add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? PLAN_UNBOUNDED : a + b;
}

static inline uint64_t plan_mul_sat(uint64_t a, uint64_t b)
{
	return b && a > PLAN_UNBOUNDED / b ? PLAN_UNBOUNDED : a * b;
}

/* The most bytes plan_run can append for PLAN, whatever the call's
 * registers and memory, or PLAN_UNBOUNDED for that much or more (a
 * PLAN_MEM with A = 0, which the tracer's compiler never emits; loops
 * of huge counts).  The recorder reserves it in the ring, at most a
 * record's room, before running the plan: within the bound, no chunk is
 * ever cut.  Reads the same instructions plan_run would run. */
static inline uint64_t plan_bound(const struct plan_op *plan)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < PLAN_MAX_OPS && plan_op_valid(&plan[i]);) {
		unsigned n = 0;
		uint64_t b = 0;
		if (plan[i].op == PLAN_LOOP && !(n = plan_loop_body(plan, i)))
			break;
		for (unsigned j = i + (n ? 1 : 0); j <= i + n; j++)
			b = plan_add_sat(b, plan_op_bound(&plan[j]));
		if (n)
			b = plan_mul_sat(b,
					 plan_loop_runs(&plan[i], UINT64_MAX));
		sum = plan_add_sat(sum, b);
		i += 1 + n;
	}
	return sum;
}

#endif
