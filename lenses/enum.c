/* enum(A, B=5, C): the name of the value, or the number itself. */
#include "lens.h"
#include "type.h"

void lens_enum(struct fmt_ctx *c, const struct value *v)
{
	const struct type *t = v->type;
	int64_t x;

	if (!type_is_integer(t) || value_int(c, v, &x) < 0) {
		lens_default(c, v);
		return;
	}
	for (size_t i = 0; i < t->nenums; i++) {
		if (t->enums[i].value == x) {
			emit_text(c, t->enums[i].name);
			return;
		}
	}
	lens_int(c, v, RADIX_DEC);
}
