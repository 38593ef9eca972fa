/* Command-line options, parsed once (options_parse) and passed around as
 * const struct options *. */
#ifndef LTRACE_OPTIONS_H
#define LTRACE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "forward.h"

/* --format: ltrace's text, JSON Lines, or Chrome's Trace Event Format. */
enum output_format {
	FORMAT_TEXT,
	FORMAT_JSON,
	FORMAT_CHROME,
};

struct options {
	size_t strlen;	    /* -s, default 32 */
	size_t arraylen;    /* -A, default 4 */
	int align;	    /* -a, default 50 (or 5/8 of the terminal) */
	const char *output; /* -o FILE, or NULL for stderr */
	char **confs;	    /* -F entries in order (colon lists split) */
	size_t nconfs;
	bool follow;	 /* -f */
	bool no_signals; /* -b */
	int *pids;	 /* -p PID, repeatable */
	size_t npids;
	const char *user; /* -u USER */
	char **argv;	  /* the command and its arguments */
	/* What to trace, compiled filters (filter.h) in the order given;
	 * the tracer reads them only through select.h. */
	struct filter **exprs; /* -e, OR-ed */
	size_t nexprs;
	struct filter **libs; /* -l, OR-ed */
	size_t nlibs;
	struct filter **entries; /* -x, OR-ed */
	size_t nentries;
	bool no_main;  /* -L: no default -e @MAIN */
	bool demangle; /* -C: C++ names demangled, in matching and output */
	bool syscalls; /* -S: system calls too, as "name@SYS" */

	/* -w N: frames of the stack shown after each return, 0 none */
	unsigned where;
	/* Timing and line prefixes (ltrace(1); DESIGN.md, "Output") */
	int time_mode;	 /* -t 1, -tt 2, -ttt 3, else 0 */
	bool relative;	 /* -r: time since the previous line */
	bool time_spent; /* -T: " <s.us>" after the return value */
	bool show_ip;	 /* -i: "[0x...]", the call's return address */
	int indent;	 /* -n: spaces per nesting level, 0..20 */
	bool summary;	 /* -c: a table of counts and times at exit */
	unsigned debug;	 /* -D: DEBUG_* bits (debug.h) */
	enum output_format format; /* --format */
	bool fast; /* --fast: calls recorded in the process (fast.h) */
	/* -y, -yy, --decode-fds: what fd and file values show besides
	 * their number (FDPATH_* bits, fdpath.h) */
	unsigned decode_fds;
};

/* Parse ARGC/ARGV into O.  Prints usage and exits on -h, the version on
 * -V, and a one-line error (exit 1) on bad input, a bad filter
 * expression included ("ltrace: -e 'foo[': unmatched '['"), before
 * anything is started. */
void options_parse(struct options *o, int argc, char **argv);
/* Release what O holds (the filters, the -F and -p lists). */
void options_destroy(struct options *o);

#endif
