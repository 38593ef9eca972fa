/* DWARF types as types of the prototype language, and subprograms as
 * prototypes (for dwarf.c; the mapping is described in
 * ltrace/dwarfproto.h).  One table per debug file: it owns the types it
 * builds, and builds each struct and enum once per DIE, so recursive
 * structs are cycles. */
#ifndef LTRACE_DWARFTYPES_H
#define LTRACE_DWARFTYPES_H

#include "dwlib.h"

#include "forward.h"

/* Bounds on what one DIE may build (dwarfproto.h): pointers deeper than
 * DWARF_MAX_DEPTH levels become addresses; a type nested deeper than
 * DWARF_MAX_NEST levels is one type_check refuses (nested too deeply),
 * as a conf file's is; members past DWARF_MAX_FIELDS are dropped. */
#define DWARF_MAX_DEPTH 16
#define DWARF_MAX_NEST 64
#define DWARF_MAX_FIELDS 256

struct dwarftypes;

/* An empty table for the debug info of the ELF file PATH, which warnings
 * name (PATH must outlive the table).  Never fails. */
struct dwarftypes *dwarftypes_new(const char *path);
/* Frees every type DT built.  NULL is allowed. */
void dwarftypes_free(struct dwarftypes *dt);

/* The prototype of the subprogram DIE, named NAME, or NULL when the DIE
 * says nothing about it (an old-style declaration, "int f();").  The
 * caller owns the prototype (prototype_free); its types are DT's.  Its
 * types passed type_hold as conf files' do: one the tracer cannot hold
 * is replaced, a too long array kept capped, each with a warning on
 * stderr ("ltrace: warning: PATH: NAME, parameter N: why"), printed
 * the first time DIE is built only. */
struct prototype *dwarftypes_proto(struct dwarftypes *dt, Dwarf_Die *die,
				   const char *name);

#endif
