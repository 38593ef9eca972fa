/* The default lens: integers, characters, floats, pointers (followed,
 * with recursion detection), arrays and structs. */
#include <stdlib.h>
#include <string.h>

#include "calltext.h"
#include "expr.h"
#include "lens.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

static void lens_char(struct lens_ctx *c, const struct value *v)
{
	unsigned char ch;

	if (value_read(c, v, &ch, 1) != 1) {
		emit_addr(c, v->addr);
		return;
	}
	emit_begin(c, EMIT_CHAR);
	emit_char(c, ch, '\'');
	emit_end(c, EMIT_CHAR, false);
}

/* Pointers to void print as addresses; others are followed.  A pointer
 * already being followed prints "recurse" and one '^' per level up; more
 * than -A nested structs of one type, or LENS_MAX_DEPTH pointers, "...". */
static bool recursion_stop(struct lens_ctx *c, uint64_t p, const struct type *to)
{
	size_t i, same = 0;

	for (i = 0; i < c->nptrs; i++)
		same += to->kind == TYPE_STRUCT && c->ptr_types[i] == to;
	if (same >= c->limits->arraylen || c->nptrs >= LENS_MAX_DEPTH) {
		emit_ellipsis(c);
		return true;
	}
	for (i = c->nptrs; i-- > 0;) {
		if (c->ptrs[i] == p) {
			emit_recurse(c, c->nptrs - 1 - i);
			return true;
		}
	}
	return false;
}

void lens_pointer(struct lens_ctx *c, const struct value *v)
{
	const struct type *to = v->type->elt;
	struct value tv;
	int64_t p;

	if (value_int(c, v, &p) < 0) {
		emit_addr(c, v->addr);
		return;
	}
	if (to->kind == TYPE_VOID) {
		emit_addr(c, (uint64_t)p);
		return;
	}
	if (!p) {
		emit_nil(c);
		return;
	}
	if (recursion_stop(c, (uint64_t)p, to))
		return;
	tv = (struct value){ .type = to, .remote = true, .addr = (uint64_t)p };
	c->ptrs[c->nptrs] = (uint64_t)p;
	c->ptr_types[c->nptrs++] = to;
	lens_render(c, &tv);
	c->nptrs--;
}

/* True when the SZ bytes at B are all zero. */
static bool all_zero(const unsigned char *b, size_t sz)
{
	while (sz--)
		if (*b++)
			return false;
	return true;
}

/* How many elements of array value V to look at: its length, or -A + 1
 * (to tell there are more) if that is less; zero() scans stop earlier.
 * A local value (inside a struct fetched from registers) has storage for
 * a fixed-size array only. */
static size_t array_want(struct lens_ctx *c, const struct value *v, bool *zero)
{
	const struct type *t = v->type;
	size_t want = c->limits->arraylen + 1;
	int64_t len = -1;

	*zero = expr_is_zero(t->len);
	if (!t->len || !type_sizeof(t->elt))
		return 0;
	if (!v->remote && !type_array_is_fixed(t))
		return 0;
	if (expr_eval(t->len, c->env, &len) == 0 && len < 0)
		return 0;	/* a negative length: nothing to show */
	if (len >= 0 && (uint64_t)len < want)
		want = (size_t)len;
	if (!*zero && len < 0)
		want = 0;
	return want;
}

/* Offsets of the pointers an element of type T holds directly (T
 * itself, or its members), at most MAX of them. */
static size_t pointer_offsets(const struct type *t, size_t *offs, size_t max)
{
	size_t n = 0;
	if (t->kind == TYPE_POINTER)
		offs[n++] = 0;
	else if (t->kind == TYPE_STRUCT)
		for (size_t i = 0; i < t->nfields && n < max; i++)
			if (t->fields[i]->kind == TYPE_POINTER)
				offs[n++] = type_offsetof(t, i);
	return n;
}

/* An array of pointers or of structs holding pointers (writev's iovecs,
 * argv): fetch the memory they point at in one gathered read before the
 * elements are formatted one by one. */
static void prefetch_targets(struct lens_ctx *c, const struct value *v,
			     size_t want, size_t esz)
{
	enum { BATCH = 16 };
	size_t offs[4], noffs = pointer_offsets(v->type->elt, offs, 4);
	if (!v->remote || !noffs || !want || !c->mem->prefetch)
		return;
	if (want > c->limits->arraylen + 1)
		want = c->limits->arraylen + 1;
	size_t total = want * esz, got = 0;
	unsigned char *all = xmalloc(total);
	uint64_t addrs[BATCH];
	size_t k = 0;
	/* The array's own pages first, in one read; then it is copied out
	 * of the cache a page at a time. */
	for (uint64_t a = v->addr & ~4095ULL; a < v->addr + total; a += 4096) {
		addrs[k++] = a;
		if (k == BATCH) {
			memsrc_prefetch(c->mem, addrs, k);
			k = 0;
		}
	}
	memsrc_prefetch(c->mem, addrs, k);
	k = 0;
	while (got < total) {
		size_t n = total - got < 4096 ? total - got : 4096;
		size_t r = memsrc_read(c->mem, v->addr + got, all + got, n);
		got += r;
		if (r < n)
			break;
	}
	got /= esz;
	for (size_t i = 0; i < got; i++) {
		for (size_t j = 0; j < noffs; j++) {
			if (offs[j] + sizeof(uint64_t) > esz)
				continue;
			memcpy(&addrs[k], all + i * esz + offs[j], 8);
			if (++k == BATCH) {
				memsrc_prefetch(c->mem, addrs, k);
				k = 0;
			}
		}
	}
	memsrc_prefetch(c->mem, addrs, k);
	free(all);
}

/* Elements are read one at a time through the page cache, so a corrupt
 * length costs at most -A + 1 reads and no allocation. */
static void lens_array(struct lens_ctx *c, const struct value *v)
{
	size_t i, cap = c->limits->arraylen, esz = type_sizeof(v->type->elt);
	bool zero, more = false;
	size_t want = array_want(c, v, &zero);
	unsigned char *buf = xmalloc(esz ? esz : 1);
	struct value ev = { .type = v->type->elt, .buf = buf };
	struct value src = *v;

	prefetch_targets(c, v, want, esz);
	emit_begin(c, EMIT_ARRAY);
	for (i = 0; i < want; i++) {
		if (value_read(c, &src, buf, esz) != esz ||
		    (zero && all_zero(buf, esz)))
			break;
		if (i == cap || lens_budget_full(c)) {
			more = true;
			break;
		}
		emit_sep(c, EMIT_ARRAY, i);
		lens_render(c, &ev);
		src = value_at(&src, src.type, esz);
	}
	emit_end(c, EMIT_ARRAY, more);
	free(buf);
}

/* Offsets of a struct's members, computed as they are printed: an array
 * member whose length is another member's value (struct(ulong,
 * array(int, elt1), int)) moves the members after it. */
struct elt_data {
	struct lens_ctx *c;
	const struct value *v;
	size_t *offs;
	size_t nknown;		/* members whose offset is known */
};

static int struct_elt(void *data, long n, int64_t *out)
{
	struct elt_data *d = data;
	const struct type *t = d->v->type;
	struct value fv;

	if (n < 1 || (size_t)n > d->nknown)
		return -1;
	fv = value_at(d->v, t->fields[n - 1], d->offs[n - 1]);
	return value_int(d->c, &fv, out);
}

/* An array member whose storage is not a constant. */
static bool is_dynamic(const struct type *f)
{
	return f->kind == TYPE_ARRAY && f->len && !type_array_is_fixed(f);
}

#define DYN_MAX_BYTES (1u << 24)

/* The storage of dynamic member F at OFF: its length's value, or for a
 * zero() array the elements up to and including the terminator.  False
 * when unknown or absurd (a corrupt length), which ends the struct. */
static bool dynamic_size(struct lens_ctx *c, const struct value *fv,
			 size_t *size)
{
	const struct type *f = fv->type;
	size_t esz = type_sizeof(f->elt), i;
	unsigned char b[64];
	struct value ev = *fv;
	int64_t len = -1;

	if (!esz)
		return false;
	if (expr_eval(f->len, c->env, &len) < 0 && !expr_is_zero(f->len))
		return false;
	if (expr_is_zero(f->len) && esz <= sizeof(b)) {
		for (i = 0; (len < 0 || i < (uint64_t)len) &&
			    i * esz < DYN_MAX_BYTES; i++) {
			if (value_read(c, &ev, b, esz) != esz)
				return false;
			if (all_zero(b, esz)) {
				len = (int64_t)i + 1;
				break;
			}
			ev = value_at(&ev, ev.type, esz);
		}
	}
	if (len < 0 || (uint64_t)len > DYN_MAX_BYTES / esz)
		return false;
	*size = (size_t)len * esz;
	return true;
}

static size_t align_to(size_t n, size_t al)
{
	return al ? (n + al - 1) / al * al : n;
}

static void struct_fields(struct lens_ctx *c, const struct value *v)
{
	const struct type *t = v->type;
	struct expr_env env = { 0 }, *saved = (struct expr_env *)c->env;
	struct elt_data d = { c, v, NULL, 0 };
	struct value fv;
	size_t i, idx = 0, off = 0, size;

	if (saved)
		env = *saved;
	env.elt = struct_elt;
	env.elt_data = &d;
	c->env = &env;
	/* members up to the first dynamic array are where the static
	 * layout says, so eltN may refer forward to them */
	d.offs = xcalloc(t->nfields ? t->nfields : 1, sizeof(*d.offs));
	for (i = 0; i < t->nfields; i++) {
		d.offs[i] = type_offsetof(t, i);
		d.nknown = i + 1;
		if (v->remote && is_dynamic(t->fields[i]))
			break;
	}
	emit_begin(c, EMIT_STRUCT);
	for (i = 0; i < t->nfields; i++) {
		off = align_to(off, type_alignof(t->fields[i]));
		d.offs[i] = off;
		if (d.nknown < i + 1)
			d.nknown = i + 1;
		fv = value_at(v, t->fields[i], off);
		size = type_sizeof(t->fields[i]);
		if (v->remote && is_dynamic(t->fields[i]) &&
		    !dynamic_size(c, &fv, &size)) {
			/* members after it cannot be placed */
			emit_sep(c, EMIT_STRUCT, idx++);
			emit_ellipsis(c);
			break;
		}
		off += size;
		if (lens_hidden(t->fields[i]))
			continue;
		emit_sep(c, EMIT_STRUCT, idx++);
		lens_render(c, &fv);
	}
	emit_end(c, EMIT_STRUCT, false);
	free(d.offs);
	c->env = saved;
}

static bool struct_is_dynamic(const struct type *t)
{
	size_t i;

	for (i = 0; i < t->nfields; i++)
		if (is_dynamic(t->fields[i]))
			return true;
	return false;
}

/* A struct in tracee memory is read at once, except one holding dynamic
 * arrays, whose members are read where they turn out to be. */
static void lens_struct(struct lens_ctx *c, const struct value *v)
{
	size_t n = type_sizeof(v->type);
	unsigned char *local;
	struct value lv = *v;

	if (v->remote && struct_is_dynamic(v->type)) {
		struct_fields(c, v);
		return;
	}
	local = xmalloc(n ? n : 1);
	if (!value_localize(c, &lv, local, n))
		emit_addr(c, v->addr);
	else
		struct_fields(c, &lv);
	free(local);
}

/* Arrays and structs nest by value without pointers only finitely, but
 * cap the depth anyway against pathological files. */
static void lens_nested(struct lens_ctx *c, const struct value *v)
{
	if (c->depth >= 4 * LENS_MAX_DEPTH) {
		emit_ellipsis(c);
		return;
	}
	c->depth++;
	if (v->type->kind == TYPE_ARRAY)
		lens_array(c, v);
	else
		lens_struct(c, v);
	c->depth--;
}

void lens_default(struct lens_ctx *c, const struct value *v)
{
	switch (v->type->kind) {
	case TYPE_VOID:
		break;
	case TYPE_CHAR:
		if (c->radix == RADIX_DEC) {
			lens_char(c, v);
			break;
		}
		/* fall through */
	default:
		lens_int(c, v, c->radix);
		break;
	case TYPE_FLOAT:
	case TYPE_DOUBLE:
	case TYPE_LDOUBLE:
		lens_float(c, v, c->radix);
		break;
	case TYPE_POINTER:
		lens_pointer(c, v);
		break;
	case TYPE_ARRAY:
	case TYPE_STRUCT:
		lens_nested(c, v);
		break;
	case TYPE_PACK:
		lens_format_pack(c, v);
		break;
	}
}
