/* Flat struct elements: the elements of an array of structs whose
 * members are all plain integers or strings behind pointers (writev's
 * iovecs) are shown by a list of member renderers compiled once per
 * array, instead of the lens dispatch for each member of each element.
 * The text is the one lens_render writes for the element, through the
 * same emit_* primitives: lens_flat_render takes over only where the
 * generic path would reach the same primitives with the same values. */
#include <string.h>

#include "expr.h"
#include "flat.h"
#include "memsrc.h"
#include "type.h"

enum flat_op { FLAT_SKIP, FLAT_INT, FLAT_STR };

/* Where a string member's length comes from: up to the NUL as well
 * for zero and zero(N), string[N] among them. */
enum flat_len {
	FLAT_LEN_NONE, /* none: up to -s (to the NUL for zero) */
	FLAT_LEN_NUM,  /* a constant */
	FLAT_LEN_ELT,  /* eltN: another member's value */
	FLAT_LEN_BAD,  /* eltN past the members: 0, none for zero */
};

static bool int_kind(const struct type *t)
{
	return t->kind >= TYPE_SHORT && t->kind <= TYPE_ULLONG;
}

/* A member that value_int reads: 1 to 8 bytes. */
static bool readable_int(const struct type *t)
{
	size_t n = type_sizeof(t);

	return (type_is_integer(t) || t->kind == TYPE_POINTER) && n >= 1 &&
	       n <= 8;
}

/* The length of string member M, whose array type is ARR, in struct T
 * (member offsets OFFS), as string_array evaluates it: false when it is
 * not flat. */
static bool compile_len(struct lens_flat_member *m, const struct type *arr,
			const struct type *t, const size_t *offs)
{
	const struct expr *e = arr->len;

	m->zero = expr_is_zero(e);
	if (m->zero)
		e = e->sub;
	if (!e) {
		m->len = FLAT_LEN_NONE;
	} else if (e->kind == EXPR_NUM) {
		m->len = FLAT_LEN_NUM;
		m->num = e->num;
	} else if (e->kind == EXPR_ELT) {
		if (e->num < 1 || (size_t)e->num > t->nfields) {
			m->len = m->zero ? FLAT_LEN_NONE : FLAT_LEN_BAD;
			return true;
		}
		const struct type *f = t->fields[e->num - 1];
		if (!readable_int(f))
			return false;
		m->len = FLAT_LEN_ELT;
		m->len_off = offs[e->num - 1];
		m->len_width = (unsigned char)type_sizeof(f);
		m->len_sign = type_is_signed(f);
	} else {
		return false;
	}
	return true;
}

/* Member I of T (F, at OFF) as a flat member: false when not flat. */
static bool compile_member(struct lens_flat_member *m, const struct type *t,
			   const size_t *offs, size_t i)
{
	const struct type *f = t->fields[i];

	m->off = offs[i];
	m->i = i;
	if (lens_hidden(f)) {
		m->op = FLAT_SKIP;
		return true;
	}
	if (f->lens == LENS_DEFAULT && int_kind(f) && type_sizeof(f) <= 8) {
		m->op = FLAT_INT;
		m->width = (unsigned char)type_sizeof(f);
		m->sign = type_is_signed(f);
		return m->width >= 1;
	}
	if (f->lens != LENS_STRING || f->kind != TYPE_POINTER ||
	    type_sizeof(f) != 8)
		return false;
	const struct type *to = f->elt;
	m->op = FLAT_STR;
	if (to->kind == TYPE_ARRAY)
		return type_char_size(to->elt) == 1 &&
		       to->elt->kind == TYPE_CHAR &&
		       compile_len(m, to, t, offs);
	m->len = FLAT_LEN_NONE; /* string(char *): up to the NUL */
	m->zero = true;
	return to->kind == TYPE_CHAR;
}

bool lens_flat_compile(struct lens_flat *fl, const struct type *t,
		       const size_t *offs)
{
	fl->n = 0;
	if (t->kind != TYPE_STRUCT || t->lens != LENS_DEFAULT ||
	    t->nfields > LENS_FLAT_MAX)
		return false;
	for (size_t i = 0; i < t->nfields; i++)
		if (!compile_member(&fl->m[i], t, offs, i))
			return false;
	fl->t = t;
	fl->n = t->nfields;
	return true;
}

/* The N (1 to 8) bytes at P as value_int reads them: fixed-size copies
 * the compiler turns into single loads (a variable one cost a byte loop,
 * 13% of writev's formatting). */
static int64_t load(const unsigned char *p, size_t n, bool sign)
{
	uint64_t u = 0;
	uint32_t u32;
	uint16_t u16;

	switch (n) {
	case 8:
		memcpy(&u, p, 8);
		return (int64_t)u;
	case 4:
		memcpy(&u32, p, 4);
		return sign ? (int64_t)(int32_t)u32 : (int64_t)u32;
	case 2:
		memcpy(&u16, p, 2);
		return sign ? (int64_t)(int16_t)u16 : (int64_t)u16;
	case 1:
		return sign ? (int64_t)(int8_t)*p : (int64_t)*p;
	default:
		memcpy(&u, p, n); /* little-endian */
		if (sign && (u >> (8 * n - 1)) & 1)
			u |= ~0ULL << (8 * n);
		return (int64_t)u;
	}
}

/* A string of a known LEN up to FLAT_SHORT bytes at P, read whole: in
 * one read of the bytes lens_chars would read first (the first of its
 * chunks holds them all), or where the source holds them (a record's
 * chunk), shown as it shows them.  False, with nothing
 * written, when that read comes short: lens_chars then says what can be
 * read. */
#define FLAT_SHORT 256

static bool short_string(struct fmt_ctx *c, uint64_t p, int64_t len, bool zero)
{
	size_t cap = c->limits->strlen;
	unsigned char b[FLAT_SHORT];

	if (len < 0 || len > FLAT_SHORT)
		return false;
	size_t want = cap < (size_t)len ? cap + 1 : (size_t)len;
	const unsigned char *q = memsrc_peek(c->mem, p, want);
	if (!q) {
		if (want && memsrc_read(c->mem, p, b, want) != want)
			return false;
		q = b;
	}
	size_t k = want;
	if (zero && want <= 32) { /* a line: cheaper than the call */
		for (size_t i = 0; i < want; i++)
			if (!q[i]) {
				k = i;
				break;
			}
	} else if (zero) {
		const unsigned char *nul = memchr(q, 0, want);
		k = nul ? (size_t)(nul - q) : want;
	}
	emit_string(c, q, k > cap ? cap : k, k > cap);
	return true;
}

static void show_string(struct fmt_ctx *c, const struct lens_flat_member *m,
			const unsigned char *elt)
{
	uint64_t p = (uint64_t)load(elt + m->off, 8, false);
	int64_t len = -1;

	if (!p) {
		emit_nil(c);
		return;
	}
	switch (m->len) {
	case FLAT_LEN_NONE:
		break;
	case FLAT_LEN_NUM:
		len = m->num;
		break;
	case FLAT_LEN_ELT:
		len = load(elt + m->len_off, m->len_width, m->len_sign);
		break;
	case FLAT_LEN_BAD:
		len = 0;
		break;
	}
	if (!short_string(c, p, len, m->zero))
		lens_chars(c, p, NULL, len, m->zero, c->limits->strlen);
}

bool lens_flat_usable(const struct fmt_ctx *c, const struct lens_flat *fl)
{
	/* the element's lens_render and its members' would nest two deep */
	return fl->n && c->radix == RADIX_DEC &&
	       c->renders + 2 <= LENS_MAX_RENDERS &&
	       c->depth < 4 * LENS_MAX_DEPTH;
}

void lens_flat_render(struct fmt_ctx *c, const struct lens_flat *fl,
		      const unsigned char *elt)
{
	const struct type *t = fl->t;
	enum emit_group g = t->names ? EMIT_RECORD : EMIT_STRUCT;
	size_t idx = 0;

	emit_begin(c, g);
	for (size_t k = 0; k < fl->n; k++) {
		const struct lens_flat_member *m = &fl->m[k];

		if (m->op == FLAT_SKIP)
			continue;
		emit_field(c, g, idx++, t->names ? t->names[m->i] : NULL, m->i);
		if (lens_budget_full(c)) {
			/* "..." once, as lens_render writes it */
			struct value v = { .type = t->fields[m->i],
					   .buf = elt + m->off };
			lens_render(c, &v);
			continue;
		}
		if (m->op == FLAT_STR) {
			show_string(c, m, elt);
		} else {
			int64_t x = load(elt + m->off, m->width, m->sign);
			if (m->sign)
				emit_dec(c, x);
			else
				emit_udec(c, (uint64_t)x);
		}
	}
	emit_end(c, g, false);
}
