/* The C library's handles: types whose insides are the library's own
 * business, which DWARF describes (libc6-dbg: struct _IO_FILE, its 30
 * members and buffers) but a trace shows as an address, as ltrace.conf
 * shows its file, DIR, locale_t and pthread_mutex_t (for dwarftypes.c;
 * the list is in dwhandles.c). */
#ifndef LTRACE_DWHANDLES_H
#define LTRACE_DWHANDLES_H

#include <stdbool.h>

/* Whether a pointer to the type named TYPEDEF (the first typedef on the
 * way to it) or TAG (its struct, union or class tag) is a handle,
 * shown as an address.  Either may be NULL. */
bool dwhandle_is(const char *typedef_name, const char *tag);

#endif
