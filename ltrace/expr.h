/* Expressions of the prototype language: lengths of arrays and strings.
 * NUM, argN, retval, eltN, zero, zero(EXPR). */
#ifndef LTRACE_EXPR_H
#define LTRACE_EXPR_H

#include <stdbool.h>
#include <stdint.h>

#include "forward.h"

enum expr_kind {
	EXPR_NUM,
	EXPR_ARG, /* argN, 1-based; arg0 is retval */
	EXPR_RETVAL,
	EXPR_ELT,  /* eltN of the enclosing struct, 1-based */
	EXPR_ZERO, /* until the first all-zero element, capped by sub */
};

struct expr {
	enum expr_kind kind;
	long num;	  /* NUM value, or N of argN/eltN */
	struct expr *sub; /* zero(EXPR) cap, or NULL */
	struct expr *arena_next;
};

/* Where argN, retval and eltN get their values.  Each callback returns
 * 0 and stores the value, or -1 when it is not available. */
struct expr_env {
	int (*arg)(void *data, long n, int64_t *out);
	int (*elt)(void *data, long n, int64_t *out);
	void *arg_data;
	void *elt_data;
};

struct type_arena;

struct expr *expr_new(struct type_arena *a, enum expr_kind kind, long num,
		      struct expr *sub);
/* Evaluate a non-zero expression; the length of zero(E) is E's value
 * (the zero scan itself is the lens' business).  -1 if unavailable. */
int expr_eval(const struct expr *e, const struct expr_env *env, int64_t *out);
bool expr_is_zero(const struct expr *e);
/* True when E refers to retval (must be printed at return). */
bool expr_uses_retval(const struct expr *e);

#endif
