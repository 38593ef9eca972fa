/* The trace writer.  It alone owns line structure: prefixes, the
 * alignment column, "<unfinished ...>" when another line interrupts an
 * open call line, and "<... name resumed> " when the call then returns.
 * Output is buffered; output_sync is called before the tracer blocks. */
#ifndef LTRACE_OUTPUT_H
#define LTRACE_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"

/* FD receives the trace.  ALIGN (-a): a call line is padded with spaces
 * to column ALIGN - 2 before " = ", as ltrace does; columns are display
 * width (UTF-8 text by wcwidth, so wide strings do not shift the column),
 * also for the part of the line already written.  TO_FILE: FD is a file
 * named by -o (see output_set_pid_prefix).  EAGER_FLUSH: write out at
 * every output_sync, for output shared with the tracee (a terminal, a
 * pipe, the tracee's own stdout/stderr). */
void output_init(int fd, int align, bool to_file, bool eager_flush);
/* ON (several tasks are traced: -f, several -p): every line starts with
 * the task's id, "[pid N] ", or "N " when TO_FILE. */
void output_set_pid_prefix(bool on);

/* Start the line of call ID of task PID: "name(" ARGS, left open. */
void output_call_entry(pid_t pid, unsigned long id, const char *name,
		       const char *args);
/* Finish call ID: on its open line if nothing intervened, else on a
 * "<... name resumed> " line; then MORE (the arguments shown at return),
 * preceded by ", " when ENTRY_HAD_ARGS and MORE is not empty, ")", the
 * padding, " = " and RET. */
void output_call_return(pid_t pid, unsigned long id, const char *name,
			bool entry_had_args, const char *more, const char *ret);
/* A whole line (signals, exit status, exec). */
void output_line(pid_t pid, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* One frame of a backtrace (-w): the object it is in (its soname), the
 * symbol (NULL when none is known) and the offset in it, the address;
 * FILE:LINE:COL of the source when debug information says (FILE NULL
 * when it does not, LINE and COL 0 when unknown).  The strings are
 * borrowed for the call. */
struct output_frame {
	const char *object;
	const char *symbol;
	uint64_t offset;
	uint64_t pc;
	const char *file;
	int line, col;
};
/* A frame of the backtrace that follows the return line of a call of
 * task PID, as ltrace writes it, without a prefix:
 * " > libc.so.6(__libc_start_main+0x8a) [0x7f...]", then
 * "\tFILE:LINE:COL" when the source is known. */
void output_frame(pid_t pid, const struct output_frame *f);
/* The end of task PID's backtrace: an empty line, as ltrace. */
void output_frames_end(pid_t pid);
/* Before the tracer blocks: write out if EAGER_FLUSH, or if much is
 * buffered. */
void output_sync(void);
/* Write out everything. */
void output_flush(void);

#endif
