/* The contract between the generic core (ltrace/main.c) and the system
 * backend (sysdeps/linux-gnu). */
#ifndef LTRACE_BACKEND_H
#define LTRACE_BACKEND_H

#include "forward.h"

/* Check that PATH can be traced: an executable regular file, an ELF for
 * this architecture.  Prints one message and returns -1 if not. */
int backend_check_program(const char *path);

/* Start ARGV[0] (already resolved to PATH) stopped and traced: returns
 * its pid, or -1 after printing why not. */
int backend_launch(const struct options *o, const char *path, char **argv);

/* Run the event loop until every tracee is gone; returns the exit status
 * for the tracer: the traced program's own, 128+N if killed by signal N. */
int backend_run(const struct options *o, struct protoset *ps);

/* Kill or release what is traced: for error_msg_and_die. */
void backend_cleanup(void);

#endif
