/* The default lens: integers, characters, floats, pointers (followed,
 * with recursion detection), arrays and structs. */
#include <stdlib.h>
#include <string.h>

#include "callfmt.h"
#include "expr.h"
#include "lens.h"
#include "type.h"
#include "xmalloc.h"

static void lens_char(struct fmt_ctx *c, const struct value *v)
{
	unsigned char ch;

	if (value_read(c, v, &ch, 1) != 1) {
		out_addr(c, v->addr);
		return;
	}
	out_text(c, "'");
	out_char(c, ch, '\'');
	out_text(c, "'");
}

/* Pointers to void print as addresses; others are followed.  A pointer
 * already being followed prints "recurse" and one '^' per level up; more
 * than -A nested structs of one type, or LENS_MAX_DEPTH pointers, "...". */
static bool recursion_stop(struct fmt_ctx *c, uint64_t p, const struct type *to)
{
	size_t i, same = 0;

	for (i = 0; i < c->nptrs; i++)
		same += to->kind == TYPE_STRUCT && c->ptr_types[i] == to;
	if (same >= c->o->arraylen || c->nptrs >= LENS_MAX_DEPTH) {
		out_text(c, "...");
		return true;
	}
	for (i = c->nptrs; i-- > 0;) {
		if (c->ptrs[i] != p)
			continue;
		out_text(c, "recurse");
		while (++i < c->nptrs)
			out_text(c, "^");
		return true;
	}
	return false;
}

void lens_pointer(struct fmt_ctx *c, const struct value *v)
{
	const struct type *to = v->type->elt;
	struct value tv;
	int64_t p;

	if (value_int(c, v, &p) < 0) {
		out_addr(c, v->addr);
		return;
	}
	if (to->kind == TYPE_VOID) {
		out_addr(c, (uint64_t)p);
		return;
	}
	if (!p) {
		out_nil(c);
		return;
	}
	if (recursion_stop(c, (uint64_t)p, to))
		return;
	tv = (struct value){ .type = to, .remote = true, .addr = (uint64_t)p };
	c->ptrs[c->nptrs] = (uint64_t)p;
	c->ptr_types[c->nptrs++] = to;
	lens_format(c, &tv);
	c->nptrs--;
}

/* Elements before the first all-zero one among the N in B. */
static size_t zero_scan(const unsigned char *b, size_t n, size_t esz)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < esz && !b[i * esz + j]; j++)
			;
		if (j == esz)
			return i;
	}
	return n;
}

/* How many elements array value V has, at most CAP + 1 (to tell that
 * there are more); elements read into *BUF (caller frees). */
static size_t array_fetch(struct fmt_ctx *c, const struct value *v,
			  size_t cap, unsigned char **buf)
{
	const struct type *t = v->type;
	size_t esz = type_sizeof(t->elt), want = cap + 1, got;
	int64_t len = -1;

	if (!esz || !t->len)
		return 0;
	if (expr_eval(t->len, c->env, &len) == 0 && len >= 0 &&
	    (uint64_t)len < want)
		want = (size_t)len;
	if (!expr_is_zero(t->len) && len < 0)
		want = 0;
	*buf = xcalloc(want ? want : 1, esz);
	got = value_read(c, v, *buf, want * esz) / esz;
	if (expr_is_zero(t->len))
		got = zero_scan(*buf, got, esz);
	return got;
}

static void lens_array(struct fmt_ctx *c, const struct value *v)
{
	size_t i, cap = c->o->arraylen, n;
	size_t esz = type_sizeof(v->type->elt);
	unsigned char *buf = NULL;
	struct value ev;

	n = array_fetch(c, v, cap, &buf);
	ev = (struct value){ .type = v->type->elt, .buf = buf };
	out_begin(c, OUT_ARRAY);
	for (i = 0; i < n && i < cap; i++) {
		out_sep(c, OUT_ARRAY, i);
		lens_format(c, &ev);
		ev.buf += esz;
	}
	out_end(c, OUT_ARRAY, n > cap);
	free(buf);
}

struct elt_data {
	struct fmt_ctx *c;
	const struct value *v;
};

static int struct_elt(void *data, long n, int64_t *out)
{
	struct elt_data *d = data;
	const struct type *t = d->v->type;
	struct value fv;

	if (n < 1 || (size_t)n > t->nfields)
		return -1;
	fv = value_at(d->v, t->fields[n - 1], type_offsetof(t, n - 1));
	return value_int(d->c, &fv, out);
}

static void struct_fields(struct fmt_ctx *c, const struct value *v)
{
	const struct type *t = v->type;
	struct expr_env env = { 0 }, *saved = (struct expr_env *)c->env;
	struct elt_data d = { c, v };
	struct value fv;
	size_t i, idx = 0;

	if (saved)
		env = *saved;
	env.elt = struct_elt;
	env.elt_data = &d;
	c->env = &env;
	out_begin(c, OUT_STRUCT);
	for (i = 0; i < t->nfields; i++) {
		if (lens_hidden(t->fields[i]))
			continue;
		out_sep(c, OUT_STRUCT, idx++);
		fv = value_at(v, t->fields[i], type_offsetof(t, i));
		lens_format(c, &fv);
	}
	out_end(c, OUT_STRUCT, false);
	c->env = saved;
}

static void lens_struct(struct fmt_ctx *c, const struct value *v)
{
	size_t n = type_sizeof(v->type);
	unsigned char *local = xmalloc(n ? n : 1);
	struct value lv = *v;

	if (!value_localize(c, &lv, local, n))
		out_addr(c, v->addr);
	else
		struct_fields(c, &lv);
	free(local);
}

/* Arrays and structs nest by value without pointers only finitely, but
 * cap the depth anyway against pathological files. */
static void lens_nested(struct fmt_ctx *c, const struct value *v)
{
	if (c->depth >= 4 * LENS_MAX_DEPTH) {
		out_text(c, "...");
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
		break;
	case TYPE_CHAR:
		if (c->intfmt == LENS_DEFAULT) {
			lens_char(c, v);
			break;
		}
		/* fall through */
	default:
		lens_int(c, v, c->intfmt);
		break;
	case TYPE_FLOAT:
	case TYPE_DOUBLE:
		lens_float(c, v, c->intfmt);
		break;
	case TYPE_POINTER:
		lens_pointer(c, v);
		break;
	case TYPE_ARRAY:
	case TYPE_STRUCT:
		lens_nested(c, v);
		break;
	case TYPE_FORMAT:
		lens_format_pack(c, v);
		break;
	}
}
