/* Prototype discovery: which files describe the functions a process
 * calls.  Search order, highest priority first (documented in ltrace(1)):
 *
 *  1. files named by -F (a -F directory is a search directory instead);
 *  2. per-library files: SONAME.conf for the main program (its file name)
 *     and each library mapped in the process, in mapping order, looked up
 *     in the search directories; a DSO's name is snipped one ".suffix" at
 *     a time down to "X.so" (libc.so.6 -> libc.so.6.conf, libc.so.conf);
 *  3. $HOME/.ltrace.conf, then /etc/ltrace.conf (the legacy global files);
 *  4. DWARF debug information of the mapped files (the backend's part).
 *
 * Search directories, in order: -F directories, $XDG_CONFIG_HOME/ltrace
 * (default $HOME/.config/ltrace), $HOME/.ltrace, DIR/ltrace for each DIR
 * of $XDG_CONFIG_DIRS (default /etc/xdg), and the shipped prototypes
 * (etc/ of the source tree when run from the build tree, else the
 * installed $(pkgdatadir)). */
#ifndef LTRACE_PROTOSET_H
#define LTRACE_PROTOSET_H

#include <stddef.h>

#include "forward.h"

struct protoset;

/* Load the -F files (a bad declaration in one is reported and skipped,
 * conf.h) and note the global files.  Dies with one message when a
 * path named by -F does not exist.  Each file is loaded once, however
 * many ways lead to it (-F, a directory, an import). */
struct protoset *protoset_new(const struct options *o);
void protoset_free(struct protoset *ps);

/* The prototype library of the object named SONAME (a soname or the
 * program's file name), or NULL when no file describes it.  Cached. */
const struct protolib *protoset_library(struct protoset *ps,
					const char *soname);

/* The prototype of NAME, a function defined in the object named SONAME,
 * from the files that describe that object alone: those named by -F and
 * SONAME's own file (not the other objects' nor the global files), or
 * NULL. */
const struct prototype *
protoset_lookup_own(struct protoset *ps, const char *name, const char *soname);
/* The prototype of NAME for a process whose objects are SONAMES[0..N),
 * or NULL. */
const struct prototype *protoset_lookup(struct protoset *ps, const char *name,
					const char *const *sonames, size_t n);

#endif
