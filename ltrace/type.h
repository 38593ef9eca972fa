/* The type system of the prototype language: C-like types, each carrying
 * the lens that renders its values.  Types are owned by an arena (one per
 * protolib) and freely shared by pointer; recursive types are plain
 * cycles through pointers. */
#ifndef LTRACE_TYPE_H
#define LTRACE_TYPE_H

#include <stdbool.h>
#include <stddef.h>

#include "forward.h"

struct expr;

enum type_kind {
	TYPE_VOID,
	TYPE_CHAR,
	TYPE_SHORT,
	TYPE_USHORT,
	TYPE_INT,
	TYPE_UINT,
	TYPE_LONG,
	TYPE_ULONG,
	TYPE_LLONG,
	TYPE_ULLONG,
	TYPE_FLOAT,
	TYPE_DOUBLE,
	TYPE_POINTER,
	TYPE_ARRAY,
	TYPE_STRUCT,
	TYPE_PACK,	/* printf-style parameter pack; ELT, when set, is
			 * the string type of the format (format(T)) */
	TYPE_LDOUBLE,	/* x87 long double: 16 bytes, X87 class */
};

enum lens_kind {
	LENS_DEFAULT,
	LENS_HEX,
	LENS_OCT,
	LENS_BOOL,
	LENS_ENUM,
	LENS_BITVEC,
	LENS_STRING,
	LENS_HIDE,
	LENS_GUESS,
	LENS_ADDR,	/* addr/file/void*: hex, 0 for NULL */
};

struct enum_val {
	char *name;
	long value;
};

struct type {
	enum type_kind kind;
	enum lens_kind lens;
	struct type *elt;	/* pointer target, array element */
	struct expr *len;	/* array length */
	struct type **fields;	/* struct members */
	size_t nfields;
	struct enum_val *enums;
	size_t nenums;
	bool forward;		/* "typedef X = struct;" not yet defined */
	struct type *arena_next;
};

/* Every type belongs to one arena and dies with it. */
struct type_arena {
	struct type *head;
	struct expr *exprs;
};

struct prototype {
	char *name;
	struct type *ret;
	struct type **params;
	size_t nparams;
	size_t split;		/* first parameter printed at return */
};

struct type *type_new(struct type_arena *a, enum type_kind kind);
/* A shallow copy of T with another lens. */
struct type *type_with_lens(struct type_arena *a, const struct type *t,
			    enum lens_kind lens);
struct type *type_pointer(struct type_arena *a, struct type *to);
struct type *type_array(struct type_arena *a, struct type *elt,
			struct expr *len);
void type_arena_destroy(struct type_arena *a);

/* Sizes of the static layout: an array whose length is not a constant
 * (or zero(N) with N constant) has size 0 here; see lenses/default.c for
 * structs holding such arrays by value. */
size_t type_sizeof(const struct type *t);
size_t type_alignof(const struct type *t);
/* Byte offset of struct member I. */
size_t type_offsetof(const struct type *t, size_t i);
bool type_is_integer(const struct type *t);
bool type_is_signed(const struct type *t);
/* float, double and long double. */
bool type_is_float(const struct type *t);
/* An array whose storage size is given by a constant: N or zero(N). */
bool type_array_is_fixed(const struct type *t);
/* True when T (or anything reachable by value) is float/double/format. */
bool type_needs_fp(const struct type *t);

#endif
