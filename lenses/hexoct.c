/* Numbers: integers and floating point numbers in decimal, hex() and
 * oct(), and the "guess" lens of functions without a prototype. */
#include <string.h>

#include "lens.h"
#include "type.h"

static void unreadable(struct fmt_ctx *c, const struct value *v)
{
	emit_addr(c, v->remote ? v->addr : 0);
}

static uint64_t mask_to(const struct type *t, int64_t x)
{
	size_t n = type_sizeof(t);
	if (n >= 8 || !n)
		return (uint64_t)x;
	return (uint64_t)x & ((1ULL << (8 * n)) - 1);
}

void lens_int(struct fmt_ctx *c, const struct value *v, enum radix r)
{
	int64_t x;

	if (value_int(c, v, &x) < 0) {
		unreadable(c, v);
		return;
	}
	if (r == RADIX_HEX)
		emit_hexint(c, mask_to(v->type, x));
	else if (r == RADIX_OCT)
		/* ltrace writes octal with a leading 0 always: 0 is "00" */
		emit_oct(c, mask_to(v->type, x));
	else if (type_is_signed(v->type))
		emit_dec(c, x);
	else
		emit_udec(c, (uint64_t)x);
}

bool lens_int_value(struct fmt_ctx *c, const struct value *v, int64_t *x)
{
	if (!type_is_integer(v->type) && v->type->kind != TYPE_POINTER) {
		lens_default(c, v);
		return false;
	}
	if (value_int(c, v, x) < 0) {
		unreadable(c, v);
		return false;
	}
	return true;
}

/* Small numbers are probably numbers, anything else probably an address
 * (ltrace's INT_FMT_unknown). */
void lens_guess(struct fmt_ctx *c, const struct value *v)
{
	int64_t x;

	if (!lens_int_value(c, v, &x))
		return;
	if (x >= -10000 && x <= 10000)
		emit_dec(c, x);
	else
		emit_hex(c, (uint64_t)x);
}

/* float and double print as %f (hex: %a); long double as %Lf (%La).  The
 * tracer is native to the tracee, so its long double is the tracee's: the
 * 16 bytes convert as they are (any padding, as x87's bytes 10..15, is
 * ignored by the conversion). */
void lens_float(struct fmt_ctx *c, const struct value *v, enum radix r)
{
	unsigned char b[16] = { 0 };
	size_t n = type_sizeof(v->type);

	if (value_read(c, v, b, n) != n) {
		unreadable(c, v);
		return;
	}
	if (n == 16) {
		long double ld;
		memcpy(&ld, b, sizeof(ld));
		emit_ldouble(c, r == RADIX_HEX ? "%La" : "%Lf", ld);
		return;
	}
	double d;
	if (n == 4) {
		float f;
		memcpy(&f, b, 4);
		d = f;
	} else {
		memcpy(&d, b, 8);
	}
	emit_double(c, r == RADIX_HEX ? "%a" : "%f", d);
}
