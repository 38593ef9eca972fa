/* --format=json (JSON Lines) and --format=chrome (the Trace Event
 * Format): the events of the trace as JSON, appended to a buffer that
 * the trace writer (output.c) owns and writes.  Nothing is kept between
 * events but the clock origin and whether an event was written, so the
 * tracer's memory does not grow with the trace.
 *
 * Times come in as CLOCK_MONOTONIC nanoseconds of the stops.  JSON
 * Lines shows "timestamp" in microseconds since the Epoch (the wall
 * clock at jsonout_begin plus the monotonic time since) and "duration"
 * in microseconds; chrome shows "ts" and "dur" in microseconds since
 * jsonout_begin, as its viewers expect. */
#ifndef LTRACE_JSONOUT_H
#define LTRACE_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"
#include "options.h"

/* One traced call, whole (it returned, or never will). */
struct jsonout_call {
	pid_t pid, tid;
	uint64_t start, end;  /* the entry stop; the return stop, or when
				the call was found never to return */
	const char *caller;   /* the object it was called from, or NULL */
	const char *library;  /* the object of the function, or NULL */
	const char *function; /* the name "<... name resumed>" shows */
	/* The arguments as the text trace shows them: argument I is
	 * ARGS[SPANS[2I], SPANS[2I + 1]) */
	const char *args;
	const size_t *spans;
	size_t nargs;
	const char *ret; /* the return value's text; NULL: never returned */
	/* A system call that failed: its errno (0 for none) and the
	 * errno's name ("ENOENT"), or NULL */
	int error;
	const char *errname;
};

/* A line that is not a call: a signal, an exit, an exec. */
struct jsonout_event {
	pid_t pid, tid;
	uint64_t when;
	const char *event; /* "signal", "exit", "killed", "exec", "line" */
	const char *key;   /* a string field ("signal", "text"), or NULL */
	const char *value;
	bool has_status; /* "exit": STATUS, the exit status */
	int status;
};

/* Start the trace in format F (FORMAT_JSON or FORMAT_CHROME) at the
 * monotonic time MONO, the wall clock then being WALL (both ns). */
void jsonout_begin(struct strbuf *out, enum output_format f, uint64_t mono,
		   uint64_t wall);
void jsonout_call(struct strbuf *out, const struct jsonout_call *c);
void jsonout_event(struct strbuf *out, const struct jsonout_event *e);
/* End the trace: chrome's closing "]}", so that the file is valid JSON
 * whenever the tracer ends (SIGINT included). */
void jsonout_end(struct strbuf *out);

#endif
