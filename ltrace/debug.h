/* The tracer's own debug output (-D MASK, octal as ltrace's): what it
 * does, written to stderr with the prefix "ltrace: debug: ", never into
 * the trace.  debug_init sets the mask once, from main; it is asked only
 * at rare places (breakpoint placement, rendezvous, wait reports), never
 * on the per-call path unless -D 10 asks for every event. */
#ifndef LTRACE_DEBUG_H
#define LTRACE_DEBUG_H

#include <stdbool.h>
#include <stdio.h>

enum debug_bit {
	DEBUG_GENERAL = 01,	 /* start-up and end: what is traced, how */
	DEBUG_EVENTS = 010,	 /* every report waitpid returns, decoded */
	DEBUG_BREAKPOINTS = 020, /* breakpoints placed and removed */
	DEBUG_LIBRARIES = 040,	 /* objects added and removed (dlopen) */
	DEBUG_ALL = 077,
};

void debug_init(unsigned mask);
/* Whether BIT was asked for. */
bool debug_on(enum debug_bit bit);
/* One line to stderr when BIT was asked for: "ltrace: debug: " and the
 * text; one write. */
void debug_msg(enum debug_bit bit, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* -Dh: the bits, to F. */
void debug_usage(FILE *f);

#endif
