/* The prototype library: the functions and typedefs that ltrace.conf(5)
 * files describe, by name, and the libraries those files import.  The
 * conf parser (conf.h) fills one; the core only looks names up. */
#ifndef LTRACE_PROTOLIB_H
#define LTRACE_PROTOLIB_H

#include <stdbool.h>
#include <stddef.h>

#include "forward.h"

struct type_arena;

/* An empty library.  Never fails. */
struct protolib *protolib_new(void);
void protolib_free(struct protolib *pl);

/* The prototype of function NAME, or NULL when no file describes it.
 * PL's own definitions come first, then those of its imports, in the
 * order they were imported (depth first, at most 8 levels deep, so an
 * import cycle is harmless).  A declaration kept for later
 * (protolib_add_later) is parsed here, at its first lookup. */
const struct prototype *protolib_lookup(const struct protolib *pl,
					const char *name);

/* The type named NAME by a typedef of PL or of its imports (same order as
 * protolib_lookup), or NULL.  The type lives as long as the protolib that
 * defines it and is shared: it must not be modified. */
struct type *protolib_lookup_type(const struct protolib *pl, const char *name);
/* PL's own prototypes one after the other (not its imports'), in no
 * particular order: the first after PREV, the first for NULL, NULL
 * after the last; declarations kept for later only once looked up.
 * Each lives as long as PL. */
const struct prototype *protolib_next_proto(const struct protolib *pl,
					    const struct prototype *prev);

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

/* What the conf parser fills PL with.  Definitions already in PL win
 * over later ones. */

/* The arena that owns every type of PL's files. */
struct type_arena *protolib_arena(struct protolib *pl);

/* A new file starts loading into PL: typedefs from now on are its own. */
void protolib_begin_file(struct protolib *pl);

/* PL's own typedef NAME (imports are not searched), or NULL.
 * *THIS_FILE tells whether the file being loaded defined it. */
struct type *protolib_own_type(struct protolib *pl, const char *name,
			       bool *this_file);

/* Define typedef NAME as T for the file being loaded; PL has no typedef
 * NAME of its own yet.  NAME is copied. */
void protolib_add_type(struct protolib *pl, const char *name, struct type *t);

/* Add function P (its name set), which PL then owns.  When PL already
 * has a function of that name, that one wins and P is freed. */
void protolib_add_proto(struct protolib *pl, struct prototype *p);

/* `import "NAME";` through the resolver: 0, or -ENOENT when it has no
 * library NAME.  Without a resolver, nothing happens (0). */
int protolib_import(struct protolib *pl, const char *name);

/* Parses a declaration kept for later: LEN bytes at TEXT, which start
 * on line LINE of FILE, adding what it declares to PL. */
typedef void (*protolib_parse_fn)(struct protolib *pl, const char *file,
				  const char *text, size_t len, int line);

/* PL keeps TEXT (malloc'd: PL frees it), the whole of FILE, for the
 * declarations protolib_add_later leaves in it, and PARSE parses them. */
void protolib_keep_text(struct protolib *pl, char *text, const char *file,
			protolib_parse_fn parse);

/* Whether PL has function NAME, parsed or kept for later. */
bool protolib_has(const struct protolib *pl, const char *name);

/* Whether PL defines function NAME itself (not through its imports): a
 * declaration of NAME kept for later is parsed now, and defines nothing
 * when it is bad (its error is reported then).  So of a file's two
 * declarations of one name the first good one wins, as when the file is
 * parsed at once. */
bool protolib_defines(struct protolib *pl, const char *name);

/* Function NAME is declared by the LEN bytes at TEXT (in the text PL
 * keeps; NAME is in it too) from line LINE: parsed at its first lookup.
 * PL does not define NAME (protolib_defines).  False when it cannot be
 * kept (no kept text, a length beyond 32 bits): the caller parses it
 * now. */
bool protolib_add_later(struct protolib *pl, const char *name, const char *text,
			size_t len, int line);

#endif
