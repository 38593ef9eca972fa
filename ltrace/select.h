/* What to trace: the answer of -e, -l, -x and -L (ltrace(1), FILTER
 * EXPRESSIONS) for one symbol of one object.  The backend asks once per
 * symbol when it places breakpoints (never per call); the filters are
 * compiled once, by options_parse.
 *
 * An object is described to the filters by a struct select_obj: its
 * soname (DT_SONAME, else its file name; the main program's file name),
 * its path as mapped, and whether it is the main program (MAIN in a
 * library pattern).  A library glob starting with '/' is matched against
 * the path, any other library pattern (a /regex/ too) against the
 * soname.  The answers do not change while the options live, so the
 * backend may ask as often as it likes; each call may demangle SYM once
 * (-C), nothing more.
 *
 * With -C, a symbol matches a pattern if its mangled or its demangled
 * name does. */
#ifndef LTRACE_SELECT_H
#define LTRACE_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "forward.h"

struct select_obj {
	const char *soname;
	const char *path;
	bool is_main;
};

/* -l: whether calls into OBJ (to the functions it exports) are traced. */
bool select_callee(const struct options *o, const struct select_obj *obj);

/* Whether the call stub (PLT slot, or -fno-plt call site) for SYM in the
 * object CALLER is traced:
 *  - some -e expression selects (SYM, CALLER); or
 *  - no -e, -l or -L was given and CALLER is the main program (the
 *    default "-e @MAIN"); or
 *  - CALLEE_SELECTED: the backend found a loaded object (CALLER
 *    itself included: its calls through its own PLT to what it exports)
 *    for which select_callee holds and which exports SYM as a global
 *    function (FUNC or IFUNC). */
bool select_stub(const struct options *o, const char *sym,
		 const struct select_obj *caller, bool callee_selected);

/* Whether the entry of function SYM defined in DEF is traced (-x). */
bool select_entry(const struct options *o, const char *sym,
		  const struct select_obj *def);

/* select_entry, told apart: SELECT_NAMED when a -x rule that selects it
 * gives SYM's very name, not a glob or a regex (filter_names), or a -e
 * rule does, whatever its library part (which names a caller).  Of the
 * aliases at one address, one the user named is the one shown. */
enum select_hit { SELECT_NO, SELECT_MATCH, SELECT_NAMED };
enum select_hit select_entry_hit(const struct options *o, const char *sym,
				 const struct select_obj *def);

/* Whether a call line shows its caller, "caller->name(": with -e or -l,
 * as ltrace does; never with the default selection. */
bool select_shows_caller(const struct options *o);

/* Whether any -x expression was given (a static program can be traced
 * only through them). */
bool select_has_entries(const struct options *o);

/* Whether an object other than the main program matters by its own
 * calls: some -e or -l may select one of its stubs, or -x looks for
 * IFUNC implementations in its GOT.  Not with the default selection,
 * whose stubs are the program's only. */
bool select_library_calls(const struct options *o);

#endif
