/* One filter expression of -e, -x or -l (ltrace(1), FILTER EXPRESSIONS),
 * compiled once and matched against (symbol, object) pairs.
 *
 *	expr	:= ['!' | '-'] rule { ('+' | '-') rule }
 *	rule	:= symbol ['@' library] | '@' [library]
 *
 * Each part is a glob (fnmatch(3): * ? [...], '\' escapes) or a /regex/
 * (POSIX extended), matched against the whole name; a missing part means
 * any.  A leading '!' or '-' starts from "everything".  Rules mark a
 * candidate ('+', and the first rule) or unmark it ('-'), left to right;
 * the candidate is selected if marked at the end.  The exact rules for
 * '/' (regex, path, the '/X@Y/' shorthand) and for '\' are in filter.c
 * and in the man page.
 *
 * An -l argument is a single library pattern: FILTER_LIBRARY parses it
 * whole, with '+', '-' and '@' as ordinary characters. */
#ifndef LTRACE_FILTER_H
#define LTRACE_FILTER_H

#include <stdbool.h>

#include "forward.h"

enum filter_syntax {
	FILTER_EXPR,	/* -e, -x: a chain of rules */
	FILTER_LIBRARY, /* -l: one library pattern */
};

/* Compile TEXT.  Returns the filter (release it with filter_free), or
 * NULL with *ERR set to a newly allocated reason ("unmatched '['"), which
 * the caller frees and reports: this module prints nothing. */
struct filter *filter_compile(const char *text, enum filter_syntax syntax,
			      char **err);

/* F may be NULL. */
void filter_free(struct filter *f);

/* Whether F selects the symbol SYM of the object OBJ.  DEMANGLED, when
 * not NULL, is SYM's demangled name (-C): a symbol pattern then matches
 * if it matches either name.  SYM may be NULL when F has no symbol
 * pattern (FILTER_LIBRARY). */
bool filter_match(const struct filter *f, const char *sym,
		  const char *demangled, const struct select_obj *obj);

/* Whether a rule of F that marks the symbol SYM of the object OBJ
 * gives its very name (a glob without wildcards, not a regex), and no
 * later rule unmarks it; OBJ NULL: whatever the rules' library parts
 * say.  DEMANGLED as for filter_match. */
bool filter_names(const struct filter *f, const char *sym,
		  const char *demangled, const struct select_obj *obj);

#endif
