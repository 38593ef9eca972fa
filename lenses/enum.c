/* enum(A, B=5, C): the name of the value, or the number itself (JSON:
 * both, emit_symbol). */
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
			emit_symbol(c, t->enums[i].name, x, true);
			return;
		}
	}
	/* no name: the number, as the default lens shows it */
	emit_symbol(c, NULL, x, type_is_signed(t));
}
