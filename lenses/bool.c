/* bool(T): zero is false, anything else true. */
#include "lens.h"

void lens_bool(struct fmt_ctx *c, const struct value *v)
{
	int64_t x;

	if (lens_int_value(c, v, &x))
		emit_bool(c, x != 0);
}
