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

/* The prototype of function NAME, or NULL when no file describes it.
 * PL's own definitions come first, then those of its imports, in the
 * order they were imported (depth first, at most 8 levels deep, so an
 * import cycle is harmless). */
const struct prototype *protolib_lookup(const struct protolib *pl,
					const char *name);

/* The type named NAME by a typedef of PL or of its imports (same order as
 * protolib_lookup), or NULL.  The type lives as long as the protolib that
 * defines it. */
const struct type *protolib_lookup_type(const struct protolib *pl,
					const char *name);

/* Resolves `import "NAME";`: returns the protolib holding NAME.conf, or
 * NULL when there is none (an error at the import line).  The returned
 * library is owned by the resolver and must outlive every library that
 * imports it; the resolver may load it on demand, and may return the same
 * library to many importers. */
typedef const struct protolib *(*protolib_import_fn)(void *ctx,
						      const char *name);

/* Install the resolver used by later loads into PL.  Without one, import
 * lines are syntax-checked and ignored. */
void protolib_set_import_resolver(struct protolib *pl,
				  protolib_import_fn resolve, void *ctx);

/* Make IMP's definitions visible through PL after PL's own and after
 * those imported earlier (what `import` does; also lets the loader import
 * e.g. ~/.ltrace.conf into every library).  IMP is borrowed, not owned;
 * importing PL itself or the same library twice does nothing.  Typedefs
 * of IMP are usable by files loaded into PL afterwards. */
void protolib_add_import(struct protolib *pl, const struct protolib *imp);

#endif
