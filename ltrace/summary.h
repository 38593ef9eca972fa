/* -c: the calls counted and timed, and at the end ltrace's table of
 * them.  Rows are keyed by the name the call's "<... name resumed>"
 * line shows (the callee, "name@SYS" for a system call), added up over
 * every traced task and process.  The names are copied. */
#ifndef LTRACE_SUMMARY_H
#define LTRACE_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "forward.h"

/* A call to NAME took NS nanoseconds, from its entry stop to its return
 * stop; FAILED: it failed with an errno (the "errors" column). */
void summary_account(const char *name, uint64_t ns, bool failed);
/* Append ltrace's table to OUT: a header, the rows sorted by total time
 * (longest first; equal times by name), a total row.  Then forget the
 * rows. */
void summary_write(struct strbuf *out);

#endif
