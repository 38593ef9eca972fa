/* Failure conditions: parsed after a declaration's parameters, checked
 * at a call's return (errcond.h). */
#include "errcond.h"

#include <stdint.h>
#include <string.h>

#include "callsite.h"
#include "fetch.h"
#include "lex.h"

/* Whether values of T can be compared with integers: the integers, the
 * pointers (strings, addresses), and their enums and bitmasks. */
static bool comparable(const struct type *t)
{
	return t && ((t->kind >= TYPE_CHAR && t->kind <= TYPE_ULLONG) ||
		     t->kind == TYPE_POINTER);
}

/* V, written at AT, into C. */
static bool add_value(struct lex *lx, struct errcond *c, long v, const char *at)
{
	if (c->nvalues == ERRCOND_VALUES) {
		lex_error_at(lx, at, "too many values in ", "errno(...)");
		return false;
	}
	c->values[c->nvalues++] = v;
	return true;
}

/* "0" after "<" or "!=". */
static bool expect_zero(struct lex *lx)
{
	long v;
	lex_skip_ws(lx);
	const char *at = lx->p;
	if (lex_number(lx, &v) && v == 0)
		return true;
	lex_error_at(lx, at, "expected ", "'0'");
	return false;
}

/* One ALT at the cursor into C. */
static bool parse_alt(struct lex *lx, struct errcond *c)
{
	long v;
	lex_skip_ws(lx);
	const char *at = lx->p;
	if (lex_keyword(lx, "changed")) {
		c->flags |= ERRCOND_CHANGED;
		return true;
	}
	if (lex_keyword(lx, "ret")) {
		c->flags |= ERRCOND_RET;
		return true;
	}
	if (lex_keyword(lx, "nil") || lex_keyword(lx, "NULL"))
		return add_value(lx, c, 0, at);
	if (lex_accept(lx, '<')) {
		c->flags |= ERRCOND_NEG;
		return expect_zero(lx);
	}
	if (lex_accept(lx, '!')) {
		c->flags |= ERRCOND_NONZERO;
		return lex_expect(lx, '=') && expect_zero(lx);
	}
	if (lex_number(lx, &v))
		return add_value(lx, c, v, at);
	lex_error(
		lx, "expected ",
		"an integer, nil, NULL, <0, !=0, changed or ret in errno(...)");
	return false;
}

bool errcond_parse(struct lex *lx, struct prototype *pr)
{
	struct errcond *c = &pr->fail;
	const char *at = lx->p;
	if (!lex_expect(lx, '('))
		return false;
	do {
		if (!parse_alt(lx, c))
			return false;
	} while (lex_accept(lx, '|'));
	if (!lex_expect(lx, ')'))
		return false;
	if ((c->nvalues || (c->flags & ~ERRCOND_CHANGED)) &&
	    !comparable(pr->ret)) {
		lex_error_at(lx, at, "errno(...) compares the return value: ",
			     "an integer or pointer return type expected");
		return false;
	}
	return true;
}

/* The return value of type T at CS into *V, its low BITS bits. */
static bool ret_bits(const struct type *t, struct callsite *cs, uint64_t *v,
		     unsigned *bits)
{
	unsigned char buf[16];
	if (!comparable(t) || fetch_bufsize(t) > sizeof(buf) ||
	    fetch_retval(NULL, cs, t, buf) < 0)
		return false;
	memcpy(v, buf, sizeof(*v));
	*bits = (unsigned)type_sizeof(t) * 8;
	if (*bits && *bits < 64)
		*v &= (UINT64_C(1) << *bits) - 1;
	return *bits > 0 && *bits <= 64;
}

/* The error number a "ret" function returned at CS, or 0: a return in
 * 1..4095 (pthread_barrier_wait's -1 is a success). */
static int ret_error(const struct type *t, struct callsite *cs)
{
	uint64_t v;
	unsigned bits;
	if (!ret_bits(t, cs, &v, &bits))
		return 0;
	return v >= 1 && v < 4096 ? (int)v : 0;
}

/* Whether the return value at CS meets C's values and classes. */
static bool value_fails(const struct errcond *c, const struct type *t,
			struct callsite *cs)
{
	uint64_t v, mask;
	unsigned bits;
	if ((!c->nvalues && !(c->flags & ~(ERRCOND_CHANGED | ERRCOND_RET))) ||
	    !ret_bits(t, cs, &v, &bits))
		return false;
	mask = bits < 64 ? (UINT64_C(1) << bits) - 1 : ~UINT64_C(0);
	if ((c->flags & ERRCOND_NONZERO) && v)
		return true;
	if ((c->flags & ERRCOND_NEG) && (v >> (bits - 1) & 1))
		return true;
	for (unsigned i = 0; i < c->nvalues; i++)
		if (v == ((uint64_t)c->values[i] & mask))
			return true;
	return false;
}

bool errcond_value_failed(const struct prototype *p, struct callsite *cs)
{
	if (!errcond_any(p) || !cs)
		return false;
	return ((p->fail.flags & ERRCOND_RET) && ret_error(p->ret, cs)) ||
	       value_fails(&p->fail, p->ret, cs);
}

int errcond_errno(const struct prototype *p, struct callsite *cs,
		  const int *entry)
{
	int e = 0;
	if (!errcond_any(p) || !cs)
		return 0;
	if ((p->fail.flags & ERRCOND_RET) && (e = ret_error(p->ret, cs)))
		return e;
	if (!cs->thread_errno)
		return 0;
	if (value_fails(&p->fail, p->ret, cs))
		return cs->thread_errno(cs, &e) ? e : 0;
	if (!(p->fail.flags & ERRCOND_CHANGED) || !entry ||
	    !cs->thread_errno(cs, &e))
		return 0;
	return e != *entry ? e : 0;
}
