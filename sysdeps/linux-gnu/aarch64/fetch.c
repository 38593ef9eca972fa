/* Argument and return value fetching per AAPCS64 (6.8.2 "Parameter
 * passing rules"), as Linux uses it, variadic arguments included:
 * integers and pointers in x0-x7; float, double and long double in
 * v0-v7 (s, d and q, the low bits of the register); a homogeneous
 * floating-point aggregate (HFA, 1 to 4 members of one float type) in
 * consecutive v registers, or when they do not all remain, on the stack
 * with no v register used after it; other composites over 16 bytes by
 * reference (a pointer in the next x register or stack slot), the rest
 * in one or two x registers (a 16-aligned one from an even register),
 * else on the stack.  Stack slots are 8 bytes from sp at entry, 16-aligned
 * for 16-aligned types.  Results: x0 (x0/x1 for composites up to 16
 * bytes), v0 (v0-v3 for an HFA), and composites over 16 bytes in memory
 * at x8 as it was at entry (x8 is not preserved across the call). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "callsite.h"
#include "fetch.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

#define NGP 8 /* x0-x7 */
#define NFP 8 /* v0-v7 */

struct fetch_ctx {
	uint64_t x[NGP];    /* the integer argument registers at entry */
	uint64_t x8;	    /* indirect result address at entry */
	bool have_x8;	    /* x8 was read at an entry stop */
	__uint128_t v[NFP]; /* the float argument registers, when have_fp */
	bool have_fp;
	unsigned ngrn, nsrn; /* next x and v register */
	uint64_t nsaa;	     /* next stack argument address */
};

/* How one value travels. */
enum pass {
	PASS_GP,  /* integer, pointer, composite up to 16 bytes */
	PASS_FP,  /* one float, double or long double */
	PASS_HFA, /* a homogeneous floating-point aggregate */
	PASS_REF, /* a composite over 16 bytes, by reference */
};

/* A scalar that travels in an x register (arrays and packs decay to a
 * pointer before they get here). */
static bool integer_scalar(const struct type *t)
{
	return t->kind >= TYPE_CHAR && t->kind <= TYPE_POINTER &&
	       !type_is_float(t);
}

/* An argument passed as a pointer: arrays decay, a pack is its format. */
static bool decays(const struct type *t)
{
	return t->kind == TYPE_ARRAY || t->kind == TYPE_PACK;
}

/* Count the float scalars of T into *N, all of the kind of *ELT (NULL
 * until the first); false when T holds anything else or more than 4. */
static bool hfa_walk(const struct type *t, const struct type **elt, unsigned *n)
{
	switch (t->kind) {
	case TYPE_STRUCT:
		for (size_t i = 0; i < t->nfields; i++)
			if (!hfa_walk(t->fields[i], elt, n))
				return false;
		return true;
	case TYPE_ARRAY: {
		size_t esz = type_sizeof(t->elt);
		size_t cnt = esz ? type_sizeof(t) / esz : 0;
		for (size_t i = 0; i < cnt && *n <= 4; i++)
			if (!hfa_walk(t->elt, elt, n))
				return false;
		return *n <= 4;
	}
	case TYPE_FLOAT:
	case TYPE_DOUBLE:
	case TYPE_LDOUBLE:
		if (*elt && (*elt)->kind != t->kind)
			return false;
		*elt = t;
		return ++*n <= 4;
	default:
		return false;
	}
}

/* Whether composite T is an HFA: its member count into *N and their
 * size into *ESZ.  Members of one float type are laid out back to
 * back; a size that says otherwise (padding) is no HFA. */
static bool hfa(const struct type *t, unsigned *n, size_t *esz)
{
	const struct type *elt = NULL;

	*n = 0;
	if ((t->kind != TYPE_STRUCT && t->kind != TYPE_ARRAY) ||
	    !hfa_walk(t, &elt, n) || !elt)
		return false;
	*esz = type_sizeof(elt);
	return type_sizeof(t) == *n * *esz;
}

static enum pass classify(const struct type *t, unsigned *n, size_t *esz)
{
	if (integer_scalar(t) || decays(t))
		return PASS_GP;
	if (type_is_float(t)) {
		*n = 1;
		*esz = type_sizeof(t);
		return PASS_FP;
	}
	if (hfa(t, n, esz))
		return PASS_HFA;
	return type_sizeof(t) > 16 ? PASS_REF : PASS_GP;
}

size_t fetch_bufsize(const struct type *t)
{
	if (decays(t) || integer_scalar(t) || type_is_float(t))
		return 16;
	size_t n = type_sizeof(t);
	return n < 16 ? 16 : (n + 7) / 8 * 8;
}

static void snapshot_fp(struct fetch_ctx *f, struct callsite *cs)
{
	if (f->have_fp || !cs->at_entry || !cs->fpregs)
		return;
	const struct user_fpsimd_struct *fp = cs->fpregs(cs);
	if (!fp)
		return;
	memcpy(f->v, fp->vregs, sizeof(f->v));
	f->have_fp = true;
}

/* Freed contexts kept for the next calls: one is taken and given back
 * per traced call. */
#define FETCH_SPARE 64
static struct fetch_ctx *spare[FETCH_SPARE];
static size_t nspare;

static struct fetch_ctx *ctx_alloc(void)
{
	return nspare ? spare[--nspare] : xmalloc(sizeof(struct fetch_ctx));
}

/* RET is not needed: unlike x86_64's hidden first argument, the
 * indirect result address travels in x8, outside the argument
 * registers, and is kept whatever RET is. */
struct fetch_ctx *fetch_begin(struct callsite *cs, const struct type *ret,
			      bool want_fp)
{
	struct fetch_ctx *f = ctx_alloc();
	const struct user_regs_struct *r = cs->regs;

	(void)ret;
	memcpy(f->x, r->regs, sizeof(f->x));
	f->x8 = r->regs[8];
	f->have_x8 = cs->at_entry;
	f->have_fp = false;
	f->ngrn = 0;
	f->nsrn = 0;
	f->nsaa = r->sp;
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

/* SIZE bytes from the next stack slots (8 bytes each; a value aligned
 * to 16 starts at the next 16-byte boundary: rules C.4 and C.12). */
static int from_stack(struct fetch_ctx *f, struct callsite *cs, size_t size,
		      size_t align, void *buf)
{
	size_t len = (size + 7) / 8 * 8;

	if (align >= 16)
		f->nsaa = (f->nsaa + 15) & ~(uint64_t)15;
	size_t got = memsrc_read(cs->mem, f->nsaa, buf, len);
	f->nsaa += len;
	return got == len ? 0 : -1;
}

/* N members of ESZ bytes each from v[nsrn..] into BUF, back to back. */
static int from_vregs(struct fetch_ctx *f, struct callsite *cs, unsigned n,
		      size_t esz, void *buf)
{
	snapshot_fp(f, cs);
	for (unsigned i = 0; i < n; i++)
		if (f->have_fp)
			memcpy((char *)buf + i * esz, &f->v[f->nsrn + i], esz);
	f->nsrn += n;
	return f->have_fp ? 0 : -1;
}

/* Rules C.1-C.6: a float or an HFA, in v registers or on the stack. */
static int fetch_fp(struct fetch_ctx *f, struct callsite *cs,
		    const struct type *t, unsigned n, size_t esz, void *buf)
{
	if (f->nsrn + n <= NFP)
		return from_vregs(f, cs, n, esz, buf);
	f->nsrn = NFP;
	return from_stack(f, cs, type_sizeof(t), type_alignof(t), buf);
}

/* Rules C.7-C.15 for SIZE bytes (a composite of up to 16, a scalar of
 * up to 8, or a pointer): x registers, all or none, else the stack. */
static int fetch_gp(struct fetch_ctx *f, struct callsite *cs, size_t size,
		    size_t align, void *buf)
{
	size_t words = size ? (size + 7) / 8 : 1;

	if (align >= 16 && f->ngrn % 2)
		f->ngrn++;
	if (f->ngrn + words <= NGP) {
		memcpy(buf, &f->x[f->ngrn], words * 8);
		f->ngrn += words;
		return 0;
	}
	f->ngrn = NGP;
	return from_stack(f, cs, words * 8, align, buf);
}

/* Rule B.4: a composite over 16 bytes is passed as a pointer to a copy
 * the caller made; its SIZE bytes are read through that pointer. */
static int fetch_ref(struct fetch_ctx *f, struct callsite *cs, size_t size,
		     void *buf)
{
	uint64_t p = 0;

	if (fetch_gp(f, cs, 8, 8, &p))
		return -1;
	return memsrc_read(cs->mem, p, buf, size) == size ? 0 : -1;
}

int fetch_arg(struct fetch_ctx *f, struct callsite *cs, const struct type *t,
	      void *buf)
{
	unsigned n = 0;
	size_t esz = 0;

	memset(buf, 0, fetch_bufsize(t));
	switch (classify(t, &n, &esz)) {
	case PASS_FP:
	case PASS_HFA:
		return fetch_fp(f, cs, t, n, esz, buf);
	case PASS_REF:
		return fetch_ref(f, cs, type_sizeof(t), buf);
	case PASS_GP:
	default:
		if (decays(t))
			return fetch_gp(f, cs, 8, 8, buf);
		return fetch_gp(f, cs, type_sizeof(t), type_alignof(t), buf);
	}
}

/* An HFA or a float returned in v0..v(N-1), ESZ bytes each. */
static int retval_fp(struct callsite *cs, unsigned n, size_t esz, void *buf)
{
	const struct user_fpsimd_struct *fp = cs->fpregs ? cs->fpregs(cs) :
							   NULL;
	if (!fp)
		return -1;
	for (unsigned i = 0; i < n; i++)
		memcpy((char *)buf + i * esz, &fp->vregs[i], esz);
	return 0;
}

int fetch_retval(struct fetch_ctx *f, struct callsite *cs, const struct type *t,
		 void *buf)
{
	const struct user_regs_struct *r = cs->regs;
	unsigned n = 0;
	size_t esz = 0;

	memset(buf, 0, fetch_bufsize(t));
	switch (classify(t, &n, &esz)) {
	case PASS_FP:
	case PASS_HFA:
		return retval_fp(cs, n, esz, buf);
	case PASS_REF: {
		/* the caller's buffer, whose address x8 held at entry */
		size_t size = type_sizeof(t);
		if (!f || !f->have_x8)
			return -1;
		return memsrc_read(cs->mem, f->x8, buf, size) == size ? 0 : -1;
	}
	case PASS_GP:
	default:
		memcpy(buf, r->regs, decays(t) || type_sizeof(t) <= 8 ? 8 : 16);
		return 0;
	}
}
