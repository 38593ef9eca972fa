/* DWARF type DIEs to types of the prototype language: see dwarftypes.h,
 * and ltrace/dwarfproto.h for the mapping.  Integer and float kinds are
 * chosen by size from the architecture's data model (abi.h). */
#include <dwarf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "dwarftypes.h"
#include "dwhandles.h"
#include "error.h"
#include "expr.h"
#include "hmap.h"
#include "type.h"
#include "xmalloc.h"

#define MAX_ENUMS 4096
#define MAX_PEEL 64 /* typedef/cv chain */
#define MAX_DIMS 8  /* array dimensions */

#define MAX_BUSY 64 /* structs being filled at once */

struct dwarftypes {
	const char *path; /* the file, for warnings */
	struct type_arena arena;
	struct hmap by_die; /* DIE offset -> struct or enum type */
	struct hmap warned; /* subprogram DIE offsets warned about */
	bool quiet;	    /* the one being built was warned about */
	/* The structs being filled, innermost last.  One of them met by
	 * value (a member, an array element) would contain itself, a
	 * cycle crafted debug info can hold and C cannot; a pointer to
	 * one (a linked list) takes the cached type and is fine. */
	Dwarf_Off busy[MAX_BUSY];
	size_t nbusy;
};

static struct type *map_type(struct dwarftypes *dt, Dwarf_Die *die, int depth);

/* --- DIE helpers --- */

/* A size or count from the DWARF as the types hold it (a long):
 * anything larger saturates, so that type_check sees its size overflow
 * instead of a negative length that would read as none. */
static Dwarf_Word saturate(Dwarf_Word n)
{
	return n > LONG_MAX ? LONG_MAX : n;
}

static Dwarf_Word die_size(Dwarf_Die *die)
{
	Dwarf_Word size = 0;

	if (dwarf_aggregate_size(die, &size) != 0)
		return 0;
	return saturate(size);
}

/* Follow typedefs and qualifiers from DIE (in place).  False when the
 * chain ends in nothing (void).  *TDNAME gets the first typedef's name,
 * the one the code wrote (FILE, not struct _IO_FILE). */
static bool peel(Dwarf_Die *die, const char **tdname)
{
	for (int i = 0; i < MAX_PEEL; i++) {
		Dwarf_Attribute a;

		switch (dwarf_tag(die)) {
		case DW_TAG_typedef:
			if (tdname && !*tdname)
				*tdname = dwarf_diename(die);
			/* fall through */
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			if (!dwarf_attr_integrate(die, DW_AT_type, &a) ||
			    !dwarf_formref_die(&a, die))
				return false;
			continue;
		default:
			return true;
		}
	}
	return false;
}

/* The type DW_AT_type of DIE names, peeled; false for void. */
static bool type_of(Dwarf_Die *die, Dwarf_Die *out, const char **tdname)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, DW_AT_type, &a) ||
	    !dwarf_formref_die(&a, out))
		return false;
	return peel(out, tdname);
}

static bool is_char(Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);

	return dwarf_tag(die) == DW_TAG_base_type && die_size(die) == 1 &&
	       name && !strcmp(name, "char");
}

/* --- scalars --- */

/* The integer kind of SIZE bytes in the data model: char, short, int,
 * long, then long long; "long long" by name where it has long's size. */
static enum type_kind int_kind(Dwarf_Word size, bool sgn, bool llong)
{
	static const enum type_kind kinds[][2] = {
		/* unsigned, signed */
		{ TYPE_CHAR, TYPE_CHAR },    { TYPE_USHORT, TYPE_SHORT },
		{ TYPE_UINT, TYPE_INT },     { TYPE_ULONG, TYPE_LONG },
		{ TYPE_ULLONG, TYPE_LLONG },
	};
	size_t n = sizeof(kinds) / sizeof(kinds[0]);

	if (llong && size == abi_scalars[TYPE_LLONG].size)
		return kinds[n - 1][sgn];
	for (size_t i = 0; i < n; i++)
		if (abi_scalars[kinds[i][sgn]].size == size)
			return kinds[i][sgn];
	return llong ? kinds[n - 1][sgn] : kinds[n - 2][sgn];
}

/* What we cannot describe, of SIZE bytes: a hex integer of that width,
 * else hex bytes (keeps struct layout and stack accounting right). */
static struct type *opaque(struct dwarftypes *dt, Dwarf_Word size)
{
	switch (size) {
	case 0:
		return type_addr(&dt->arena);
	case 1:
	case 2:
	case 4:
	case 8:
		return type_lensed(&dt->arena, int_kind(size, false, false),
				   LENS_HEX);
	default:
		return type_char_array(&dt->arena, size, LENS_HEX);
	}
}

/* A struct of two members A: complex numbers, 128-bit integers. */
static struct type *pair(struct dwarftypes *dt, struct type *a)
{
	struct type *t = type_new(&dt->arena, TYPE_STRUCT);

	type_add_field(t, a);
	type_add_field(t, a);
	return t;
}

/* float or double by SIZE.  long double is taken as a double too, so
 * its value is not shown right (the x87 format is passed in memory);
 * conf files can say ldouble. */
static enum type_kind float_kind(Dwarf_Word size)
{
	return size == abi_scalars[TYPE_FLOAT].size ? TYPE_FLOAT : TYPE_DOUBLE;
}

static struct type *map_int(struct dwarftypes *dt, Dwarf_Die *die,
			    Dwarf_Word enc, bool octal)
{
	Dwarf_Word size = die_size(die);
	const char *name = dwarf_diename(die);

	if (size == 16)
		return pair(dt,
			    type_lensed(&dt->arena, int_kind(8, false, false),
					LENS_HEX));
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return opaque(dt, size);
	enum type_kind k = int_kind(
		size, enc == DW_ATE_signed || enc == DW_ATE_signed_char,
		name && strstr(name, "long long"));
	return octal ? type_lensed(&dt->arena, k, LENS_OCT) :
		       type_basic(&dt->arena, k);
}

static struct type *map_base(struct dwarftypes *dt, Dwarf_Die *die, bool octal)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0;
	Dwarf_Word size = die_size(die);

	dwarf_formudata(dwarf_attr(die, DW_AT_encoding, &a), &enc);
	switch (enc) {
	case DW_ATE_boolean:
		return type_lensed(&dt->arena, int_kind(size, false, false),
				   LENS_BOOL);
	case DW_ATE_signed:
	case DW_ATE_signed_char:
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
	case DW_ATE_UTF:
		return map_int(dt, die, enc, octal);
	case DW_ATE_float:
		return type_basic(&dt->arena, float_kind(size));
	case DW_ATE_complex_float:
		if (size == 8 || size == 16)
			return pair(dt, type_basic(&dt->arena,
						   float_kind(size / 2)));
		break;
	}
	return opaque(dt, size);
}

/* --- pointers, structs, enums, arrays --- */

/* char[N] shown as text: up to the first NUL, within its N bytes of
 * storage (zero(N)), as a C string in a fixed buffer is meant. */
static struct type *char_string(struct dwarftypes *dt, size_t n)
{
	struct type_arena *a = &dt->arena;
	struct expr *cap = expr_new(a, EXPR_NUM, (long)n, NULL);
	struct type *t = type_array(a, type_basic(a, TYPE_CHAR),
				    expr_new(a, EXPR_ZERO, 0, cap));

	t->lens = LENS_STRING;
	return t;
}

/* string: pointer to NUL-terminated ELT, as the conf parser builds it. */
static struct type *string_type(struct dwarftypes *dt, enum type_kind elt)
{
	return type_string(&dt->arena, elt,
			   expr_new(&dt->arena, EXPR_ZERO, 0, NULL));
}

/* The tag of a struct, union or class DIE, else NULL. */
static const char *aggregate_tag(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);
	bool agg = tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
		   tag == DW_TAG_union_type;
	return agg ? dwarf_diename(die) : NULL;
}

/* A pointer: to a C library's handle (FILE *), an address
 * (dwhandles.h). */
static struct type *map_pointer(struct dwarftypes *dt, Dwarf_Die *die,
				int depth)
{
	const char *td = NULL;
	Dwarf_Die to;

	if (!type_of(die, &to, &td) || depth >= DWARF_MAX_DEPTH ||
	    dwhandle_is(td, aggregate_tag(&to)))
		return type_addr(&dt->arena);
	if (is_char(&to))
		return string_type(dt, TYPE_CHAR);
	if (td && !strcmp(td, "wchar_t") && die_size(&to) == 4)
		return string_type(dt, TYPE_INT);
	switch (dwarf_tag(&to)) {
	case DW_TAG_subroutine_type:
	case DW_TAG_unspecified_type:
		return type_addr(&dt->arena);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_hasattr(&to, DW_AT_declaration))
			return type_addr(&dt->arena); /* opaque: FILE in musl */
		break;
	}
	/* a struct already mapped, or being filled: no need of its size */
	struct hent *e = hmap_find(&dt->by_die, NULL, dwarf_dieoffset(&to));
	if (e && (dwarf_tag(&to) == DW_TAG_structure_type ||
		  dwarf_tag(&to) == DW_TAG_class_type))
		return type_pointer(&dt->arena, e->ptr);
	return type_pointer(&dt->arena, map_type(dt, &to, depth + 1));
}

static bool member_offset(Dwarf_Die *m, Dwarf_Word *off)
{
	Dwarf_Attribute a;

	*off = 0;
	if (!dwarf_attr(m, DW_AT_data_member_location, &a))
		return true;
	if (dwarf_formudata(&a, off) == 0)
		return true;
	/* DWARF 2: a location expression, DW_OP_plus_uconst N. */
	Dwarf_Op *ops;
	size_t n;
	if (dwarf_getlocation(&a, &ops, &n) == 0 && n == 1 &&
	    ops[0].atom == DW_OP_plus_uconst) {
		*off = ops[0].number;
		return true;
	}
	return false;
}

/* Append FT at byte offset OFF, hiding any gap before it (bitfields,
 * explicit alignment).  False when the natural layout cannot reach OFF
 * (packed structs). */
static bool place_field(struct dwarftypes *dt, struct type *t, struct type *ft,
			Dwarf_Word off)
{
	size_t end = type_offsetof(t, t->nfields);
	size_t al = type_alignof(ft);

	if (off < end || off % al)
		return false;
	if ((end + al - 1) / al * al != off)
		type_add_field(t, type_char_array(&dt->arena, off - end,
						  LENS_HIDE));
	type_add_field(t, ft);
	return true;
}

static bool is_flexible(const struct type *t)
{
	return t->kind == TYPE_VOID ||
	       (t->kind == TYPE_ARRAY && !type_sizeof(t));
}

/* Member M of struct T at its DWARF offset; false when the layout
 * cannot be expressed. */
static bool add_member(struct dwarftypes *dt, struct type *t, Dwarf_Die *m,
		       Dwarf_Word size, int depth)
{
	Dwarf_Word off;
	Dwarf_Die mt;

	if (!member_offset(m, &off))
		return false;
	struct type *ft = type_of(m, &mt, NULL) ?
				  map_type(dt, &mt, depth + 1) :
				  type_basic(&dt->arena, TYPE_VOID);
	if (is_flexible(ft))
		return true;
	if (off >= size || !place_field(dt, t, ft, off))
		return false;
	type_name_field(t, t->nfields - 1, dwarf_diename(m));
	return true;
}

static bool fill_struct(struct dwarftypes *dt, struct type *t, Dwarf_Die *die,
			int depth)
{
	Dwarf_Word size = die_size(die);
	Dwarf_Die m;

	if (dwarf_child(die, &m) == 0) {
		do {
			if (dwarf_tag(&m) != DW_TAG_member ||
			    dwarf_hasattr(&m, DW_AT_bit_size))
				continue; /* bitfields become padding */
			if (t->nfields >= DWARF_MAX_FIELDS)
				break;
			if (!add_member(dt, t, &m, size, depth))
				return false;
		} while (dwarf_siblingof(&m, &m) == 0);
	}
	size_t end = type_offsetof(t, t->nfields);
	if (end < size)
		type_add_field(t, type_char_array(&dt->arena, size - end,
						  LENS_HIDE));
	return type_sizeof(t) == size;
}

/* Whether the struct at OFF is being filled. */
static bool is_busy(const struct dwarftypes *dt, Dwarf_Off off)
{
	for (size_t i = 0; i < dt->nbusy; i++)
		if (dt->busy[i] == off)
			return true;
	return false;
}

/* Fill T from DIE, with DIE marked busy meanwhile. */
static bool fill_busy(struct dwarftypes *dt, struct type *t, Dwarf_Die *die,
		      int depth)
{
	dt->busy[dt->nbusy++] = dwarf_dieoffset(die);
	bool ok = fill_struct(dt, t, die, depth);
	dt->nbusy--;
	return ok;
}

static struct type *map_struct(struct dwarftypes *dt, Dwarf_Die *die, int depth)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	struct hent *e = hmap_find(&dt->by_die, NULL, off);

	if (e && is_busy(dt, off)) /* by value: it would contain itself */
		return opaque(dt, die_size(die));
	if (e)
		return e->ptr;
	if (dwarf_hasattr(die, DW_AT_declaration))
		return type_addr(&dt->arena);
	if (dt->nbusy == MAX_BUSY)
		return opaque(dt, die_size(die));
	struct type *t = type_new(&dt->arena, TYPE_STRUCT);
	hmap_get(&dt->by_die, NULL, off)->ptr = t;
	/* nested too deeply or too large to measure: type_check refuses
	 * it, which hex bytes would hide */
	if (fill_busy(dt, t, die, depth) || type_sizeof(t) == TYPE_SIZE_BAD)
		return t;
	/* A layout we cannot express: its bytes, in hex.  T is changed in
	 * place, since members may already point at it. */
	type_clear_fields(t);
	t->kind = TYPE_ARRAY;
	t->lens = LENS_HEX;
	t->elt = type_basic(&dt->arena, TYPE_CHAR);
	t->len = expr_new(&dt->arena, EXPR_NUM, (long)die_size(die), NULL);
	return t;
}

static void add_enumerator(struct type *t, Dwarf_Die *e, bool sgn)
{
	Dwarf_Attribute a;
	const char *name = dwarf_diename(e);

	if (!name || !dwarf_attr(e, DW_AT_const_value, &a))
		return;
	Dwarf_Sword sv = 0;
	Dwarf_Word uv = 0;
	if (sgn ? dwarf_formsdata(&a, &sv) : dwarf_formudata(&a, &uv))
		return;
	type_add_enum(t, name, sgn ? (long)sv : (long)uv);
}

/* The enum DIE's underlying integer, with the enum lens. */
static struct type *enum_base(struct dwarftypes *dt, Dwarf_Die *die)
{
	Dwarf_Die base;

	if (type_of(die, &base, NULL) && dwarf_tag(&base) == DW_TAG_base_type)
		return type_with_lens(&dt->arena, map_base(dt, &base, false),
				      LENS_ENUM);
	Dwarf_Word size = die_size(die);
	return type_lensed(&dt->arena, int_kind(size ? size : 4, true, false),
			   LENS_ENUM);
}

static struct type *map_enum(struct dwarftypes *dt, Dwarf_Die *die)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	struct hent *e = hmap_find(&dt->by_die, NULL, off);

	if (e)
		return e->ptr;
	struct type *t = enum_base(dt, die);
	bool sgn = type_is_signed(t);
	hmap_get(&dt->by_die, NULL, off)->ptr = t;
	Dwarf_Die c;
	if (dwarf_child(die, &c) != 0)
		return t;
	do {
		if (dwarf_tag(&c) == DW_TAG_enumerator)
			add_enumerator(t, &c, sgn);
	} while (t->nenums < MAX_ENUMS && dwarf_siblingof(&c, &c) == 0);
	return t;
}

/* The element count of a subrange; 0 when unknown (flexible). */
static Dwarf_Word subrange_count(Dwarf_Die *sub)
{
	Dwarf_Attribute a;
	Dwarf_Word n = 0;
	Dwarf_Word lo = 0;

	if (dwarf_attr(sub, DW_AT_count, &a))
		return dwarf_formudata(&a, &n) == 0 ? saturate(n) : 0;
	if (!dwarf_attr(sub, DW_AT_upper_bound, &a) ||
	    dwarf_formudata(&a, &n) != 0)
		return 0;
	if (dwarf_attr(sub, DW_AT_lower_bound, &a))
		dwarf_formudata(&a, &lo);
	return n >= lo ? saturate(n - lo) + 1 : 0;
}

static struct type *map_array(struct dwarftypes *dt, Dwarf_Die *die, int depth)
{
	Dwarf_Word dims[MAX_DIMS];
	size_t n = 0;
	Dwarf_Die c;

	if (dwarf_child(die, &c) == 0) {
		do {
			if (dwarf_tag(&c) == DW_TAG_subrange_type &&
			    n < MAX_DIMS)
				dims[n++] = subrange_count(&c);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	Dwarf_Die et;
	if (!type_of(die, &et, NULL))
		return opaque(dt, die_size(die));
	if (n == 1 && is_char(&et))
		return char_string(dt, dims[0]);
	struct type *t = map_type(dt, &et, depth + 1);
	while (n-- > 0)
		t = type_array(&dt->arena, t,
			       expr_new(&dt->arena, EXPR_NUM, (long)dims[n],
					NULL));
	return t;
}

/* DIE is already peeled; TD is the last typedef's name on the way. */
static struct type *map_tagged(struct dwarftypes *dt, Dwarf_Die *die, int depth,
			       const char *td)
{
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		return map_base(dt, die,
				td && (!strcmp(td, "mode_t") ||
				       !strcmp(td, "__mode_t")));
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return map_pointer(dt, die, depth);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		return map_struct(dt, die, depth);
	case DW_TAG_union_type:
		return type_char_array(&dt->arena, die_size(die), LENS_HEX);
	case DW_TAG_enumeration_type:
		return map_enum(dt, die);
	case DW_TAG_array_type:
		return map_array(dt, die, depth);
	case DW_TAG_subroutine_type:
	case DW_TAG_unspecified_type:
		return type_addr(&dt->arena);
	default:
		return opaque(dt, die_size(die));
	}
}

/* What stands for a type nested deeper than DWARF_MAX_NEST: a struct
 * that holds itself, which type_check refuses ("nests too deeply"), so
 * that the parameter is shown as a conf file's deepest types are. */
static struct type *too_deep(struct dwarftypes *dt)
{
	struct type *t = type_new(&dt->arena, TYPE_STRUCT);

	type_add_field(t, t);
	return t;
}

static struct type *map_type(struct dwarftypes *dt, Dwarf_Die *type, int depth)
{
	Dwarf_Die die = *type;
	const char *td = NULL;

	if (!peel(&die, &td))
		return type_basic(&dt->arena, TYPE_VOID);
	if (depth > DWARF_MAX_NEST)
		return too_deep(dt);
	return map_tagged(dt, &die, depth, td);
}

/* --- prototypes --- */

static bool is_fmt_name(const char *name)
{
	while (name && *name == '_')
		name++;
	return name && (!strcmp(name, "fmt") || !strcmp(name, "format"));
}

/* T, parameter N of P (0: its return value), as the tracer can hold
 * it, through the checks conf files' types pass (type_hold): a type it
 * refuses is shown as an address or a hex number, a too long array
 * capped, with a warning on stderr unless DT->quiet. */
static struct type *hold(struct dwarftypes *dt, const struct prototype *p,
			 size_t n, struct type *t)
{
	const char *why;
	int v;
	struct type *h = type_hold(&dt->arena, t, &v, &why);
	if (v == TYPE_CHECK_OK || dt->quiet)
		return h;
	char what[40] = "return value";
	if (n)
		snprintf(what, sizeof(what), "parameter %zu", n);
	error_msg("warning: %s: %s, %s: %s%s", dt->path, p->name, what, why,
		  v == TYPE_CHECK_WARN	  ? "" :
		  h->kind == TYPE_POINTER ? "; shown as an address" :
					    "; shown as a hex number");
	return h;
}

/* Parameters of subprogram DIE into P.  Returns whether there were
 * varargs; *LASTNAME gets the last parameter's name. */
static bool add_params(struct dwarftypes *dt, struct prototype *p,
		       Dwarf_Die *die, const char **lastname)
{
	bool var = false;
	Dwarf_Die c;

	if (dwarf_child(die, &c) != 0)
		return false;
	do {
		if (dwarf_tag(&c) == DW_TAG_unspecified_parameters)
			var = true;
		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		/* without a type: a register's worth */
		Dwarf_Die type;
		struct type *t =
			type_of(&c, &type, NULL) ?
				map_type(dt, &type, 0) :
				opaque(dt, abi_scalars[TYPE_LONG].size);
		prototype_add_param(p, hold(dt, p, p->nparams + 1, t));
		*lastname = dwarf_diename(&c);
	} while (dwarf_siblingof(&c, &c) == 0);
	return var;
}

static struct prototype *build_proto(struct dwarftypes *dt, Dwarf_Die *die,
				     const char *name)
{
	struct prototype *p = xcalloc(1, sizeof(*p));
	const char *last = NULL;
	Dwarf_Die type;

	p->name = xstrdup(name);
	/* warned once per subprogram: it may be built by name and by
	 * address */
	struct hent *w = hmap_get(&dt->warned, NULL, dwarf_dieoffset(die));
	dt->quiet = w->ptr != NULL;
	w->ptr = dt;
	p->ret = hold(dt, p, 0,
		      type_of(die, &type, NULL) ?
			      map_type(dt, &type, 0) :
			      type_basic(&dt->arena, TYPE_VOID));
	bool var = add_params(dt, p, die, &last);
	/* A declaration (the caller's DWARF) often has no parameter names:
	 * a nameless char* before the "..." is taken as a format too. */
	if (var && p->nparams && (!last || is_fmt_name(last)) &&
	    p->params[p->nparams - 1]->lens == LENS_STRING)
		p->params[p->nparams - 1] = type_basic(&dt->arena, TYPE_PACK);
	p->split = p->nparams;
	return p;
}

/* The DIE holding the parameters: DIE itself, else what it completes
 * (DW_AT_specification) or is a copy of (DW_AT_abstract_origin): a
 * concrete out-of-line copy or a definition completing a declaration
 * has none of its own. */
static void param_die(Dwarf_Die *die)
{
	static const unsigned origins[] = { DW_AT_abstract_origin,
					    DW_AT_specification };

	for (int hop = 0; hop < 4 && dwarf_haschildren(die) <= 0; hop++) {
		Dwarf_Attribute a;
		Dwarf_Die o;
		size_t i;

		for (i = 0; i < 2; i++)
			if (dwarf_attr(die, origins[i], &a) &&
			    dwarf_formref_die(&a, &o))
				break;
		if (i == 2)
			return;
		*die = o;
	}
}

struct prototype *dwarftypes_proto(struct dwarftypes *dt, Dwarf_Die *die,
				   const char *name)
{
	Dwarf_Die pd = *die;

	if (!dwarf_hasattr_integrate(&pd, DW_AT_prototyped) &&
	    dwarf_hasattr(&pd, DW_AT_declaration) &&
	    dwarf_haschildren(&pd) <= 0)
		return NULL; /* "int f();" says nothing */
	param_die(&pd);
	return build_proto(dt, &pd, name);
}

struct dwarftypes *dwarftypes_new(const char *path)
{
	struct dwarftypes *dt = xcalloc(1, sizeof(*dt));

	dt->path = path;
	return dt;
}

void dwarftypes_free(struct dwarftypes *dt)
{
	if (!dt)
		return;
	hmap_destroy(&dt->by_die);
	hmap_destroy(&dt->warned);
	type_arena_destroy(&dt->arena);
	free(dt);
}
