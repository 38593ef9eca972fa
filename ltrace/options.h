/* Command-line options, parsed once (options_parse) and passed around as
 * const struct options *. */
#ifndef LTRACE_OPTIONS_H
#define LTRACE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

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
};

/* Parse ARGC/ARGV into O.  Prints usage and exits on -h, the version on
 * -V, and a one-line error (exit 1) on bad input. */
void options_parse(struct options *o, int argc, char **argv);
void options_destroy(struct options *o);

#endif
