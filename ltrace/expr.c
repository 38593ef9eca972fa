/* Expressions of the prototype language. */
#include <stddef.h>

#include "expr.h"
#include "type.h"
#include "xmalloc.h"

struct expr *expr_new(struct type_arena *a, enum expr_kind kind, long num,
		      struct expr *sub)
{
	struct expr *e = xcalloc(1, sizeof(*e));

	e->kind = kind;
	e->num = num;
	e->sub = sub;
	e->arena_next = a->exprs;
	a->exprs = e;
	return e;
}

int expr_eval(const struct expr *e, const struct expr_env *env, int64_t *out)
{
	switch (e->kind) {
	case EXPR_NUM:
		*out = e->num;
		return 0;
	case EXPR_ARG:
		if (!env || !env->arg)
			return -1;
		return env->arg(env->arg_data, e->num, out);
	case EXPR_RETVAL:
		if (!env || !env->arg)
			return -1;
		return env->arg(env->arg_data, 0, out);
	case EXPR_ELT:
		if (!env || !env->elt)
			return -1;
		return env->elt(env->elt_data, e->num, out);
	case EXPR_ZERO:
		if (!e->sub)
			return -1;
		return expr_eval(e->sub, env, out);
	}
	return -1;
}

bool expr_is_zero(const struct expr *e)
{
	return e && e->kind == EXPR_ZERO;
}

bool expr_uses_retval(const struct expr *e)
{
	if (!e)
		return false;
	if (e->kind == EXPR_RETVAL || (e->kind == EXPR_ARG && e->num == 0))
		return true;
	return expr_uses_retval(e->sub);
}
