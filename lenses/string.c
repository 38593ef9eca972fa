/* string(T): character arrays as "text".  At most -s characters are read
 * (one more for a NUL scan, to tell whether there is more). */
#include <stdlib.h>
#include <string.h>

#include "callfmt.h"
#include "expr.h"
#include "lens.h"
#include "memsrc.h"
#include "type.h"
#include "xmalloc.h"

/* A string of length L (the NUL-scan length for zero forms, min'ed with
 * any zero(N) cap; N itself for fixed lengths, whose NULs are printed as
 * \0, as ltrace 0.7.3 does) shows min(L, -s) characters and gets the
 * ellipsis when L > -s.  ltrace adds it at L == -s too, which claims a
 * complete string was cut; we don't. */
void lens_chars(struct fmt_ctx *c, uint64_t addr, const unsigned char *local,
		int64_t len, bool zero, size_t cap)
{
	size_t want, got, n, i;
	unsigned char *b;

	want = cap + 1;
	if (len >= 0 && (uint64_t)len < want)
		want = (size_t)len;
	b = xmalloc(want + 1);
	got = local ? (memcpy(b, local, want), want)
		    : memsrc_read(c->mem, addr, b, want);
	if (!got && want) {
		out_addr(c, addr);
		goto out_free;
	}
	n = zero ? strnlen((char *)b, got) : got;
	out_begin(c, OUT_STRING);
	for (i = 0; i < n && i < cap; i++)
		out_char(c, b[i], '"');
	out_end(c, OUT_STRING, n > cap);
out_free:
	free(b);
}

/* Characters of array type T at ADDR (or LOCAL). */
static void string_array(struct fmt_ctx *c, const struct type *t,
			 uint64_t addr, const unsigned char *local)
{
	int64_t len = -1;
	bool zero = expr_is_zero(t->len);

	if (t->elt->kind != TYPE_CHAR) {
		struct value v = { .type = t, .remote = !local, .addr = addr,
				   .buf = local };
		lens_default(c, &v);
		return;
	}
	if (t->len && expr_eval(t->len, c->env, &len) < 0 && !zero)
		len = 0;
	/* never read past an inline array's storage */
	if (local && (len < 0 || (uint64_t)len > type_sizeof(t)))
		len = (int64_t)type_sizeof(t);
	lens_chars(c, addr, local, len, zero, c->o->strlen);
}

static void string_pointer(struct fmt_ctx *c, const struct value *v)
{
	const struct type *to = v->type->elt;
	int64_t p;

	if (value_int(c, v, &p) < 0) {
		out_addr(c, v->addr);
	} else if (!p) {
		out_nil(c);
	} else if (to->kind == TYPE_ARRAY) {
		string_array(c, to, (uint64_t)p, NULL);
	} else if (to->kind == TYPE_CHAR) {
		lens_chars(c, (uint64_t)p, NULL, -1, true, c->o->strlen);
	} else {
		lens_pointer(c, v);
	}
}

void lens_string(struct fmt_ctx *c, const struct value *v)
{
	switch (v->type->kind) {
	case TYPE_POINTER:
		string_pointer(c, v);
		break;
	case TYPE_ARRAY:
		string_array(c, v->type, v->addr, v->remote ? NULL : v->buf);
		break;
	default:
		lens_default(c, v);
		break;
	}
}
