/* What to trace (select.h), from the filters options_parse compiled. */
#include "select.h"

#include <stdlib.h>

#include "demangle.h"
#include "filter.h"
#include "options.h"

/* Whether any of the N filters V selects SYM of OBJ; with -C, SYM's
 * demangled name is computed once for all of them. */
static bool any_selects(const struct options *o, struct filter *const *v,
			size_t n, const char *sym, const struct select_obj *obj)
{
	if (n == 0)
		return false;
	char *demangled = o->demangle && sym ? demangle(sym) : NULL;
	bool hit = false;
	for (size_t i = 0; i < n && !hit; i++)
		hit = filter_match(v[i], sym, demangled, obj);
	free(demangled);
	return hit;
}

bool select_callee(const struct options *o, const struct select_obj *obj)
{
	return any_selects(o, o->libs, o->nlibs, NULL, obj);
}

bool select_stub(const struct options *o, const char *sym,
		 const struct select_obj *caller, bool callee_selected)
{
	if (callee_selected)
		return true;
	if (!o->nexprs && !o->nlibs && !o->no_main)
		return caller->is_main; /* the default -e @MAIN */
	return any_selects(o, o->exprs, o->nexprs, sym, caller);
}

bool select_entry(const struct options *o, const char *sym,
		  const struct select_obj *def)
{
	return any_selects(o, o->entries, o->nentries, sym, def);
}

/* Whether one of the N filters V names SYM (filter_names); OBJ NULL:
 * whatever their library parts. */
static bool any_names(const struct options *o, struct filter *const *v,
		      size_t n, const char *sym, const struct select_obj *obj)
{
	char *demangled = o->demangle ? demangle(sym) : NULL;
	bool hit = false;
	for (size_t i = 0; i < n && !hit; i++)
		hit = filter_names(v[i], sym, demangled, obj);
	free(demangled);
	return hit;
}

enum select_hit select_entry_hit(const struct options *o, const char *sym,
				 const struct select_obj *def)
{
	if (!select_entry(o, sym, def))
		return SELECT_NO;
	if (any_names(o, o->entries, o->nentries, sym, def) ||
	    any_names(o, o->exprs, o->nexprs, sym, NULL))
		return SELECT_NAMED;
	return SELECT_MATCH;
}

bool select_shows_caller(const struct options *o)
{
	return o->nexprs || o->nlibs;
}

bool select_has_entries(const struct options *o)
{
	return o->nentries > 0;
}

bool select_library_calls(const struct options *o)
{
	return o->nexprs || o->nlibs || o->nentries;
}
