/* The conf language of ltrace.conf(5): parsing files of prototypes into
 * a protolib (protolib.h). */
#ifndef LTRACE_CONF_H
#define LTRACE_CONF_H

#include "forward.h"

/* Load one file into PL.  Definitions already in PL win over later ones
 * (load the highest-priority file first).  Errors are printed as
 * "file:line:col: error: ..." on stderr; a bad line is skipped and the
 * rest loads.  Returns the number of errors, or -1 (with a message) if
 * the file cannot be read. */
int conf_load_file(struct protolib *pl, const char *path);

/* conf_load_file, but a function declaration is only indexed by its name
 * now, and parsed at the first lookup of that name (protolib_lookup):
 * loading libc.so.conf's 1000 prototypes, to use ten of them, was about
 * 2 ms of a traced run's start, and freeing them 0.9 ms of its end.
 * Typedefs, imports and lines whose name cannot be read off are parsed
 * at once, in order, and so is a declaration whose name the file
 * declares again (the first good one wins, as in conf_load_file); an
 * error in a function's declaration is reported at its first lookup,
 * and is not counted in the result. */
int conf_load_file_later(struct protolib *pl, const char *path);

/* Parse a config held in memory (for tests): NAME is used in messages. */
int conf_load_string(struct protolib *pl, const char *name, const char *text);

#endif
