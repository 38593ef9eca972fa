/* Lenses: turning a value of the prototype language into text.
 *
 * ltrace/calltext.c sets up a fmt_ctx for one argument list or return
 * value and hands each value to lens_render, which picks the lens of the
 * value's type.  A value lives either in tracer memory (fetched from
 * registers) or in tracee memory (behind a pointer); lenses read the
 * latter only through memsrc_read, never more than -s/-A allow.  They
 * append to c->sb only through the emit_* writer primitives
 * (lenses/emit.c), which alone write punctuation. */
#ifndef LTRACE_LENS_H
#define LTRACE_LENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "forward.h"
#include "strbuf.h"

struct expr_env;
struct fetch_ctx;
struct lens_layout;

#define LENS_MAX_DEPTH 8
/* Lenses inside lenses (format(T), a string's characters, packs, by-value
 * members) nest at most this deep: beyond, "...". */
#define LENS_MAX_RENDERS 64

/* How much of a value is shown: -s and -A. */
struct lens_limits {
	size_t strlen;	 /* -s: max characters of a string */
	size_t arraylen; /* -A: max elements of an array */
	unsigned fds;	 /* -y, -yy: FDPATH_* bits (fdpath.h), 0 none */
};

struct value {
	const struct type *type;
	bool remote; /* at tracee address ADDR */
	uint64_t addr;
	const unsigned char *buf; /* else here */
};

/* How integers (and floats, with hex) print: set by a hex() or oct() lens
 * for everything below it that has no lens of its own. */
enum radix { RADIX_DEC, RADIX_HEX, RADIX_OCT };

/* The JSON writer's state (lenses/emit.c, --format): where each open
 * group began, so that one cut by -s or -A can be wrapped in an object
 * ({"string":..., "truncated":true}); and the first bytes of a UTF-8
 * sequence that one emit_chars ended in the middle of.  Groups nest at
 * most one per lens_render open, and those at most LENS_MAX_RENDERS. */
#define EMIT_MAX_OPEN (LENS_MAX_RENDERS + 8)
struct emit_json {
	size_t open[EMIT_MAX_OPEN];
	size_t nopen;
	unsigned char hold[4];
	size_t nhold;
};

/* The state of rendering one argument list or return value. */
struct fmt_ctx {
	const struct lens_limits *limits;
	struct memsrc *mem;
	struct callsite *cs;	    /* for parameter packs */
	struct fetch_ctx *fetch;    /* cursor after the pack's string */
	const struct expr_env *env; /* argN, retval */
	struct strbuf *sb;
	enum radix radix;  /* inherited from hex()/oct() */
	size_t depth;	   /* arrays and structs by value */
	size_t renders;	   /* lens_render calls open, LENS_MAX_RENDERS */
	size_t budget_end; /* stop at this sb->len; 0: never */
	bool cut;	   /* stopped: "..." written */
	/* Not NULL: the primitives write JSON values, not ltrace's text
	 * (the schema is in ltrace(1), --format). */
	struct emit_json *json;
	/* If set, called by emit_sep between two arguments of a pack, with
	 * where the separator starts and ends in SB (--format splits a
	 * printf-style pack into its arguments: ltrace/calltext.c). */
	void (*on_pack_sep)(void *data, size_t sep, size_t next);
	void *pack_sep_data;
	/* The layout of the struct elements of the array being shown,
	 * measured once for all of them (lenses/default.c); NULL if none. */
	struct lens_layout *layout;
	size_t nptrs; /* pointers being dereferenced */
	uint64_t ptrs[LENS_MAX_DEPTH];
	const struct type *ptr_types[LENS_MAX_DEPTH];
};

/* Writer primitives (lenses/emit.c): the only code that writes
 * punctuation.  A group is opened, its members separated and closed;
 * MORE at the end says members were left out. */
enum emit_group {
	EMIT_ARRAY,	 /* [ 1, 2 ] */
	EMIT_STRUCT,	 /* { 1, 2 }; JSON: an array */
	EMIT_RECORD,	 /* { 1, 2 }; JSON: an object of named members */
	EMIT_STRING,	 /* "ab" */
	EMIT_CHAR,	 /* 'a' */
	EMIT_BITVEC,	 /* <1,3-5> */
	EMIT_BITVEC_NOT, /* ~<0>: the bits that are clear */
	EMIT_ARGS,	 /* 1, 2 */
};

static inline void emit_begin(struct fmt_ctx *c, enum emit_group g);
static inline void emit_end(struct fmt_ctx *c, enum emit_group g, bool more);
static inline void emit_sep(struct fmt_ctx *c, enum emit_group g, size_t idx);
/* Member IDX (shown) of an EMIT_STRUCT or EMIT_RECORD: the separator,
 * and in a JSON record "NAME": (NULL: "#I", I the member's index). */
static inline void emit_field(struct fmt_ctx *c, enum emit_group g, size_t idx,
			      const char *name, size_t i);
/* Text as it is (JSON: as a string); lenses use the typed primitives
 * below for what they show. */
void emit_text(struct fmt_ctx *c, const char *s);
void emit_printf(struct fmt_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One character inside QUOTE ('\'' or '"'), escaped. */
void emit_char(struct fmt_ctx *c, unsigned char ch, char quote);
/* N bytes inside "", escaped as emit_char escapes them one by one. */
void emit_chars(struct fmt_ctx *c, const unsigned char *p, size_t n);
/* A whole string: emit_begin, emit_chars and emit_end of EMIT_STRING in
 * one. */
void emit_string(struct fmt_ctx *c, const unsigned char *p, size_t n,
		 bool more);
/* Integers as %lld, %llu and %#llx print them (0 in hex is "0"). */
void emit_dec(struct fmt_ctx *c, int64_t x);
void emit_udec(struct fmt_ctx *c, uint64_t u);
void emit_hex(struct fmt_ctx *c, uint64_t u);
/* One wide character (a code point) inside QUOTE: UTF-8 when printable,
 * else escaped. */
void emit_wchar(struct fmt_ctx *c, uint32_t cp, char quote);
void emit_nil(struct fmt_ctx *c);
/* An address in hex; 0 (NULL) is "nil". */
void emit_addr(struct fmt_ctx *c, uint64_t a);
/* "...": the output was cut (depth, budget, an unknown layout). */
void emit_ellipsis(struct fmt_ctx *c);
/* A pointer to a value being shown UP levels above: "recurse^^". */
void emit_recurse(struct fmt_ctx *c, size_t up);
/* What a void value shows: nothing (JSON: null). */
void emit_void(struct fmt_ctx *c);
void emit_bool(struct fmt_ctx *c, bool b);
/* The octal of U, "0" first ("00" for 0); JSON: the number. */
void emit_oct(struct fmt_ctx *c, uint64_t u);
/* An integer in hex, "0x..." (JSON: the number): hex() integers. */
void emit_hexint(struct fmt_ctx *c, uint64_t u);
/* A floating point number as printf's FMT ("%f", "%a") shows it; JSON:
 * the number, at full precision, "inf", "-inf" or "nan" if not finite. */
void emit_double(struct fmt_ctx *c, const char *fmt, double d);
void emit_ldouble(struct fmt_ctx *c, const char *fmt, long double d);
/* A named value (an enumerator, WEOF): NAME, or when NULL the number X
 * (signed when SIGN); JSON: {"symbol":NAME or null,"value":X}. */
void emit_symbol(struct fmt_ctx *c, const char *name, int64_t x, bool sign);
/* Set bits LO to HI of a bitvec, "3-5" (JSON: 3,4,5); between ranges,
 * emit_sep of the bitvec's group. */
void emit_bit_range(struct fmt_ctx *c, size_t lo, size_t hi);
/* A character that is no Unicode scalar value (past U+10FFFF), inside
 * QUOTE: "\x{...}" (JSON: U+FFFD). */
void emit_bad_wchar(struct fmt_ctx *c, uint64_t u);

/* The four above are inline: a group's punctuation is written millions
 * of times in a large trace.  Their text is emit.c's table; JSON and
 * the rarer cases go to emit.c's functions. */
struct emit_text {
	char s[4]; /* copied whole, NUL-padded */
	size_t n;
};
struct emit_punct {
	struct emit_text open, close, sep;
};
extern const struct emit_punct emit_groups[];
void emit_begin_json(struct fmt_ctx *c, enum emit_group g);
void emit_end_slow(struct fmt_ctx *c, enum emit_group g, bool more);
void emit_sep_slow(struct fmt_ctx *c, enum emit_group g, size_t idx);
void emit_field_json(struct fmt_ctx *c, size_t idx, const char *name, size_t i);

static inline void emit_put(struct strbuf *sb, const struct emit_text *t)
{
	char *o = strbuf_reserve(sb, sizeof(t->s));

	__builtin_memcpy(o, t->s, sizeof(t->s));
	strbuf_commit(sb, o + t->n);
}

static inline void emit_begin(struct fmt_ctx *c, enum emit_group g)
{
	if (c->json)
		emit_begin_json(c, g);
	else
		emit_put(c->sb, &emit_groups[g].open);
}

static inline void emit_end(struct fmt_ctx *c, enum emit_group g, bool more)
{
	if (c->json || more)
		emit_end_slow(c, g, more);
	else
		emit_put(c->sb, &emit_groups[g].close);
}

static inline void emit_sep(struct fmt_ctx *c, enum emit_group g, size_t idx)
{
	if (!idx)
		return;
	if (c->json || (g == EMIT_ARGS && c->on_pack_sep))
		emit_sep_slow(c, g, idx);
	else
		emit_put(c->sb, &emit_groups[g].sep);
}

static inline void emit_field(struct fmt_ctx *c, enum emit_group g, size_t idx,
			      const char *name, size_t i)
{
	if (c->json && g == EMIT_RECORD)
		emit_field_json(c, idx, name, i);
	else
		emit_sep(c, g, idx);
}

/* Values. */
size_t value_read(struct fmt_ctx *c, const struct value *v, void *buf,
		  size_t len);
/* The integer value of an integer, enum or pointer value: -1 if
 * unreadable. */
int value_int(struct fmt_ctx *c, const struct value *v, int64_t *out);
/* Member/element at byte offset OFF with type T (inline: every member
 * of every element of an array of structs goes through it). */
static inline struct value value_at(const struct value *v, const struct type *t,
				    size_t off)
{
	struct value r = *v;

	r.type = t;
	if (v->remote)
		r.addr += off;
	else
		r.buf += off;
	return r;
}
/* A remote value at ADDR read into LOCAL (LEN bytes): false if short. */
bool value_localize(struct fmt_ctx *c, struct value *v, unsigned char *local,
		    size_t len);

/* The most text one argument list or return value may take, whatever
 * nesting and cycles in the tracee: room for one array of -A + 1
 * elements, each a string of -s characters or a number at their widest,
 * and 64 KiB besides; each argument after the first may raise it to
 * have that room too (lens_arg_start).  So the budget never cuts what
 * -s and -A ask for one level deep, only what nesting multiplies.  Past
 * it lens_render writes "..." once, and nothing more until the next
 * argument. */
size_t lens_budget(const struct lens_limits *limits);
/* An argument starts, of the list or of a printf-style pack (a budget
 * set, C->budget_end not 0): it has that room from here, whatever the
 * arguments before it took. */
void lens_arg_start(struct fmt_ctx *c);
static inline bool lens_budget_full(const struct fmt_ctx *c)
{
	return c->budget_end && c->sb->len >= c->budget_end;
}

/* Dispatch on the value's lens. */
void lens_render(struct fmt_ctx *c, const struct value *v);
bool lens_hidden(const struct type *t);

/* The lens families. */
void lens_default(struct fmt_ctx *c, const struct value *v);
void lens_int(struct fmt_ctx *c, const struct value *v, enum radix r);
/* For lenses that show an integer or a pointer in their own way: true
 * with its value in *X; else false, V shown already (by the default lens
 * when of another type, as unreadable when it cannot be read). */
bool lens_int_value(struct fmt_ctx *c, const struct value *v, int64_t *x);
void lens_guess(struct fmt_ctx *c, const struct value *v);
void lens_bool(struct fmt_ctx *c, const struct value *v);
void lens_enum(struct fmt_ctx *c, const struct value *v);
void lens_bitvec(struct fmt_ctx *c, const struct value *v);
/* fd (an integer) and file (a FILE *): lenses/fd.c. */
void lens_fd(struct fmt_ctx *c, const struct value *v);
void lens_string(struct fmt_ctx *c, const struct value *v);
void lens_pointer(struct fmt_ctx *c, const struct value *v);
void lens_float(struct fmt_ctx *c, const struct value *v, enum radix r);
/* A printf-style pack: V is the format string pointer; the arguments
 * follow from c->fetch. */
void lens_format_pack(struct fmt_ctx *c, const struct value *v);
/* Characters of a char array (string lens), LEN known or zero-scan. */
void lens_chars(struct fmt_ctx *c, uint64_t addr, const unsigned char *local,
		int64_t len, bool zero, size_t cap);

#endif
