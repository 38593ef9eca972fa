/* Prototypes from DWARF (libdw): see ltrace/dwarfproto.h for the
 * contract and the type mapping. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dwarfproto.h"
#include "expr.h"
#include "hmap.h"
#include "type.h"
#include "xmalloc.h"

#define DEBUG_ROOT "/usr/lib/debug"
#define MAX_ENUMS 4096
#define MAX_PEEL 64 /* typedef/cv chain */
#define SCORE_DEFINITION 4

/* One ELF file and, once looked at, its DWARF. */
struct dfile {
	char *path;
	bool opened; /* open_dwarf ran (success or not) */
	int fd, dbgfd;
	Elf *elf, *dbgelf;
	Dwarf *dw;
	struct hmap names; /* name -> best subprogram DIE (val); ptr holds
				 * its score_die() + 1 */
	struct hmap addrs; /* entry address -> defining DIE */
	struct hmap protos; /* owned name -> prototype or NULL (miss) */
	struct hmap types; /* DIE offset -> struct/enum type */
	struct type_arena arena;
	struct dfile *next;
};

struct dwarf_protos {
	struct dfile *files;
};

/* --- opening the debug info --- */

static bool has_debug_info(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	size_t shstrndx;
	const char *name;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_info"))
			return true;
	}
	return false;
}

/* Open PATH as a separate debug file for F; true on success.  When F has
 * a build-id, the debug file must carry the same one. */
static bool try_debug_file(struct dfile *f, const char *path)
{
	const void *id1, *id2;
	ssize_t n1, n2;

	f->dbgfd = open(path, O_RDONLY | O_CLOEXEC);
	if (f->dbgfd < 0)
		return false;
	f->dbgelf = elf_begin(f->dbgfd, ELF_C_READ_MMAP, NULL);
	if (!f->dbgelf || !has_debug_info(f->dbgelf))
		goto err_close;
	n1 = dwelf_elf_gnu_build_id(f->elf, &id1);
	n2 = dwelf_elf_gnu_build_id(f->dbgelf, &id2);
	if (n1 > 0 && (n1 != n2 || memcmp(id1, id2, (size_t)n1)))
		goto err_close;
	f->dw = dwarf_begin_elf(f->dbgelf, DWARF_C_READ, NULL);
	if (f->dw)
		return true;
err_close:
	elf_end(f->dbgelf);
	f->dbgelf = NULL;
	close(f->dbgfd);
	f->dbgfd = -1;
	return false;
}

static bool find_by_build_id(struct dfile *f)
{
	const unsigned char *id;
	ssize_t n = dwelf_elf_gnu_build_id(f->elf, (const void **)&id);
	char path[sizeof(DEBUG_ROOT) + 32 + 2 * 64];
	size_t len, i;

	if (n < 2 || n > 64)
		return false;
	len = (size_t)snprintf(path, sizeof(path),
			       DEBUG_ROOT "/.build-id/%02x/", id[0]);
	for (i = 1; i < (size_t)n; i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%02x",
					id[i]);
	snprintf(path + len, sizeof(path) - len, ".debug");
	return try_debug_file(f, path);
}

/* gdb's order: beside the file, in .debug/ beside it, under the global
 * debug root mirroring the file's folder. */
static bool find_by_debuglink(struct dfile *f)
{
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(f->elf, &crc);
	const char *slash = strrchr(f->path, '/');
	int dlen = slash ? (int)(slash - f->path) : 1;
	const char *dir = slash ? f->path : ".";
	char path[4096];

	if (!link || strchr(link, '/'))
		return false;
	snprintf(path, sizeof(path), "%.*s/%s", dlen, dir, link);
	if (strcmp(path, f->path) && try_debug_file(f, path))
		return true;
	snprintf(path, sizeof(path), "%.*s/.debug/%s", dlen, dir, link);
	if (try_debug_file(f, path))
		return true;
	snprintf(path, sizeof(path), DEBUG_ROOT "%s%.*s/%s",
		 dir[0] == '/' ? "" : "/", dlen, dir, link);
	return try_debug_file(f, path);
}

static bool open_dwarf(struct dfile *f)
{
	f->fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (f->fd < 0)
		return false;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF)
		return false;
	if (has_debug_info(f->elf)) {
		f->dw = dwarf_begin_elf(f->elf, DWARF_C_READ, NULL);
		return f->dw != NULL;
	}
	return find_by_build_id(f) || find_by_debuglink(f);
}

/* --- the name index --- */

/* How much a subprogram DIE tells: a definition beats a declaration, a
 * prototyped one beats an old-style one, parameters beat none. */
static unsigned score_die(Dwarf_Die *die)
{
	bool decl = dwarf_hasattr(die, DW_AT_declaration);

	return (decl ? 0 : SCORE_DEFINITION) +
	       (dwarf_hasattr_integrate(die, DW_AT_prototyped) ? 2 : 0) +
	       (dwarf_haschildren(die) > 0 ? 1 : 0);
}

static bool is_external(Dwarf_Die *die)
{
	Dwarf_Attribute a;
	bool flag = false;

	if (!dwarf_attr_integrate(die, DW_AT_external, &a))
		return false;
	return dwarf_formflag(&a, &flag) == 0 && flag;
}

/* Entry addresses of a definition, for symbol aliases.  Functions split
 * into hot and cold parts have DW_AT_ranges instead of DW_AT_low_pc: the
 * start of every range is recorded (only the entry matches a symbol). */
static void index_addrs(struct dfile *f, Dwarf_Die *die, Dwarf_Off off)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t it = 0;
	int n = 0;

	if (dwarf_lowpc(die, &start) == 0) {
		hmap_get(&f->addrs, NULL, start)->val = off;
		return;
	}
	while (n++ < 8 && (it = dwarf_ranges(die, it, &base, &start, &end)) > 0)
		hmap_get(&f->addrs, NULL, start)->val = off;
}

static void index_die(struct dfile *f, Dwarf_Die *die)
{
	const char *name = dwarf_diename(die);
	Dwarf_Off off = dwarf_dieoffset(die);
	struct hent *e;
	unsigned score;

	if (!name)
		return;
	if (!dwarf_hasattr(die, DW_AT_declaration))
		index_addrs(f, die, off);
	if (!is_external(die))
		return;
	score = score_die(die);
	e = hmap_get(&f->names, name, 0);
	if (!e->ptr || score > (unsigned)(uintptr_t)e->ptr) {
		e->val = off;
		e->ptr = (void *)(uintptr_t)(score + 1);
	}
}

/* One pass over the top-level DIEs of every unit; nested DIEs are
 * skipped (DW_AT_sibling makes that cheap).  .debug_pubnames would not
 * help: GCC emits it only with -gpubnames, glibc's debug file has none,
 * and this pass takes ~55 ms on glibc's. */
static void index_dwarf(struct dfile *f)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, die;
	uint8_t unit_type;

	while (dwarf_get_units(f->dw, cu, &cu, NULL, &unit_type, &cudie,
			       NULL) == 0) {
		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial)
			continue;
		/* gas describes assembly functions as taking nothing and
		 * returning DW_TAG_unspecified_type: no information. */
		if (dwarf_srclang(&cudie) == DW_LANG_Mips_Assembler)
			continue;
		if (dwarf_child(&cudie, &die) != 0)
			continue;
		do {
			if (dwarf_tag(&die) == DW_TAG_subprogram)
				index_die(f, &die);
		} while (dwarf_siblingof(&die, &die) == 0);
	}
}

/* --- types --- */

static struct type *map_type(struct dfile *f, Dwarf_Die *die, int depth);

/* char[N] shown as text: up to the first NUL, within its N bytes of
 * storage (zero(N)), as a C string in a fixed buffer is meant. */
static struct type *char_string(struct dfile *f, size_t n)
{
	struct expr *cap = expr_new(&f->arena, EXPR_NUM, (long)n, NULL);
	struct type *t = type_array(&f->arena, type_basic(&f->arena, TYPE_CHAR),
				    expr_new(&f->arena, EXPR_ZERO, 0, cap));

	t->lens = LENS_STRING;
	return t;
}

/* string: pointer to NUL-terminated ELT, as the conf parser builds it. */
static struct type *string_type(struct dfile *f, enum type_kind elt)
{
	return type_string(&f->arena, elt,
			   expr_new(&f->arena, EXPR_ZERO, 0, NULL));
}

static enum type_kind int_kind(Dwarf_Word size, bool sgn, bool llong)
{
	switch (size) {
	case 1:
		return TYPE_CHAR;
	case 2:
		return sgn ? TYPE_SHORT : TYPE_USHORT;
	case 4:
		return sgn ? TYPE_INT : TYPE_UINT;
	default:
		if (llong)
			return sgn ? TYPE_LLONG : TYPE_ULLONG;
		return sgn ? TYPE_LONG : TYPE_ULONG;
	}
}

/* What we cannot describe, of SIZE bytes: a hex integer of that width,
 * else hex bytes (keeps struct layout and stack accounting right). */
static struct type *opaque(struct dfile *f, Dwarf_Word size)
{
	switch (size) {
	case 0:
		return type_addr(&f->arena);
	case 1:
	case 2:
	case 4:
	case 8:
		return type_lensed(&f->arena, int_kind(size, false, false),
				   LENS_HEX);
	default:
		return type_char_array(&f->arena, size, LENS_HEX);
	}
}

static Dwarf_Word die_size(Dwarf_Die *die)
{
	Dwarf_Word size = 0;

	if (dwarf_aggregate_size(die, &size) != 0)
		return 0;
	return size;
}

/* A struct of two members of kind K: complex numbers, __int128. */
static struct type *pair(struct dfile *f, struct type *a)
{
	struct type *t = type_new(&f->arena, TYPE_STRUCT);

	type_add_field(t, a);
	type_add_field(t, a);
	return t;
}

static struct type *map_base(struct dfile *f, Dwarf_Die *die, bool octal)
{
	Dwarf_Attribute a;
	Dwarf_Word enc = 0, size = die_size(die);
	const char *name = dwarf_diename(die);
	bool ll = name && strstr(name, "long long");
	enum type_kind k;

	dwarf_formudata(dwarf_attr(die, DW_AT_encoding, &a), &enc);
	switch (enc) {
	case DW_ATE_boolean:
		return type_lensed(&f->arena, int_kind(size, false, false),
				   LENS_BOOL);
	case DW_ATE_signed:
	case DW_ATE_signed_char:
	case DW_ATE_unsigned:
	case DW_ATE_unsigned_char:
	case DW_ATE_UTF:
		if (size == 16)
			return pair(f, type_lensed(&f->arena, TYPE_ULONG,
						   LENS_HEX));
		if (size != 1 && size != 2 && size != 4 && size != 8)
			break;
		k = int_kind(size,
			     enc == DW_ATE_signed || enc == DW_ATE_signed_char,
			     ll);
		return octal ? type_lensed(&f->arena, k, LENS_OCT) :
			       type_basic(&f->arena, k);
	case DW_ATE_float:
		/* XXX(issue 3): long double (x87, passed in memory) is shown
		 * as a double. */
		return type_basic(&f->arena,
				  size == 4 ? TYPE_FLOAT : TYPE_DOUBLE);
	case DW_ATE_complex_float:
		if (size == 8 || size == 16)
			return pair(f, type_basic(&f->arena,
						  size == 8 ? TYPE_FLOAT :
							      TYPE_DOUBLE));
		break;
	}
	return opaque(f, size);
}

/* Follow typedefs and qualifiers from DIE (in place).  False when the
 * chain ends in nothing (void).  *TDNAME gets the last typedef's name. */
static bool peel(Dwarf_Die *die, const char **tdname)
{
	Dwarf_Attribute a;
	int i;

	for (i = 0; i < MAX_PEEL; i++) {
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

static struct type *map_pointer(struct dfile *f, Dwarf_Die *die, int depth)
{
	const char *td = NULL;
	Dwarf_Die to;

	if (!type_of(die, &to, &td) || depth >= DWARF_MAX_DEPTH)
		return type_addr(&f->arena);
	if (is_char(&to))
		return string_type(f, TYPE_CHAR);
	if (td && !strcmp(td, "wchar_t") && die_size(&to) == 4)
		return string_type(f, TYPE_INT);
	switch (dwarf_tag(&to)) {
	case DW_TAG_subroutine_type:
	case DW_TAG_unspecified_type:
		return type_addr(&f->arena);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
	case DW_TAG_union_type:
		if (dwarf_hasattr(&to, DW_AT_declaration))
			return type_addr(&f->arena); /* opaque: FILE in musl */
		break;
	}
	return type_pointer(&f->arena, map_type(f, &to, depth + 1));
}

static bool member_offset(Dwarf_Die *m, Dwarf_Word *off)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t n;

	*off = 0;
	if (!dwarf_attr(m, DW_AT_data_member_location, &a))
		return true;
	if (dwarf_formudata(&a, off) == 0)
		return true;
	/* DWARF 2: a location expression, DW_OP_plus_uconst N. */
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
static bool place_field(struct dfile *f, struct type *t, struct type *ft,
			Dwarf_Word off)
{
	size_t end = type_offsetof(t, t->nfields);
	size_t al = type_alignof(ft);

	if (off < end || off % al)
		return false;
	if ((end + al - 1) / al * al != off)
		type_add_field(t, type_char_array(&f->arena, off - end,
						  LENS_HIDE));
	type_add_field(t, ft);
	return true;
}

static bool is_flexible(const struct type *t)
{
	return t->kind == TYPE_VOID ||
	       (t->kind == TYPE_ARRAY && !type_sizeof(t));
}

static bool fill_struct(struct dfile *f, struct type *t, Dwarf_Die *die,
			int depth)
{
	Dwarf_Word off, size = die_size(die);
	Dwarf_Die m, mt;
	struct type *ft;

	if (dwarf_child(die, &m) == 0) {
		do {
			if (dwarf_tag(&m) != DW_TAG_member ||
			    dwarf_hasattr(&m, DW_AT_bit_size))
				continue; /* bitfields become padding */
			if (t->nfields >= DWARF_MAX_FIELDS)
				break;
			if (!member_offset(&m, &off))
				return false;
			ft = type_of(&m, &mt, NULL) ?
				     map_type(f, &mt, depth + 1) :
				     type_basic(&f->arena, TYPE_VOID);
			if (is_flexible(ft))
				continue;
			if (off >= size || !place_field(f, t, ft, off))
				return false;
		} while (dwarf_siblingof(&m, &m) == 0);
	}
	if (type_offsetof(t, t->nfields) < size)
		type_add_field(t, type_char_array(&f->arena,
				size - type_offsetof(t, t->nfields),
				LENS_HIDE));
	return type_sizeof(t) == size;
}

static struct type *map_struct(struct dfile *f, Dwarf_Die *die, int depth)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	struct hent *e = hmap_find(&f->types, NULL, off);
	struct type *t;

	if (e)
		return e->ptr;
	if (dwarf_hasattr(die, DW_AT_declaration))
		return type_addr(&f->arena);
	t = type_new(&f->arena, TYPE_STRUCT);
	hmap_get(&f->types, NULL, off)->ptr = t;
	if (fill_struct(f, t, die, depth))
		return t;
	/* A layout we cannot express: its bytes, in hex. */
	free(t->fields);
	t->fields = NULL;
	t->nfields = 0;
	t->kind = TYPE_ARRAY;
	t->lens = LENS_HEX;
	t->elt = type_basic(&f->arena, TYPE_CHAR);
	t->len = expr_new(&f->arena, EXPR_NUM, (long)die_size(die), NULL);
	return t;
}

static void add_enumerator(struct type *t, Dwarf_Die *e, bool sgn)
{
	Dwarf_Attribute a;
	Dwarf_Sword sv = 0;
	Dwarf_Word uv = 0;
	const char *name = dwarf_diename(e);

	if (!name || !dwarf_attr(e, DW_AT_const_value, &a))
		return;
	if (sgn ? dwarf_formsdata(&a, &sv) : dwarf_formudata(&a, &uv))
		return;
	type_add_enum(t, name, sgn ? (long)sv : (long)uv);
}

static struct type *map_enum(struct dfile *f, Dwarf_Die *die)
{
	Dwarf_Off off = dwarf_dieoffset(die);
	struct hent *e = hmap_find(&f->types, NULL, off);
	Dwarf_Die base, c;
	struct type *t;
	bool sgn = true;

	if (e)
		return e->ptr;
	if (type_of(die, &base, NULL) && dwarf_tag(&base) == DW_TAG_base_type)
		t = type_with_lens(&f->arena, map_base(f, &base, false),
				   LENS_ENUM);
	else
		t = type_lensed(&f->arena,
			   int_kind(die_size(die) ? die_size(die) : 4, true,
				    false),
			   LENS_ENUM);
	sgn = type_is_signed(t);
	hmap_get(&f->types, NULL, off)->ptr = t;
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
	Dwarf_Word n = 0, lo = 0;

	if (dwarf_attr(sub, DW_AT_count, &a))
		return dwarf_formudata(&a, &n) == 0 ? n : 0;
	if (!dwarf_attr(sub, DW_AT_upper_bound, &a) ||
	    dwarf_formudata(&a, &n) != 0)
		return 0;
	if (dwarf_attr(sub, DW_AT_lower_bound, &a))
		dwarf_formudata(&a, &lo);
	return n >= lo ? n - lo + 1 : 0;
}

static struct type *map_array(struct dfile *f, Dwarf_Die *die, int depth)
{
	Dwarf_Word dims[8];
	Dwarf_Die c, et;
	struct type *t;
	size_t n = 0;

	if (dwarf_child(die, &c) == 0) {
		do {
			if (dwarf_tag(&c) == DW_TAG_subrange_type && n < 8)
				dims[n++] = subrange_count(&c);
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	if (!type_of(die, &et, NULL))
		return opaque(f, die_size(die));
	if (n == 1 && is_char(&et))
		return char_string(f, dims[0]);
	t = map_type(f, &et, depth + 1);
	while (n-- > 0)
		t = type_array(&f->arena, t,
			       expr_new(&f->arena, EXPR_NUM, (long)dims[n],
					NULL));
	return t;
}

/* DIE is already peeled. */
static struct type *map_tagged(struct dfile *f, Dwarf_Die *die, int depth,
			       const char *td)
{
	switch (dwarf_tag(die)) {
	case DW_TAG_base_type:
		return map_base(f, die,
				td && (!strcmp(td, "mode_t") ||
				       !strcmp(td, "__mode_t")));
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		return map_pointer(f, die, depth);
	case DW_TAG_structure_type:
	case DW_TAG_class_type:
		return map_struct(f, die, depth);
	case DW_TAG_union_type:
		return type_char_array(&f->arena, die_size(die), LENS_HEX);
	case DW_TAG_enumeration_type:
		return map_enum(f, die);
	case DW_TAG_array_type:
		return map_array(f, die, depth);
	case DW_TAG_subroutine_type:
	case DW_TAG_unspecified_type:
		return type_addr(&f->arena);
	default:
		return opaque(f, die_size(die));
	}
}

static struct type *map_type(struct dfile *f, Dwarf_Die *type, int depth)
{
	Dwarf_Die die = *type;
	const char *td = NULL;

	if (!peel(&die, &td))
		return type_basic(&f->arena, TYPE_VOID);
	if (depth > DWARF_MAX_DEPTH) {
		if (dwarf_tag(&die) == DW_TAG_pointer_type)
			return type_addr(&f->arena);
		return opaque(f, die_size(&die));
	}
	return map_tagged(f, &die, depth, td);
}

/* --- prototypes --- */

static bool is_fmt_name(const char *name)
{
	while (name && *name == '_')
		name++;
	return name && (!strcmp(name, "fmt") || !strcmp(name, "format"));
}

/* Parameters of subprogram DIE into P; a DIE without any (a concrete
 * out-of-line copy, a definition completing a declaration) defers to its
 * origin.  Returns whether there were varargs; *LASTNAME gets the last
 * parameter's name. */
static bool add_params(struct dfile *f, struct prototype *p, Dwarf_Die *die,
		       const char **lastname)
{
	Dwarf_Die c, type;
	bool var = false;
	struct type *t;

	if (dwarf_child(die, &c) != 0)
		return false;
	do {
		if (dwarf_tag(&c) == DW_TAG_unspecified_parameters)
			var = true;
		if (dwarf_tag(&c) != DW_TAG_formal_parameter)
			continue;
		t = type_of(&c, &type, NULL) ? map_type(f, &type, 0) :
					       opaque(f, 8);
		prototype_add_param(p, t);
		*lastname = dwarf_diename(&c);
	} while (dwarf_siblingof(&c, &c) == 0);
	return var;
}

static struct prototype *build_proto(struct dfile *f, Dwarf_Die *die,
				     const char *name)
{
	struct prototype *p = xcalloc(1, sizeof(*p));
	const char *last = NULL;
	Dwarf_Die type;
	bool var;

	p->name = xstrdup(name);
	p->ret = type_of(die, &type, NULL) ? map_type(f, &type, 0) :
					     type_basic(&f->arena, TYPE_VOID);
	var = add_params(f, p, die, &last);
	/* A declaration (the caller's DWARF) often has no parameter names:
	 * a nameless char* before the "..." is taken as a format too. */
	if (var && p->nparams && (!last || is_fmt_name(last)) &&
	    p->params[p->nparams - 1]->lens == LENS_STRING)
		p->params[p->nparams - 1] = type_basic(&f->arena, TYPE_PACK);
	p->split = p->nparams;
	return p;
}

/* The DIE holding the parameters: DIE itself, else what it completes
 * (DW_AT_specification) or is a copy of (DW_AT_abstract_origin). */
static void param_die(Dwarf_Die *die)
{
	static const unsigned origins[] = { DW_AT_abstract_origin,
					    DW_AT_specification };
	Dwarf_Attribute a;
	Dwarf_Die o;
	int hop;
	size_t i;

	for (hop = 0; hop < 4 && dwarf_haschildren(die) <= 0; hop++) {
		for (i = 0; i < 2; i++)
			if (dwarf_attr(die, origins[i], &a) &&
			    dwarf_formref_die(&a, &o))
				break;
		if (i == 2)
			return;
		*die = o;
	}
}

/* A global symbol of F's own ELF file defining NAME (not IFUNC: the DIE
 * at its address would be the resolver's); its address, or 0. */
static GElf_Addr sym_addr(struct dfile *f, const char *name)
{
	Elf_Scn *scn = NULL;
	Elf_Data *data;
	GElf_Shdr sh;
	GElf_Sym sym;
	size_t i;
	const char *s;

	while ((scn = elf_nextscn(f->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_entsize == 0 ||
		    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB))
			continue;
		data = elf_getdata(scn, NULL);
		for (i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			if (!gelf_getsym(data, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    GELF_ST_BIND(sym.st_info) == STB_LOCAL ||
			    sym.st_shndx == SHN_UNDEF)
				continue;
			s = elf_strptr(f->elf, sh.sh_link, sym.st_name);
			if (s && !strcmp(s, name))
				return sym.st_value;
		}
	}
	return 0;
}

/* The DIE describing NAME: its own definition, else the definition at
 * the address of NAME's symbol (an alias: fopen is _IO_new_fopen), else
 * its best declaration. */
static bool find_die(struct dfile *f, const char *name, Dwarf_Off *off)
{
	struct hent *e = hmap_find(&f->names, name, 0), *a = NULL;
	GElf_Addr addr;

	if (e && (uintptr_t)e->ptr - 1 >= SCORE_DEFINITION) {
		*off = e->val;
		return true;
	}
	addr = sym_addr(f, name);
	if (addr)
		a = hmap_find(&f->addrs, NULL, addr);
	if (a || e)
		*off = a ? a->val : e->val;
	return a || e;
}

static struct prototype *lookup_uncached(struct dfile *f, const char *name)
{
	Dwarf_Off off;
	Dwarf_Die die;

	if (!find_die(f, name, &off))
		return NULL;
	if (!dwarf_offdie(f->dw, off, &die))
		return NULL;
	if (!dwarf_hasattr_integrate(&die, DW_AT_prototyped) &&
	    dwarf_hasattr(&die, DW_AT_declaration) &&
	    dwarf_haschildren(&die) <= 0)
		return NULL; /* "int f();" says nothing */
	param_die(&die);
	return build_proto(f, &die, name);
}

/* --- files --- */

static struct dfile *file_get(struct dwarf_protos *d, const char *path)
{
	struct dfile *f;

	for (f = d->files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f;
	f = xcalloc(1, sizeof(*f));
	f->path = xstrdup(path);
	f->fd = f->dbgfd = -1;
	f->next = d->files;
	d->files = f;
	return f;
}

static void file_free(struct dfile *f)
{
	size_t i;

	for (i = 0; i < f->protos.cap; i++) {
		if (!f->protos.tab[i].used)
			continue;
		prototype_free(f->protos.tab[i].ptr);
		free((char *)f->protos.tab[i].skey);
	}
	hmap_destroy(&f->protos);
	hmap_destroy(&f->names);
	hmap_destroy(&f->addrs);
	hmap_destroy(&f->types);
	type_arena_destroy(&f->arena);
	if (f->dw)
		dwarf_end(f->dw);
	if (f->dbgelf)
		elf_end(f->dbgelf);
	if (f->elf)
		elf_end(f->elf);
	if (f->dbgfd >= 0)
		close(f->dbgfd);
	if (f->fd >= 0)
		close(f->fd);
	free(f->path);
	free(f);
}

struct dwarf_protos *dwarf_protos_new(void)
{
	elf_version(EV_CURRENT);
	return xcalloc(1, sizeof(struct dwarf_protos));
}

void dwarf_protos_free(struct dwarf_protos *d)
{
	struct dfile *f, *next;

	if (!d)
		return;
	for (f = d->files; f; f = next) {
		next = f->next;
		file_free(f);
	}
	free(d);
}

const struct prototype *dwarf_lookup(struct dwarf_protos *d, const char *path,
				     const char *name)
{
	struct dfile *f = file_get(d, path);
	struct prototype *p;
	struct hent *e;

	if (!f->opened) {
		f->opened = true;
		if (open_dwarf(f))
			index_dwarf(f);
	}
	if (!f->dw)
		return NULL;
	e = hmap_find(&f->protos, name, 0);
	if (e)
		return e->ptr;
	p = lookup_uncached(f, name);
	hmap_get(&f->protos, xstrdup(name), 0)->ptr = p;
	return p;
}
