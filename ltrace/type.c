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
	n->names = NULL;
	for (size_t i = 0; t->names && i < t->nfields; i++)
		type_name_field(n, i, t->names[i]);
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
	if (t->names) {
		t->names =
			xreallocarray(t->names, t->nfields, sizeof(*t->names));
		t->names[t->nfields - 1] = NULL;
	}
}

void type_name_field(struct type *t, size_t i, const char *name)
{
	if (!name || i >= t->nfields)
		return;
	if (!t->names)
		t->names = xcalloc(t->nfields, sizeof(*t->names));
	free(t->names[i]);
	t->names[i] = xstrdup(name);
}

void type_clear_fields(struct type *t)
{
	for (size_t i = 0; t->names && i < t->nfields; i++)
		free(t->names[i]);
	free(t->names);
	free(t->fields);
	t->names = NULL;
	t->fields = NULL;
	t->nfields = 0;
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
	type_clear_fields(t);
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

/* Sizes are computed with checked arithmetic, a bounded recursion and a
 * bounded number of steps, so that a struct holding itself by value (a
 * cycle without a pointer: conf files and DWARF can both say so), an
 * array of 2^63 elements, or a chain of typedefs each holding the last
 * twice give TYPE_SIZE_BAD instead of recursing without end, wrapping
 * to a small size or taking exponential time. */
struct walk {
	size_t steps; /* left */
};

#define WALK_STEPS 65536

static bool walk_step(struct walk *w, unsigned depth)
{
	if (depth > TYPE_MAX_DEPTH || !w->steps)
		return false;
	w->steps--;
	return true;
}

/* Alignment is at most 16 (abi.h): a cycle just stops adding to it. */
static size_t align_of(const struct type *t, struct walk *w, unsigned depth)
{
	size_t al = 1;

	if (!walk_step(w, depth))
		return 1;
	switch (t->kind) {
	case TYPE_ARRAY:
		return align_of(t->elt, w, depth + 1);
	case TYPE_STRUCT:
		for (size_t i = 0; i < t->nfields; i++) {
			size_t f = align_of(t->fields[i], w, depth + 1);
			if (f > al)
				al = f;
		}
		return al;
	default:
		return abi_scalars[t->kind].align;
	}
}

size_t type_alignof(const struct type *t)
{
	struct walk w = { WALK_STEPS };

	return align_of(t, &w, 0);
}

/* N rounded up to AL, or TYPE_SIZE_BAD. */
static size_t align_up(size_t n, size_t al)
{
	if (n == TYPE_SIZE_BAD || n > TYPE_SIZE_BAD - al)
		return TYPE_SIZE_BAD;
	return (n + al - 1) / al * al;
}

static size_t add_size(size_t a, size_t b)
{
	if (a == TYPE_SIZE_BAD || b == TYPE_SIZE_BAD || a > TYPE_SIZE_BAD - b)
		return TYPE_SIZE_BAD;
	return a + b;
}

static size_t size_of(const struct type *t, struct walk *w, unsigned depth);

/* The offset of member IDX (IDX == nfields: the end of the last one). */
static size_t offset_of(const struct type *t, size_t idx, struct walk *w,
			unsigned depth)
{
	size_t off = 0;

	for (size_t i = 0; i < t->nfields && off != TYPE_SIZE_BAD; i++) {
		off = align_up(off, align_of(t->fields[i], w, depth + 1));
		if (i == idx)
			return off;
		off = add_size(off, size_of(t->fields[i], w, depth + 1));
	}
	return off;
}

static size_t size_of(const struct type *t, struct walk *w, unsigned depth)
{
	if (!walk_step(w, depth))
		return TYPE_SIZE_BAD;
	switch (t->kind) {
	case TYPE_ARRAY: {
		size_t n = array_count(t);
		size_t e = n ? size_of(t->elt, w, depth + 1) : 0;
		if (e == TYPE_SIZE_BAD || (e && n > (TYPE_SIZE_BAD - 1) / e))
			return TYPE_SIZE_BAD;
		return n * e;
	}
	case TYPE_STRUCT:
		return align_up(offset_of(t, t->nfields, w, depth),
				align_of(t, w, depth));
	default:
		return abi_scalars[t->kind].size;
	}
}

size_t type_offsetof(const struct type *t, size_t idx)
{
	struct walk w = { WALK_STEPS };

	return offset_of(t, idx, &w, 0);
}

/* The walk of size_of for a struct, noting each member's offset on the
 * way: the same steps, so the same answers. */
size_t type_layout(const struct type *t, size_t *offs)
{
	struct walk w = { WALK_STEPS };
	size_t off = 0;

	if (!walk_step(&w, 0))
		return TYPE_SIZE_BAD;
	for (size_t i = 0; i < t->nfields; i++) {
		if (off != TYPE_SIZE_BAD)
			off = align_up(off, align_of(t->fields[i], &w, 1));
		offs[i] = off;
		if (off != TYPE_SIZE_BAD)
			off = add_size(off, size_of(t->fields[i], &w, 1));
	}
	return align_up(off, align_of(t, &w, 0));
}

size_t type_sizeof(const struct type *t)
{
	struct walk w = { WALK_STEPS };

	/* scalars first: the lenses ask for them all the time */
	if (t->kind != TYPE_ARRAY && t->kind != TYPE_STRUCT)
		return abi_scalars[t->kind].size;

	return size_of(t, &w, 0);
}

bool type_is_integer(const struct type *t)
{
	return t->kind >= TYPE_CHAR && t->kind <= TYPE_ULLONG;
}

bool type_is_float(const struct type *t)
{
	return t->kind == TYPE_FLOAT || t->kind == TYPE_DOUBLE ||
	       t->kind == TYPE_LDOUBLE;
}

static bool needs_fp(const struct type *t, unsigned depth)
{
	if (depth > TYPE_MAX_DEPTH)
		return false;
	if (type_is_float(t) || t->kind == TYPE_PACK)
		return true;
	if (t->kind == TYPE_STRUCT) {
		for (size_t i = 0; i < t->nfields; i++)
			if (needs_fp(t->fields[i], depth + 1))
				return true;
	}
	if (t->kind == TYPE_ARRAY && t->elt)
		return array_count(t) && needs_fp(t->elt, depth + 1);
	return false;
}

/* Pointers are not followed; by value the depth is bounded (a type that
 * holds itself by value never gets past type_check, but DWARF's types
 * come here too). */
bool type_needs_fp(const struct type *t)
{
	return needs_fp(t, 0);
}

/* ---- what the tracer can hold ---- */

struct check {
	unsigned mark;		  /* this check's generation */
	int verdict;		  /* TYPE_CHECK_* of the worst found */
	const char *why;	  /* its reason */
	const struct type **todo; /* first the array below */
	size_t n, cap;
	const struct type *first[32];
};

/* Refused is worse than a warning, which is worse than OK. */
static int severity(int v)
{
	return v == TYPE_CHECK_REFUSED ? 2 : v;
}

static void verdict(struct check *c, int v, const char *why)
{
	if (severity(v) > severity(c->verdict)) {
		c->verdict = v;
		c->why = why;
	}
}

static void check_array(struct check *c, const struct type *t)
{
	size_t esz = t->elt ? type_sizeof(t->elt) : 0;

	if (esz == TYPE_SIZE_BAD || esz > TYPE_MAX_VALUE)
		verdict(c, TYPE_CHECK_REFUSED,
			"array element larger than 65536 bytes");
	else if (type_sizeof(t) > TYPE_MAX_ARRAY)
		verdict(c, TYPE_CHECK_WARN,
			"array longer than 2^30 bytes; "
			"shown capped by -A and -s");
}

static void check_kind(struct check *c, const struct type *t)
{
	size_t n;

	switch (t->kind) {
	case TYPE_STRUCT:
		n = type_sizeof(t);
		if (n == TYPE_SIZE_BAD)
			verdict(c, TYPE_CHECK_REFUSED,
				"struct contains itself by value, nests too "
				"deeply or its size overflows");
		else if (n > TYPE_MAX_VALUE)
			verdict(c, TYPE_CHECK_REFUSED,
				"struct larger than 65536 bytes");
		break;
	case TYPE_ARRAY:
		check_array(c, t);
		break;
	case TYPE_PACK:
		if (t->elt && t->elt->kind != TYPE_POINTER)
			verdict(c, TYPE_CHECK_REFUSED,
				"format(T) needs a string (pointer) type T");
		break;
	default:
		break;
	}
}

/* Push T on the work list unless this check has seen it. */
static void push(struct check *c, const struct type *t)
{
	struct type *m = (struct type *)t;

	if (!t || t->check_mark == c->mark)
		return;
	m->check_mark = c->mark;
	if (c->n == c->cap) {
		const struct type **old = c->todo == c->first ? NULL : c->todo;
		c->cap *= 2;
		c->todo = xreallocarray(old, c->cap, sizeof(*c->todo));
		if (!old)
			memcpy(c->todo, c->first, sizeof(c->first));
	}
	c->todo[c->n++] = t;
}

int type_check(const struct type *t, const char **why)
{
	static unsigned marks;
	struct check c = { .mark = ++marks, .verdict = TYPE_CHECK_OK };
	c.todo = c.first;
	c.cap = sizeof(c.first) / sizeof(c.first[0]);

	/* A work list, not recursion: a chain of typedefs through pointers
	 * may be as long as the file. */
	push(&c, t);
	while (c.n) {
		const struct type *u = c.todo[--c.n];

		check_kind(&c, u);
		push(&c, u->elt);
		for (size_t i = 0; i < u->nfields; i++)
			push(&c, u->fields[i]);
	}
	if (c.todo != c.first)
		free(c.todo);
	*why = c.why;
	return c.verdict;
}

struct type *type_hold(struct type_arena *a, struct type *t, int *verdict,
		       const char **why)
{
	*verdict = type_check(t, why);
	if (*verdict != TYPE_CHECK_REFUSED)
		return t;
	if (t->kind == TYPE_POINTER)
		return type_addr(a);
	return type_lensed(a, TYPE_LONG, LENS_HEX);
}

size_t type_char_size(const struct type *elt)
{
	size_t n = type_sizeof(elt);

	if (elt->kind == TYPE_CHAR)
		return 1;
	if (type_is_integer(elt) && (n == 2 || n == 4))
		return n;
	return 0;
}
