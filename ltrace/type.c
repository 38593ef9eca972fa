/* Types of the prototype language: construction, sizes and alignment
 * (x86_64 LP64, natural alignment, no packing). */
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "type.h"
#include "xmalloc.h"

struct type *type_new(struct type_arena *a, enum type_kind kind)
{
	struct type *t = xcalloc(1, sizeof(*t));

	t->kind = kind;
	t->arena_next = a->head;
	a->head = t;
	return t;
}

struct type *type_with_lens(struct type_arena *a, const struct type *t,
			    enum lens_kind lens)
{
	struct type *n = type_new(a, t->kind);
	struct type *next = n->arena_next;
	size_t i;

	*n = *t;
	n->arena_next = next;
	n->lens = lens;
	if (t->nfields) {
		n->fields = xreallocarray(NULL, t->nfields, sizeof(*n->fields));
		memcpy(n->fields, t->fields, t->nfields * sizeof(*n->fields));
	}
	if (t->nenums) {
		n->enums = xreallocarray(NULL, t->nenums, sizeof(*n->enums));
		for (i = 0; i < t->nenums; i++) {
			n->enums[i].name = xstrdup(t->enums[i].name);
			n->enums[i].value = t->enums[i].value;
		}
	}
	return n;
}

struct type *type_pointer(struct type_arena *a, struct type *to)
{
	struct type *t = type_new(a, TYPE_POINTER);

	t->elt = to;
	return t;
}

struct type *type_array(struct type_arena *a, struct type *elt,
			struct expr *len)
{
	struct type *t = type_new(a, TYPE_ARRAY);

	t->elt = elt;
	t->len = len;
	return t;
}

static void type_free_one(struct type *t)
{
	size_t i;

	for (i = 0; i < t->nenums; i++)
		free(t->enums[i].name);
	free(t->enums);
	free(t->fields);
	free(t);
}

void type_arena_destroy(struct type_arena *a)
{
	struct type *t, *next;
	struct expr *e, *enext;

	for (t = a->head; t; t = next) {
		next = t->arena_next;
		type_free_one(t);
	}
	for (e = a->exprs; e; e = enext) {
		enext = e->arena_next;
		free(e);
	}
	a->head = NULL;
	a->exprs = NULL;
}

/* The constant storage length of an array: N, or the cap N of zero(N)
 * (an inline "string(array(char, zero(256)))" occupies 256 bytes). */
static size_t array_count(const struct type *t)
{
	const struct expr *e = t->len;

	if (e && e->kind == EXPR_ZERO)
		e = e->sub;
	if (e && e->kind == EXPR_NUM && e->num > 0)
		return (size_t)e->num;
	return 0;
}

bool type_array_is_fixed(const struct type *t)
{
	return t->kind == TYPE_ARRAY && array_count(t) > 0;
}

size_t type_alignof(const struct type *t)
{
	size_t i, al = 1;

	switch (t->kind) {
	case TYPE_ARRAY:
		return type_alignof(t->elt);
	case TYPE_STRUCT:
		for (i = 0; i < t->nfields; i++)
			if (type_alignof(t->fields[i]) > al)
				al = type_alignof(t->fields[i]);
		return al;
	default:
		return type_sizeof(t) ? type_sizeof(t) : 1;
	}
}

static size_t align_up(size_t n, size_t al)
{
	return (n + al - 1) / al * al;
}

size_t type_offsetof(const struct type *t, size_t idx)
{
	size_t i, off = 0;

	for (i = 0; i < t->nfields; i++) {
		off = align_up(off, type_alignof(t->fields[i]));
		if (i == idx)
			return off;
		off += type_sizeof(t->fields[i]);
	}
	return off;
}

size_t type_sizeof(const struct type *t)
{
	switch (t->kind) {
	case TYPE_VOID:
		return 0;
	case TYPE_CHAR:
		return 1;
	case TYPE_SHORT:
	case TYPE_USHORT:
		return 2;
	case TYPE_INT:
	case TYPE_UINT:
	case TYPE_FLOAT:
		return 4;
	case TYPE_ARRAY:
		return array_count(t) * type_sizeof(t->elt);
	case TYPE_STRUCT:
		return align_up(type_offsetof(t, t->nfields), type_alignof(t));
	case TYPE_LDOUBLE:
		return 16;
	default:
		return 8;
	}
}

bool type_is_integer(const struct type *t)
{
	return t->kind >= TYPE_CHAR && t->kind <= TYPE_ULLONG;
}

bool type_is_signed(const struct type *t)
{
	switch (t->kind) {
	case TYPE_CHAR:
	case TYPE_SHORT:
	case TYPE_INT:
	case TYPE_LONG:
	case TYPE_LLONG:
		return true;
	default:
		return false;
	}
}

bool type_is_float(const struct type *t)
{
	return t->kind == TYPE_FLOAT || t->kind == TYPE_DOUBLE ||
	       t->kind == TYPE_LDOUBLE;
}

/* Recursion through a struct by value is finite: a struct cannot contain
 * itself except through a pointer, and pointers are not followed here. */
bool type_needs_fp(const struct type *t)
{
	size_t i;

	if (type_is_float(t) || t->kind == TYPE_PACK)
		return true;
	if (t->kind == TYPE_STRUCT) {
		for (i = 0; i < t->nfields; i++)
			if (type_needs_fp(t->fields[i]))
				return true;
	}
	if (t->kind == TYPE_ARRAY && t->elt)
		return array_count(t) && type_needs_fp(t->elt);
	return false;
}
