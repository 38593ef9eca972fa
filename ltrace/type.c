/* Types of the prototype language: the builders every source of types
 * shares (the conf parser, DWARF, printf conversions, the default
 * prototype), and sizes and alignment from the architecture's data model
 * (abi.h: natural alignment, no packing). */
#include <stdlib.h>
#include <string.h>

#include "abi.h"
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

struct type *type_basic(struct type_arena *a, enum type_kind kind)
{
	if (!a->basic[kind])
		a->basic[kind] = type_new(a, kind);
	return a->basic[kind];
}

struct type *type_lensed(struct type_arena *a, enum type_kind kind,
			 enum lens_kind lens)
{
	struct type *t = type_new(a, kind);

	t->lens = lens;
	return t;
}

struct type *type_with_lens(struct type_arena *a, const struct type *t,
			    enum lens_kind lens)
{
	struct type *n = type_new(a, t->kind);
	struct type *next = n->arena_next;

	*n = *t;
	n->arena_next = next;
	n->lens = lens;
	if (t->nfields) {
		n->fields = xreallocarray(NULL, t->nfields, sizeof(*n->fields));
		memcpy(n->fields, t->fields, t->nfields * sizeof(*n->fields));
	}
	if (t->nenums) {
		n->enums = xreallocarray(NULL, t->nenums, sizeof(*n->enums));
		for (size_t i = 0; i < t->nenums; i++) {
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

struct type *type_addr(struct type_arena *a)
{
	struct type *t = type_pointer(a, type_basic(a, TYPE_VOID));

	t->lens = LENS_ADDR;
	return t;
}

struct type *type_string(struct type_arena *a, enum type_kind elt,
			 struct expr *len)
{
	struct type *arr = type_array(a, type_basic(a, elt), len);
	struct type *t = type_pointer(a, arr);

	t->lens = LENS_STRING;
	return t;
}

struct type *type_char_array(struct type_arena *a, size_t n,
			     enum lens_kind lens)
{
	struct expr *len = expr_new(a, EXPR_NUM, (long)n, NULL);
	struct type *t = type_array(a, type_basic(a, TYPE_CHAR), len);

	t->lens = lens;
	return t;
}

void type_add_field(struct type *t, struct type *f)
{
	t->fields =
		xreallocarray(t->fields, t->nfields + 1, sizeof(*t->fields));
	t->fields[t->nfields++] = f;
}

void type_add_enum(struct type *t, const char *name, long value)
{
	t->enums = xreallocarray(t->enums, t->nenums + 1, sizeof(*t->enums));
	t->enums[t->nenums].name = xstrdup(name);
	t->enums[t->nenums].value = value;
	t->nenums++;
}

static void type_free_one(struct type *t)
{
	for (size_t i = 0; i < t->nenums; i++)
		free(t->enums[i].name);
	free(t->enums);
	free(t->fields);
	free(t);
}

void type_arena_destroy(struct type_arena *a)
{
	struct type *next;
	struct expr *enext;

	for (struct type *t = a->head; t; t = next) {
		next = t->arena_next;
		type_free_one(t);
	}
	for (struct expr *e = a->exprs; e; e = enext) {
		enext = e->arena_next;
		free(e);
	}
	memset(a, 0, sizeof(*a));
}

/* The builtin arena: never destroyed, so what it holds stays reachable
 * (and is not reported as a leak) until exit.  The tracer has one
 * thread. */
static struct type_arena builtin_arena;

struct type_arena *type_builtin_arena(void)
{
	return &builtin_arena;
}

struct type *type_builtin(enum type_kind kind, enum lens_kind lens)
{
	static struct type *built[TYPE_NKINDS][LENS_NKINDS];
	struct type **t = &built[kind][lens];

	if (*t)
		return *t;
	if (kind == TYPE_POINTER)
		*t = type_pointer(&builtin_arena,
				  type_basic(&builtin_arena, TYPE_VOID));
	else
		*t = type_new(&builtin_arena, kind);
	(*t)->lens = lens;
	return *t;
}

struct type *type_builtin_string(enum type_kind elt)
{
	static struct type *built[TYPE_NKINDS];

	if (!built[elt])
		built[elt] = type_string(&builtin_arena, elt,
					 expr_new(&builtin_arena, EXPR_ZERO, 0,
						  NULL));
	return built[elt];
}

void prototype_add_param(struct prototype *p, struct type *t)
{
	p->params =
		xreallocarray(p->params, p->nparams + 1, sizeof(*p->params));
	p->params[p->nparams++] = t;
}

void prototype_free(struct prototype *p)
{
	if (!p)
		return;
	free(p->params);
	free(p->name);
	free(p);
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
	size_t al = 1;

	switch (t->kind) {
	case TYPE_ARRAY:
		return type_alignof(t->elt);
	case TYPE_STRUCT:
		for (size_t i = 0; i < t->nfields; i++)
			if (type_alignof(t->fields[i]) > al)
				al = type_alignof(t->fields[i]);
		return al;
	default:
		return abi_scalars[t->kind].align;
	}
}

static size_t align_up(size_t n, size_t al)
{
	return (n + al - 1) / al * al;
}

size_t type_offsetof(const struct type *t, size_t idx)
{
	size_t off = 0;

	for (size_t i = 0; i < t->nfields; i++) {
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
	case TYPE_ARRAY:
		return array_count(t) * type_sizeof(t->elt);
	case TYPE_STRUCT:
		return align_up(type_offsetof(t, t->nfields), type_alignof(t));
	default:
		return abi_scalars[t->kind].size;
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
	if (type_is_float(t) || t->kind == TYPE_PACK)
		return true;
	if (t->kind == TYPE_STRUCT) {
		for (size_t i = 0; i < t->nfields; i++)
			if (type_needs_fp(t->fields[i]))
				return true;
	}
	if (t->kind == TYPE_ARRAY && t->elt)
		return array_count(t) && type_needs_fp(t->elt);
	return false;
}
