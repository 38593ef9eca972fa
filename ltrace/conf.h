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

/* Parse a config held in memory (for tests): NAME is used in messages. */
int conf_load_string(struct protolib *pl, const char *name, const char *text);

#endif
