/* The trace writer.  It alone owns line structure: prefixes, the
 * alignment column, "<unfinished ...>" when another line interrupts an
 * open call line, and "<... name resumed> " when the call then returns.
 * Output is buffered; output_sync is called before the tracer blocks. */
#ifndef LTRACE_OUTPUT_H
#define LTRACE_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"

struct jsonout_call;

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

/* What shapes every line, from O: the prefixes in ltrace's order (the
 * pid, then -r or -t/-tt/-ttt, then -i, then -n's indentation), -T
 * after a return value, and -c (no lines at all: the calls go to
 * summary.h). */
void output_set_options(const struct options *o);

/* A stop was reported: read the clocks the options need, once (the
 * vDSO: no system call).  Every line and every duration of the stop uses
 * this reading.  Called by the backend right after waitpid returns. */
void output_clock(void);
/* CLOCK_MONOTONIC at the current stop, in nanoseconds; 0 when no option
 * needs the time. */
uint64_t output_now(void);
/* Whether some option needs the time (-t, -r, -T, -c, --format): else
 * the clocks are never read, and output_set_time need not be called. */
bool output_timed(void);
/* -i on the lines of this stop that are not calls: the address the task
 * stopped at; UINT64_MAX for none (an exit, shown as ltrace shows it). */
void output_set_ip(uint64_t ip);

/* The clocks as they were at MONO (CLOCK_MONOTONIC, ns), an instant
 * before the current one: for a call the --fast recorder time-stamped,
 * after output_clock. */
void output_set_time(uint64_t mono);

/* One traced call, as the writer needs it for its prefixes. */
struct output_call {
	pid_t tid;
	unsigned long id; /* identifies its entry line */
	uint64_t ret;	  /* its return address (-i) */
	size_t depth;	  /* pending calls below it in its task (-n) */
	uint64_t t_entry; /* output_now() at its entry stop (-T) */
};

/* Start the line of call C: "name(" ARGS, left open. */
void output_call_entry(const struct output_call *c, const char *name,
		       const char *args);
/* Finish call C: on its open line if nothing intervened, else on a
 * "<... name resumed> " line; then MORE (the arguments shown at return),
 * preceded by ", " when ENTRY_HAD_ARGS and MORE is not empty, ")", the
 * padding, " = " and RET; with -T, " <seconds>" since its entry. */
void output_call_return(const struct output_call *c, const char *name,
			bool entry_had_args, const char *more, const char *ret);
/* --format=json or chrome: call C, whole, once it returned or was found
 * never to return (jsonout.h). */
void output_call_done(const struct jsonout_call *c);
/* A whole line of task PID; with --format, an event "line" with the
 * text. */
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
/* Task TID of process PID got signal SIG: "--- SIGUSR1 (User defined
 * signal 1) ---", or a "signal" event. */
void output_signal(pid_t pid, pid_t tid, int sig);
/* It exited with STATUS: "+++ exited (status 0) +++", or "exit". */
void output_exited(pid_t pid, pid_t tid, int status);
/* Signal SIG killed it: "+++ killed by SIGSEGV +++", or "killed". */
void output_killed(pid_t pid, pid_t tid, int sig);
/* It called exec: "--- Called exec() ---", or "exec". */
void output_exec(pid_t pid, pid_t tid);
/* Before the tracer blocks: write out if EAGER_FLUSH, or if much is
 * buffered. */
void output_sync(void);
/* Write out everything. */
void output_flush(void);
/* The tracer is done (every tracee gone, or detached after a termination
 * signal): with -c, write the summary table (summary.h); then write out
 * everything. */
void output_finish(void);

#endif
