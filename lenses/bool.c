/* bool(T): zero is false, anything else true. */
#include "lens.h"
#include "type.h"

void lens_bool(struct lens_ctx *c, const struct value *v)
{
	int64_t x;

	if (!type_is_integer(v->type) && v->type->kind != TYPE_POINTER) {
		lens_default(c, v);
		return;
	}
	if (value_int(c, v, &x) < 0)
		lens_int(c, v, RADIX_DEC);
	else
		emit_text(c, x ? "true" : "false");
}
