/* The type system of the prototype language: C-like types, each carrying
 * the lens that renders its values, and the prototypes made of them.
 * Types are owned by an arena (one per protolib, one per debug file, and
 * the process-wide builtin one) and freely shared by pointer; recursive
 * types are plain cycles through pointers.  Sizes and alignments come
 * from the architecture's data model (sysdeps/linux-gnu/ARCH/abi.h). */
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
	/* printf-style parameter pack; ELT, when set, is the string type of the
	 * format (format(T)) */
	TYPE_PACK,
	TYPE_LDOUBLE, /* long double (its format: the architecture's) */
};
#define TYPE_NKINDS (TYPE_LDOUBLE + 1)

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
	LENS_ADDR, /* addr/void*: hex, nil for NULL */
	LENS_FD,   /* fd: an integer; file: a FILE * (lenses/fd.c) */
};
#define LENS_NKINDS (LENS_FD + 1)

struct enum_val {
	char *name;
	long value;
};

struct type {
	enum type_kind kind;
	enum lens_kind lens;
	struct type *elt;     /* pointer target, array element */
	struct expr *len;     /* array length */
	struct type **fields; /* struct members */
	size_t nfields;
	/* The members' names where DWARF gives them, parallel to FIELDS
	 * (an entry NULL for one without); NULL when none has a name (conf
	 * files name no member).  --format shows such a struct as an
	 * object. */
	char **names;
	struct enum_val *enums;
	size_t nenums;
	bool forward;	     /* "typedef X = struct;" not yet defined */
	unsigned check_mark; /* type_check's: seen by the current check */
	struct type *arena_next;
};

/* Every type belongs to one arena and dies with it.  Zero-initialised
 * means empty. */
struct type_arena {
	struct type *head;
	struct expr *exprs;
	struct type *basic[TYPE_NKINDS]; /* type_basic's, built once */
};

/* A prototype's failure condition, "errno(ALT|...)" after its
 * parameters (ltrace/errcond.h): the return values (VALUES, and the
 * classes in FLAGS) for which the call failed and errno tells why.
 * All zero: no clause, errno is never shown. */
#define ERRCOND_VALUES 4
enum {
	ERRCOND_NEG = 1,     /* <0: negative as its return type */
	ERRCOND_NONZERO = 2, /* !=0 */
	ERRCOND_CHANGED = 4, /* errno at the return differs from the entry */
	ERRCOND_RET = 8,     /* ret: a return in 1..4095 is the error number */
};
struct errcond {
	unsigned char flags;
	unsigned char nvalues;
	long values[ERRCOND_VALUES]; /* nil and NULL are 0 */
};

struct prototype {
	char *name;
	struct type *ret;
	struct type **params;
	size_t nparams;
	size_t split; /* first parameter printed at return */
	struct errcond fail;
};

/* Builders.  Each returns a type owned by A; none fails (allocation
 * failure dies).  Types from type_basic and type_builtin are shared and
 * must not be modified; the others are new, and the caller may fill them
 * in (members, enumerators, a lens). */

/* A new type of KIND, empty: a struct to fill, a format pack. */
struct type *type_new(struct type_arena *a, enum type_kind kind);
/* KIND with the default lens, shared within A. */
struct type *type_basic(struct type_arena *a, enum type_kind kind);
/* A new KIND shown through LENS. */
struct type *type_lensed(struct type_arena *a, enum type_kind kind,
			 enum lens_kind lens);
/* A shallow copy of T with another lens (members shared, enumerators
 * copied). */
struct type *type_with_lens(struct type_arena *a, const struct type *t,
			    enum lens_kind lens);
struct type *type_pointer(struct type_arena *a, struct type *to);
struct type *type_array(struct type_arena *a, struct type *elt,
			struct expr *len);
/* void * shown as an address: addr, file, opaque and function pointers. */
struct type *type_addr(struct type_arena *a);
/* A pointer to array(ELT, LEN) shown as text: string, string[E], stringN
 * and wide strings (ELT int). */
struct type *type_string(struct type_arena *a, enum type_kind elt,
			 struct expr *len);
/* char[N] shown through LENS: raw bytes in hex, hidden padding. */
struct type *type_char_array(struct type_arena *a, size_t n,
			     enum lens_kind lens);
/* Append member F to struct T, enumerator NAME = VALUE to T. */
void type_add_field(struct type *t, struct type *f);
/* Name member I of struct T (NAME NULL: none). */
void type_name_field(struct type *t, size_t i, const char *name);
/* Drop T's members and their names. */
void type_clear_fields(struct type *t);
void type_add_enum(struct type *t, const char *name, long value);
void type_arena_destroy(struct type_arena *a);

/* KIND through LENS (TYPE_POINTER: a pointer to void), for code that has
 * no arena of its own: printf conversions, the default prototype.  Built
 * once in a process-wide arena that lives until exit, then shared, so
 * nothing is allocated per call. */
struct type *type_builtin(enum type_kind kind, enum lens_kind lens);
/* The string of ELT (TYPE_CHAR, or TYPE_INT for wide) up to its NUL,
 * built once like type_builtin. */
struct type *type_builtin_string(enum type_kind elt);
/* The builtin arena itself, for a type that must be told apart from the
 * shared ones by address. */
struct type_arena *type_builtin_arena(void);

/* Append parameter T to P. */
void prototype_add_param(struct prototype *p, struct type *t);
/* P, its name and its parameter array (not the types: the arena owns
 * them).  NULL is allowed. */
void prototype_free(struct prototype *p);

/* Limits on what the tracer holds (type_check).  TYPE_SIZE_BAD is the
 * size of a type whose size overflows, that nests by value deeper than
 * TYPE_MAX_DEPTH (a struct that holds itself by value does) or takes too
 * long to measure; TYPE_MAX_VALUE bounds anything read or passed whole
 * (a struct, an array's element); an array longer than TYPE_MAX_ARRAY
 * bytes is kept with a warning, since arrays are read an element at a
 * time up to -A. */
#define TYPE_SIZE_BAD ((size_t)-1)
#define TYPE_MAX_DEPTH 32
#define TYPE_MAX_VALUE ((size_t)65536)
#define TYPE_MAX_ARRAY ((size_t)1 << 30)

enum {
	TYPE_CHECK_REFUSED = -1, /* the tracer cannot hold it */
	TYPE_CHECK_OK = 0,
	TYPE_CHECK_WARN = 1, /* held, but shown capped */
};
/* Whether the tracer can hold T and everything reachable from it (by
 * value and through pointers): TYPE_CHECK_*, with *WHY set to a static
 * reason (NULL when OK).  Cost: linear in the types reachable. */
int type_check(const struct type *t, const char **why);
/* T when type_check does not refuse it, else a plain type in A to show
 * in its place: an address for a pointer, a hex long for the rest.  The
 * verdict and reason as type_check's; the caller reports them
 * (conftype.c as file:line:col warnings).  For every source of
 * prototypes. */
struct type *type_hold(struct type_arena *a, struct type *t, int *verdict,
		       const char **why);

/* Sizes of the static layout (TYPE_SIZE_BAD: see above): an array whose length is not a constant
 * (or zero(N) with N constant) has size 0 here; see lenses/default.c for
 * structs holding such arrays by value. */
size_t type_sizeof(const struct type *t);
size_t type_alignof(const struct type *t);
/* Byte offset of struct member I. */
size_t type_offsetof(const struct type *t, size_t i);
/* Struct T's size, with the offset of every member into OFFS[0..nfields)
 * in one walk (type_offsetof for each member walks the ones before it
 * again): what the lenses measure once for an array of structs. */
size_t type_layout(const struct type *t, size_t *offs);
bool type_is_integer(const struct type *t);
/* Element size of a string's characters: 1 for char, 2 or 4 for the
 * integers of wide strings, 0 for anything else (the string lens and the
 * fetch plans agree through this). */
size_t type_char_size(const struct type *elt);
/* Inline: every integer shown asks (issue 12). */
static inline bool type_is_signed(const struct type *t)
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
/* float, double and long double. */
bool type_is_float(const struct type *t);
/* An array whose storage size is given by a constant: N or zero(N). */
bool type_array_is_fixed(const struct type *t);
/* True when T (or anything reachable by value) is float/double/format. */
bool type_needs_fp(const struct type *t);

#endif
