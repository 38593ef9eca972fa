/* The prototype library: what ltrace.conf(5)-style files say about
 * functions.  Parsing lives in ltrace/proto.c (and friends); the core only
 * loads files and looks names up. */
#ifndef LTRACE_PROTO_H
#define LTRACE_PROTO_H

#include <stdbool.h>

#include "forward.h"

/* An empty library.  Never fails. */
struct protolib *protolib_new(void);
void protolib_free(struct protolib *pl);

/* Load one file into PL.  Definitions already in PL win over later ones
 * (load the highest-priority file first).  Errors are printed as
 * "file:line:col: error: ..." on stderr; a bad line is skipped and the
 * rest loads.  Returns the number of errors, or -1 (with a message) if
 * the file cannot be read. */
int protolib_load_file(struct protolib *pl, const char *path);

/* Parse a config held in memory (for tests): NAME is used in messages. */
int protolib_load_string(struct protolib *pl, const char *name,
			 const char *text);

/* The prototype of function NAME, or NULL when no file describes it. */
const struct prototype *protolib_lookup(const struct protolib *pl,
					const char *name);

#endif
