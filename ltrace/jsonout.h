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
 * jsonout_begin, as its viewers expect.
 *
 * The values of a call (arguments, return value) come as JSON already,
 * written by the lenses (lenses/lens.h, fmt_ctx.json).  The schema, its
 * version JSONOUT_VERSION, is in ltrace(1), --format. */
#ifndef LTRACE_JSONOUT_H
#define LTRACE_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"
#include "options.h"

/* The schema's version, in the first line ("trace" event) of JSON
 * Lines and in chrome's "otherData": 1 had values as ltrace's text in
 * strings, 2 has them typed. */
#define JSONOUT_VERSION 2

struct output_frame;

/* One traced call, whole (it returned, or never will). */
struct jsonout_call {
	pid_t pid, tid;
	uint64_t start, end;  /* the entry stop; the return stop, or when
				the call was found never to return */
	const char *caller;   /* the object it was called from, or NULL */
	const char *library;  /* the object of the function, or NULL */
	const char *function; /* the name "<... name resumed>" shows */
	/* The arguments, each a JSON value: argument I is
	 * ARGS[SPANS[2I], SPANS[2I + 1]) */
	const char *args;
	const size_t *spans;
	size_t nargs;
	const char *ret; /* the return value, JSON; NULL: never returned */
	/* A call that failed (a system call, or a library call whose
	 * prototype's errno clause says so): its errno (0 for none) and
	 * the errno's name ("ENOENT"), or NULL */
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
/* Call C; FRAMES: its backtrace follows (jsonout_frame), the object is
 * left open until jsonout_frames_end or the next event. */
void jsonout_call(struct strbuf *out, const struct jsonout_call *c,
		  bool frames);
/* A frame of the backtrace of the call just written (if left open):
 * into its "backtrace" array. */
void jsonout_frame(struct strbuf *out, const struct output_frame *f);
/* The call's backtrace is complete: close its object. */
void jsonout_frames_end(struct strbuf *out);
void jsonout_event(struct strbuf *out, const struct jsonout_event *e);
/* End the trace: chrome's closing "]}", so that the file is valid JSON
 * whenever the tracer ends (SIGINT included). */
void jsonout_end(struct strbuf *out);

#endif
