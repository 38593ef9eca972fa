/* Argument and return value fetching per the System V AMD64 ABI (3.2.3):
 * INTEGER class in rdi, rsi, rdx, rcx, r8, r9; SSE class in xmm0-7; the
 * rest, and any aggregate that does not fit the registers left, in
 * eightbyte stack words from [rsp + 8] at entry (the return address is at
 * [rsp]).  Aggregates over 16 bytes are MEMORY class: passed on the stack,
 * returned through a hidden pointer passed in rdi and returned in rax. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "callsite.h"
#include "expr.h"
#include "fetch.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

enum cls { CLS_NONE, CLS_INTEGER, CLS_SSE, CLS_MEMORY };

struct fetch_ctx {
	uint64_t gp[6]; /* the integer argument registers at entry */
	struct user_fpregs_struct fp;
	bool have_fp;
	unsigned ngp, nsse; /* registers used so far */
	uint64_t stack;	    /* next stack word */
};

/* The integer argument registers of R into GP, in the ABI's order. */
static void gpregs(uint64_t gp[6], const struct user_regs_struct *r)
{
	gp[0] = r->rdi;
	gp[1] = r->rsi;
	gp[2] = r->rdx;
	gp[3] = r->rcx;
	gp[4] = r->r8;
	gp[5] = r->r9;
}

/* The low eightbyte of xmmI (xmm_space holds 4 words per register). */
static uint64_t xmm(const struct user_fpregs_struct *fp, unsigned i)
{
	uint64_t v;

	memcpy(&v, &fp->xmm_space[4 * i], 8);
	return v;
}

static bool merge(enum cls *c, enum cls n)
{
	if (*c == CLS_NONE || *c == n)
		*c = n;
	else if (n == CLS_INTEGER || *c == CLS_INTEGER)
		*c = CLS_INTEGER;
	return true;
}

static bool classify_into(const struct type *t, size_t off, enum cls cl[2]);

static bool classify_fields(const struct type *t, size_t off, enum cls cl[2])
{
	for (size_t i = 0; i < t->nfields; i++)
		if (!classify_into(t->fields[i], off + type_offsetof(t, i), cl))
			return false;
	return true;
}

static bool classify_elts(const struct type *t, size_t off, enum cls cl[2])
{
	size_t esz = type_sizeof(t->elt);
	size_t n = esz ? type_sizeof(t) / esz : 0;

	for (size_t i = 0; i < n; i++)
		if (!classify_into(t->elt, off + i * esz, cl))
			return false;
	return true;
}

/* Classify the scalars of T at OFF into the eightbytes CL[2]; false if
 * some scalar is misaligned (which makes the aggregate MEMORY). */
static bool classify_into(const struct type *t, size_t off, enum cls cl[2])
{
	switch (t->kind) {
	case TYPE_STRUCT:
		return classify_fields(t, off, cl);
	case TYPE_ARRAY:
		return classify_elts(t, off, cl);
	case TYPE_VOID:
		return true;
	case TYPE_LDOUBLE:
		return false; /* X87 class: the aggregate is MEMORY */
	default:
		if (off % type_alignof(t))
			return false;
		return merge(&cl[off / 8],
			     type_is_float(t) ? CLS_SSE : CLS_INTEGER);
	}
}

/* Whether T is a scalar of 8 bytes at most, as nearly every argument
 * and return value is: its class and buffer need no walk. */
static bool scalar(const struct type *t)
{
	return t->kind >= TYPE_CHAR && t->kind <= TYPE_POINTER;
}

/* The class of each eightbyte of T; returns the number of eightbytes, or
 * 0 for MEMORY. */
static size_t classify(const struct type *t, enum cls cl[2])
{
	cl[0] = cl[1] = CLS_NONE;
	if (scalar(t)) {
		/* as classify_into finds it, without the walk */
		cl[0] = type_is_float(t) ? CLS_SSE : CLS_INTEGER;
		return 1;
	}
	size_t size = type_sizeof(t);
	if (t->kind == TYPE_ARRAY || t->kind == TYPE_PACK) {
		cl[0] = CLS_INTEGER; /* decays to a pointer */
		return 1;
	}
	if (size > 16 || !classify_into(t, 0, cl))
		return 0;
	if (!size) {
		cl[0] = CLS_INTEGER;
		return 1;
	}
	return (size + 7) / 8;
}

size_t fetch_bufsize(const struct type *t)
{
	if (t->kind == TYPE_ARRAY || scalar(t))
		return 16;
	size_t n = type_sizeof(t);
	return n < 16 ? 16 : (n + 7) / 8 * 8;
}

static void snapshot_fp(struct fetch_ctx *f, struct callsite *cs)
{
	if (f->have_fp || !cs->at_entry || !cs->fpregs)
		return;
	const void *fp = cs->fpregs(cs);
	if (!fp)
		return;
	memcpy(&f->fp, fp, sizeof(f->fp));
	f->have_fp = true;
}

/* Freed contexts kept for the next calls: one is taken and given back
 * per traced call, and its 512 bytes of FP state need no zeroing (read
 * only when have_fp). */
#define FETCH_SPARE 64
static struct fetch_ctx *spare[FETCH_SPARE];
static size_t nspare;

static struct fetch_ctx *ctx_alloc(void)
{
	return nspare ? spare[--nspare] : xmalloc(sizeof(struct fetch_ctx));
}

struct fetch_ctx *fetch_begin(struct callsite *cs, const struct type *ret,
			      bool want_fp)
{
	struct fetch_ctx *f = ctx_alloc();
	const struct user_regs_struct *r = cs->regs;

	gpregs(f->gp, r);
	f->have_fp = false;
	f->ngp = 0;
	f->nsse = 0;
	f->stack = r->rsp + 8;
	enum cls cl[2];
	if (ret && ret->kind == TYPE_STRUCT && !classify(ret, cl))
		f->ngp = 1; /* hidden pointer to the return buffer */
	if (want_fp)
		snapshot_fp(f, cs);
	return f;
}

struct fetch_ctx *fetch_clone(const struct fetch_ctx *f)
{
	struct fetch_ctx *n = ctx_alloc();

	*n = *f;
	return n;
}

void fetch_free(struct fetch_ctx *f)
{
	if (f && nspare < FETCH_SPARE)
		spare[nspare++] = f;
	else
		free(f);
}

/* Stack arguments take eightbyte words; one aligned to 16 (long double,
 * __int128, aligned structs) starts at the next 16-byte boundary. */
static int from_stack(struct fetch_ctx *f, struct callsite *cs, size_t size,
		      size_t align, void *buf)
{
	size_t words = (size + 7) / 8;

	if (align > 8)
		f->stack = (f->stack + 15) & ~(uint64_t)15;
	size_t got = memsrc_read(cs->mem, f->stack, buf, words * 8);
	f->stack += words * 8;
	return got == words * 8 ? 0 : -1;
}

/* Registers for N eightbytes of classes CL, all or nothing. */
static bool regs_fit(const struct fetch_ctx *f, const enum cls *cl, size_t n)
{
	unsigned gp = 0;
	unsigned sse = 0;

	for (size_t i = 0; i < n; i++) {
		gp += cl[i] != CLS_SSE;
		sse += cl[i] == CLS_SSE;
	}
	return f->ngp + gp <= 6 && f->nsse + sse <= 8;
}

/* An integer scalar (not a float): one eightbyte of class INTEGER. */
static bool integer_scalar(const struct type *t)
{
	return scalar(t) && !type_is_float(t);
}

/* W into the 16 bytes of BUF, the rest zero. */
static void put_word(void *buf, uint64_t w)
{
	memset(buf, 0, 16);
	memcpy(buf, &w, 8);
}

int fetch_arg(struct fetch_ctx *f, struct callsite *cs, const struct type *t,
	      void *buf)
{
	enum cls cl[2];

	if (integer_scalar(t) && f->ngp < 6) {
		/* nearly every argument: what the walk below finds */
		put_word(buf, f->gp[f->ngp++]);
		return 0;
	}
	size_t n = classify(t, cl);
	memset(buf, 0, fetch_bufsize(t));
	if (!n || !regs_fit(f, cl, n))
		return from_stack(f, cs, n ? n * 8 : type_sizeof(t),
				  type_alignof(t), buf);
	int ret = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t w;

		if (cl[i] == CLS_SSE) {
			snapshot_fp(f, cs);
			ret = f->have_fp ? ret : -1;
			w = f->have_fp ? xmm(&f->fp, f->nsse) : 0;
			f->nsse++;
		} else {
			w = f->gp[f->ngp++];
		}
		memcpy((char *)buf + 8 * i, &w, 8);
	}
	return ret;
}

/* A long double is returned in st(0): the first 16 bytes of st_space,
 * of which the number takes 10. */
static int retval_x87(struct callsite *cs, void *buf)
{
	const struct user_fpregs_struct *fp = cs->fpregs ? cs->fpregs(cs) :
							   NULL;
	if (!fp)
		return -1;
	memcpy(buf, fp->st_space, 10);
	return 0;
}

int fetch_retval(struct fetch_ctx *f, struct callsite *cs, const struct type *t,
		 void *buf)
{
	const struct user_regs_struct *r = cs->regs;
	enum cls cl[2];

	(void)f;
	if (integer_scalar(t)) {
		put_word(buf, r->rax); /* as the walk below */
		return 0;
	}
	size_t n = classify(t, cl);
	memset(buf, 0, fetch_bufsize(t));
	if (t->kind == TYPE_LDOUBLE)
		return retval_x87(cs, buf);
	if (!n) { /* MEMORY: rax holds the buffer's address */
		size_t size = type_sizeof(t);
		return memsrc_read(cs->mem, r->rax, buf, size) == size ? 0 : -1;
	}
	uint64_t gp[2] = { r->rax, r->rdx };
	unsigned ngp = 0;
	unsigned nsse = 0;
	const struct user_fpregs_struct *fp = NULL;
	for (size_t i = 0; i < n; i++) {
		uint64_t w;

		if (cl[i] == CLS_SSE) {
			if (!fp && cs->fpregs)
				fp = cs->fpregs(cs);
			if (!fp)
				return -1;
			w = xmm(fp, nsse++);
		} else {
			w = gp[ngp++];
		}
		memcpy((char *)buf + 8 * i, &w, 8);
	}
	return 0;
}
