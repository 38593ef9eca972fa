/* Flat struct elements (lenses/flat.c): an array's struct elements
 * whose members are plain integers or strings behind pointers, shown
 * by member renderers compiled once per array (lenses/default.c). */
#ifndef LTRACE_LENS_FLAT_H
#define LTRACE_LENS_FLAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lens.h"

#define LENS_FLAT_MAX 16

struct lens_flat_member {
	unsigned char op;	 /* enum flat_op */
	unsigned char len;	 /* a string's: enum flat_len */
	unsigned char width;	 /* an integer's bytes */
	unsigned char len_width; /* FLAT_LEN_ELT: the length member's */
	bool sign, len_sign;
	bool zero;	/* a string's: up to the NUL too */
	size_t i;	/* the member's index */
	size_t off;	/* its offset in the element */
	size_t len_off; /* FLAT_LEN_ELT: the length member's */
	int64_t num;	/* FLAT_LEN_NUM */
};

/* N 0: the elements are not flat. */
struct lens_flat {
	const struct type *t;
	size_t n;
	struct lens_flat_member m[LENS_FLAT_MAX];
};

/* FL for struct type T, whose members are at OFFS: whether T is flat. */
bool lens_flat_compile(struct lens_flat *fl, const struct type *t,
		       const size_t *offs);
/* Whether an element may be shown by FL here, where lens_render would
 * reach the same primitives: no hex()/oct() above, room to nest. */
bool lens_flat_usable(const struct fmt_ctx *c, const struct lens_flat *fl);
/* The element at ELT (local bytes), as lens_render shows it. */
void lens_flat_render(struct fmt_ctx *c, const struct lens_flat *fl,
		      const unsigned char *elt);

#endif
