/* The default lens: integers, characters, floats, pointers (followed,
 * with recursion detection), arrays and structs. */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "flat.h"
#include "lens.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

static void lens_char(struct fmt_ctx *c, const struct value *v)
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

/* Pointers to void print as addresses (NULL as nil); others are
 * followed.  A pointer already being followed prints "recurse" and one '^' per level up; more
 * than -A nested structs of one type, or LENS_MAX_DEPTH pointers, "...". */
static bool recursion_stop(struct fmt_ctx *c, uint64_t p, const struct type *to)
{
	size_t same = 0;

	for (size_t i = 0; i < c->nptrs; i++)
		same += to->kind == TYPE_STRUCT && c->ptr_types[i] == to;
	if (same >= c->limits->arraylen || c->nptrs >= LENS_MAX_DEPTH) {
		emit_ellipsis(c);
		return true;
	}
	for (size_t i = c->nptrs; i-- > 0;) {
		if (c->ptrs[i] == p) {
			emit_recurse(c, c->nptrs - 1 - i);
			return true;
		}
	}
	return false;
}

void lens_pointer(struct fmt_ctx *c, const struct value *v)
{
	const struct type *to = v->type->elt;
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
	struct value tv = { .type = to, .remote = true, .addr = (uint64_t)p };
	unsigned char first;
	if (value_read(c, &tv, &first, 1) != 1) {
		/* Unreadable (unmapped during the call, say): the address,
		 * as an unreadable string shows, not an empty [ ] or { }. */
		emit_addr(c, (uint64_t)p);
		return;
	}
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
static size_t array_want(struct fmt_ctx *c, const struct value *v, bool *zero)
{
	const struct type *t = v->type;

	*zero = expr_is_zero(t->len);
	if (!t->len || !type_sizeof(t->elt))
		return 0;
	if (!v->remote && !type_array_is_fixed(t))
		return 0;
	int64_t len = -1;
	if (expr_eval(t->len, c->env, &len) == 0 && len < 0)
		return 0; /* a negative length: nothing to show */
	size_t want = c->limits->arraylen + 1;
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

/* Addresses handed to memsrc_prefetch in gathered reads of BATCH. */
enum { BATCH = 16 };

struct batch {
	struct memsrc *mem;
	uint64_t addrs[BATCH];
	size_t n;
};

static void batch_flush(struct batch *b)
{
	memsrc_prefetch(b->mem, b->addrs, b->n);
	b->n = 0;
}

static void batch_add(struct batch *b, uint64_t addr)
{
	b->addrs[b->n++] = addr;
	if (b->n == BATCH)
		batch_flush(b);
}

/* The pages of the TOTAL bytes at ADDR, up to BATCH of them, in one
 * gathered read: what is past them is read as it is shown.  (Without the
 * cap, 1024 elements of 64 KiB, nested, made thousands of reads per
 * array: the conf fuzzer's timeout.) */
static void prefetch_pages(struct fmt_ctx *c, uint64_t addr, size_t total)
{
	struct batch b = { .mem = c->mem };
	uint64_t end = addr + total < addr ? UINT64_MAX : addr + total;

	size_t k = 0;

	for (uint64_t a = addr & ~4095ULL; a < end && k < BATCH; a += 4096, k++)
		batch_add(&b, a);
	if (b.n)
		batch_flush(&b);
}

/* The first TOTAL bytes of array V into ALL, copied out of the cache a
 * page at a time.  Returns the number of bytes read. */
static size_t read_array(struct fmt_ctx *c, const struct value *v,
			 unsigned char *all, size_t total)
{
	prefetch_pages(c, v->addr, total);
	size_t got = 0;
	while (got < total) {
		size_t n = total - got < 4096 ? total - got : 4096;
		size_t r = memsrc_read(c->mem, v->addr + got, all + got, n);
		got += r;
		if (r < n)
			break;
	}
	return got;
}

/* How a struct of type T is grouped: a record (JSON: an object) when
 * its members have names. */
static enum emit_group struct_group(const struct type *t)
{
	return t->names ? EMIT_RECORD : EMIT_STRUCT;
}

/* Member I of struct V, the IDX-th shown: its separator and name. */
static void field_start(struct fmt_ctx *c, const struct value *v, size_t idx,
			size_t i)
{
	const struct type *t = v->type;

	emit_field(c, struct_group(t), idx, t->names ? t->names[i] : NULL, i);
}

/* An array member whose storage is not a constant. */
static bool is_dynamic(const struct type *f)
{
	return f->kind == TYPE_ARRAY && f->len && !type_array_is_fixed(f);
}

static bool struct_is_dynamic(const struct type *t)
{
	for (size_t i = 0; i < t->nfields; i++)
		if (is_dynamic(t->fields[i]))
			return true;
	return false;
}

/* The static layout of a struct type: its size, where its members are,
 * and whether one is a dynamic array (in tracee memory the members after
 * it move).  Measured once per struct shown, and once for all the
 * elements of an array of structs (c->layout). */
#define LAYOUT_SMALL 8

/* Offsets of a struct's members, computed as they are shown: an array
 * member whose length is another member's value (struct(ulong,
 * array(int, elt1), int)) moves the members after it. */
struct elt_data {
	struct fmt_ctx *c;
	const struct value *v;
	size_t *offs;
	size_t nknown; /* members whose offset is known */
};

static int struct_elt(void *data, long n, int64_t *out)
{
	struct elt_data *d = data;
	const struct type *t = d->v->type;

	if (n < 1 || (size_t)n > d->nknown)
		return -1;
	struct value fv = value_at(d->v, t->fields[n - 1], d->offs[n - 1]);
	return value_int(d->c, &fv, out);
}

/* HIDDEN: bit I set when member I (< 64) is hidden.  For the elements
 * of an array of structs whose members do not move, the environment of
 * their eltN is set up once (ENV over BASE, the array's): READY.  A
 * struct of the same type shown inside an element sees ENV, not BASE,
 * as its environment, and sets up its own. */
struct lens_layout {
	const struct type *t;
	size_t size;
	bool dynamic;
	size_t *offs;
	size_t small[LAYOUT_SMALL];
	uint64_t hidden;
	bool ready;
	const struct expr_env *base;
	struct expr_env env;
	struct elt_data d;
};

static void layout_init(struct lens_layout *l, const struct type *t)
{
	l->t = t;
	l->offs = t->nfields <= LAYOUT_SMALL ?
			  l->small :
			  xreallocarray(NULL, t->nfields, sizeof(*l->offs));
	l->size = type_layout(t, l->offs);
	l->dynamic = struct_is_dynamic(t);
	l->hidden = 0;
	for (size_t i = 0; i < t->nfields && i < 64; i++)
		if (lens_hidden(t->fields[i]))
			l->hidden |= 1ULL << i;
	l->ready = false;
}

/* The environment of the elements' eltN, set up once for the array:
 * C's, with eltN reading member N of the element shown (L->d.v). */
static void layout_env(struct fmt_ctx *c, struct lens_layout *l)
{
	if (l->dynamic)
		return;
	l->d = (struct elt_data){ c, NULL, l->offs, l->t->nfields };
	l->base = c->env;
	l->env = c->env ? *c->env : (struct expr_env){ 0 };
	l->env.elt = struct_elt;
	l->env.elt_data = &l->d;
	l->ready = true;
}

static bool layout_hidden(const struct lens_layout *l, size_t i)
{
	return i < 64 ? (l->hidden >> i) & 1 : lens_hidden(l->t->fields[i]);
}

static void layout_destroy(struct lens_layout *l)
{
	if (l->offs != l->small)
		free(l->offs);
}

/* An array of pointers or of structs holding pointers (writev's iovecs,
 * argv): the memory its N elements at ELTS point at is fetched in
 * gathered reads before they are shown one by one. */
static void prefetch_targets(struct fmt_ctx *c, const struct type *elt,
			     const unsigned char *elts, size_t n, size_t esz)
{
	size_t offs[4];
	size_t noffs = pointer_offsets(elt, offs, 4);
	struct batch b = { .mem = c->mem };

	if (!noffs || !c->mem->prefetch)
		return;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < noffs; j++) {
			uint64_t a;

			if (offs[j] + sizeof(a) > esz)
				continue;
			memcpy(&a, elts + i * esz + offs[j], sizeof(a));
			batch_add(&b, a);
		}
	}
	batch_flush(&b);
}

/* Elements are read a chunk at a time, at most ARRAY_CHUNK bytes, into
 * a buffer on the stack: a corrupt length costs at most -A + 1 elements
 * read, and no allocation unless one element is larger. */
#define ARRAY_CHUNK 4096
#define PREFETCH_MAX 1024

struct elts {
	const struct value *v;
	size_t esz;
	size_t per;	 /* elements a chunk */
	size_t first, n; /* the chunk: elements [first, first + n) */
	unsigned char *buf;
	unsigned char small[ARRAY_CHUNK];
};

/* Element I of the array, read with those after it up to WANT when not
 * in the buffer: NULL when it cannot be read. */
static const unsigned char *elt_at(struct fmt_ctx *c, struct elts *e, size_t i,
				   size_t want)
{
	if (i - e->first < e->n)
		return e->buf + (i - e->first) * e->esz;
	size_t n = want - i < e->per ? want - i : e->per;
	struct value at = value_at(e->v, e->v->type, i * e->esz);
	size_t got = at.remote ? read_array(c, &at, e->buf, n * e->esz) :
				 value_read(c, &at, e->buf, n * e->esz);
	e->first = i;
	e->n = got / e->esz;
	if (at.remote)
		prefetch_targets(c, e->v->type->elt, e->buf, e->n, e->esz);
	return e->n ? e->buf : NULL;
}

static void elts_init(struct elts *e, const struct value *v, size_t esz)
{
	e->v = v;
	e->esz = esz;
	e->first = e->n = 0;
	e->per = esz && esz <= ARRAY_CHUNK ? ARRAY_CHUNK / esz : 1;
	e->buf = esz <= ARRAY_CHUNK ? e->small : xmalloc(esz);
}

static void lens_array(struct fmt_ctx *c, const struct value *v)
{
	const struct type *et = v->type->elt;
	struct elts e;
	bool zero;
	size_t want = array_want(c, v, &zero);
	struct value ev = { .type = et };
	bool more = false;
	struct lens_layout lay;
	struct lens_layout *saved = c->layout;
	struct lens_flat flat;

	flat.n = 0;
	elts_init(&e, v, type_sizeof(et));
	/* the pages of the first PREFETCH_MAX elements in one gathered read,
	 * not one a chunk (1024 iovecs are 4 chunks); -A may be unlimited */
	if (v->remote)
		prefetch_pages(c, v->addr,
			       (want < PREFETCH_MAX ? want : PREFETCH_MAX) *
				       e.esz);
	if (et->kind == TYPE_STRUCT && want) {
		layout_init(&lay, et);
		layout_env(c, &lay);
		c->layout = &lay;
		if (!lay.dynamic && lens_flat_compile(&flat, et, lay.offs) &&
		    !lens_flat_usable(c, &flat))
			flat.n = 0;
	}
	emit_begin(c, EMIT_ARRAY);
	for (size_t i = 0; i < want; i++) {
		ev.buf = elt_at(c, &e, i, want);
		if (!ev.buf || (zero && all_zero(ev.buf, e.esz)))
			break;
		if (i == c->limits->arraylen || lens_budget_full(c)) {
			more = true;
			break;
		}
		emit_sep(c, EMIT_ARRAY, i);
		if (flat.n)
			lens_flat_render(c, &flat, ev.buf);
		else
			lens_render(c, &ev);
	}
	emit_end(c, EMIT_ARRAY, more);
	if (c->layout != saved)
		layout_destroy(&lay);
	c->layout = saved;
	if (e.buf != e.small)
		free(e.buf);
}

#define DYN_MAX_BYTES (1u << 24)

/* The length of zero() array member FV (elements of ESZ bytes): up to and
 * including the terminator, if there is one within LEN elements (any
 * number when LEN < 0).  Else LEN; -1 when an element is unreadable. */
static int64_t zero_len(struct fmt_ctx *c, const struct value *fv, size_t esz,
			int64_t len)
{
	unsigned char b[64];
	struct value ev = *fv;

	if (esz > sizeof(b))
		return len;
	for (size_t i = 0;
	     (len < 0 || i < (uint64_t)len) && i * esz < DYN_MAX_BYTES; i++) {
		if (value_read(c, &ev, b, esz) != esz)
			return -1;
		if (all_zero(b, esz))
			return (int64_t)i + 1;
		ev = value_at(&ev, ev.type, esz);
	}
	return len;
}

/* The storage of dynamic member FV: its length's value, or for a zero()
 * array the elements up to and including the terminator.  False when
 * unknown or absurd (a corrupt length), which ends the struct. */
static bool dynamic_size(struct fmt_ctx *c, const struct value *fv,
			 size_t *size)
{
	const struct type *f = fv->type;
	size_t esz = type_sizeof(f->elt);
	int64_t len = -1;

	if (!esz)
		return false;
	if (expr_eval(f->len, c->env, &len) < 0 && !expr_is_zero(f->len))
		return false;
	if (expr_is_zero(f->len))
		len = zero_len(c, fv, esz, len);
	if (len < 0 || (uint64_t)len > DYN_MAX_BYTES / esz)
		return false;
	*size = (size_t)len * esz;
	return true;
}

static size_t align_to(size_t n, size_t al)
{
	return al ? (n + al - 1) / al * al : n;
}

/* Members up to the first dynamic array are where the static layout
 * says, so eltN may refer forward to them. */
static void static_offsets(struct elt_data *d, const struct lens_layout *l)
{
	const struct type *t = d->v->type;

	for (size_t i = 0; i < t->nfields; i++) {
		d->offs[i] = l->offs[i];
		d->nknown = i + 1;
		if (is_dynamic(t->fields[i]))
			break;
	}
}

/* The members of a struct in tracee memory that holds a dynamic array,
 * each placed after the one before it, until a dynamic one whose size
 * is unknown: the members after it cannot be placed. */
static void show_moving_fields(struct fmt_ctx *c, struct elt_data *d)
{
	const struct value *v = d->v;
	size_t idx = 0;
	size_t off = 0;

	for (size_t i = 0; i < v->type->nfields; i++) {
		const struct type *f = v->type->fields[i];

		off = align_to(off, type_alignof(f));
		d->offs[i] = off;
		if (d->nknown < i + 1)
			d->nknown = i + 1;
		struct value fv = value_at(v, f, off);
		size_t size = type_sizeof(f);
		if (is_dynamic(f) && !dynamic_size(c, &fv, &size)) {
			field_start(c, v, idx++, i);
			emit_ellipsis(c);
			return;
		}
		off += size;
		if (lens_hidden(f))
			continue;
		field_start(c, v, idx++, i);
		lens_render(c, &fv);
	}
}

/* The members of any other struct: where the static layout says. */
static void show_fields(struct fmt_ctx *c, const struct value *v,
			const struct lens_layout *l)
{
	size_t idx = 0;

	for (size_t i = 0; i < v->type->nfields; i++) {
		const struct type *f = v->type->fields[i];

		if (layout_hidden(l, i))
			continue;
		struct value fv = value_at(v, f, l->offs[i]);
		field_start(c, v, idx++, i);
		lens_render(c, &fv);
	}
}

/* eltN in the members' expressions reads member N of V. */
static void struct_fields(struct fmt_ctx *c, const struct value *v,
			  struct lens_layout *l)
{
	struct elt_data d = { c, v, l->offs, v->type->nfields };
	const struct expr_env *saved = c->env;
	struct expr_env env;
	bool moving = v->remote && l->dynamic;
	size_t small[LAYOUT_SMALL];

	if (l->ready && l->base == saved && !v->remote) {
		/* an element of the array that set L's env up */
		l->d.v = v;
		c->env = &l->env;
	} else {
		env = saved ? *saved : (struct expr_env){ 0 };
		env.elt = struct_elt;
		env.elt_data = &d;
		c->env = &env;
	}
	if (moving) {
		d.offs = v->type->nfields <= LAYOUT_SMALL ?
				 small :
				 xreallocarray(NULL, v->type->nfields,
					       sizeof(*d.offs));
		d.nknown = 0;
		static_offsets(&d, l);
	}
	emit_begin(c, struct_group(v->type));
	if (moving)
		show_moving_fields(c, &d);
	else
		show_fields(c, v, l);
	emit_end(c, struct_group(v->type), false);
	if (d.offs != small && d.offs != l->offs)
		free(d.offs);
	c->env = saved;
}

/* A struct in tracee memory is read at once, except one holding dynamic
 * arrays, whose members are read where they turn out to be.  Its layout
 * is the array's when it is an element of one. */
static void lens_struct(struct fmt_ctx *c, const struct value *v)
{
	struct lens_layout own;
	struct lens_layout *l = c->layout;

	if (!l || l->t != v->type) {
		layout_init(&own, v->type);
		l = &own;
	}
	if (v->remote && l->dynamic) {
		struct_fields(c, v, l);
	} else {
		unsigned char small[256];
		size_t n = l->size;
		unsigned char *local =
			!v->remote || n <= sizeof(small) ? small : xmalloc(n);
		struct value lv = *v;
		if (!value_localize(c, &lv, local, n))
			emit_addr(c, v->addr);
		else
			struct_fields(c, &lv, l);
		if (local != small)
			free(local);
	}
	if (l == &own)
		layout_destroy(&own);
}

/* Arrays and structs nest by value without pointers only finitely, but
 * cap the depth anyway against pathological files. */
static void lens_nested(struct fmt_ctx *c, const struct value *v)
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

void lens_default(struct fmt_ctx *c, const struct value *v)
{
	switch (v->type->kind) {
	case TYPE_VOID:
		emit_void(c);
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
