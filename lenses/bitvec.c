/* bitvec(T): the numbers of the set bits, "<2-3,5>"; when more than half
 * are set, the clear ones inverted, "~<0>".  Integers number bits from
 * the LSB; arrays and structs by byte order (the same on little endian);
 * a pointer is dereferenced first. */
#include <string.h>

#include "lens.h"
#include "type.h"

#define BITVEC_MAX 128 /* bytes */

static bool bit(const unsigned char *b, size_t i, bool inv)
{
	return ((b[i / 8] >> (i % 8)) & 1) != inv;
}

static void print_bits(struct fmt_ctx *c, const unsigned char *b, size_t n)
{
	size_t bits = n * 8;
	size_t set = 0;

	for (size_t i = 0; i < bits; i++)
		set += bit(b, i, false);
	/* JSON: the set bits, never inverted */
	bool inv = !c->json && set > bits / 2;
	enum emit_group g = inv ? EMIT_BITVEC_NOT : EMIT_BITVEC;
	size_t idx = 0;
	emit_begin(c, g);
	for (size_t i = 0; i < bits; i++) {
		if (!bit(b, i, inv))
			continue;
		size_t j = i;
		while (j + 1 < bits && bit(b, j + 1, inv))
			j++;
		emit_sep(c, g, idx++);
		emit_bit_range(c, i, j);
		i = j;
	}
	emit_end(c, g, false);
}

void lens_bitvec(struct fmt_ctx *c, const struct value *v)
{
	struct value tv = *v;

	if (v->type->kind == TYPE_POINTER) {
		int64_t p;

		if (value_int(c, v, &p) < 0 || !p) {
			lens_default(c, v);
			return;
		}
		tv.type = v->type->elt;
		tv.remote = true;
		tv.addr = (uint64_t)p;
	}
	size_t n = type_sizeof(tv.type);
	if (!n || n > BITVEC_MAX || tv.type->kind == TYPE_PACK) {
		lens_default(c, v);
		return;
	}
	unsigned char b[BITVEC_MAX];
	if (value_read(c, &tv, b, n) != n) {
		emit_addr(c, tv.addr);
		return;
	}
	print_bits(c, b, n);
}
