/* The trace writer.  It alone owns line structure: prefixes, the
 * alignment column, "<unfinished ...>" when another line interrupts an
 * open call line, and "<... name resumed>" when the call then returns.
 * Output is buffered; output_sync is called before the tracer blocks. */
#ifndef LTRACE_OUTPUT_H
#define LTRACE_OUTPUT_H

#include <stdbool.h>
#include <sys/types.h>

#include "forward.h"

/* FD receives the trace.  PID_PREFIX selects "[pid N] " (or "N " when
 * writing to a file named by -o) before every line.  EAGER_FLUSH: flush
 * before every block, for output shared with the tracee (a terminal, a
 * pipe, the tracee's own stdout/stderr). */
void output_init(int fd, int align, bool to_file, bool eager_flush);
void output_set_pid_prefix(bool on);

/* Start a call line: "name(" ARGS, left open. */
void output_call_entry(pid_t pid, unsigned long id, const char *name,
		    const char *args);
/* Finish call ID: on its open line if nothing intervened, else as a
 * "<... name resumed> " line. */
void output_call_return(pid_t pid, unsigned long id, const char *name,
		     bool entry_had_args, const char *more, const char *ret);
/* A whole line (signals, exit status, exec). */
void output_line(pid_t pid, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Before the tracer blocks. */
void output_sync(void);
/* Write out everything. */
void output_flush(void);

#endif
