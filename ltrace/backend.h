/* The contract between the generic core (ltrace/main.c) and the system
 * backend (sysdeps/linux-gnu). */
#ifndef LTRACE_BACKEND_H
#define LTRACE_BACKEND_H

#include <sys/types.h>

#include "forward.h"

/* Check that PATH can be traced: an executable regular file, an ELF for
 * this architecture.  Prints one message and returns -1 if not. */
int backend_check_program(const char *path);

/* Before anything else. */
void backend_init(const struct options *o, struct protoset *ps);

/* Start ARGV[0] (already resolved to PATH) traced, and run it into its
 * exec: returns its pid.  Dies after printing why if it cannot be
 * started; exits with its status if it ends before the exec (it prints
 * why it could not exec itself). */
int backend_launch(const struct options *o, const char *path, char **argv);

/* Attach to every thread of process PID (-p): returns 0, or -1 after
 * printing why not (no such process, already traced, ptrace denied). */
int backend_attach(pid_t pid);

/* Run the event loop until every tracee is gone, or until the tracer gets
 * SIGINT, SIGTERM, SIGHUP, SIGQUIT or SIGPIPE, then detach cleanly.
 * Returns the exit status for the tracer: the started program's own
 * (128+N if it was killed by signal N), 0 when only attached processes
 * were traced, 128+N when signal N made the tracer detach. */
int backend_run(void);

/* Release what is traced (its memory restored, then detached): for
 * error_msg_and_die, and when setting up failed. */
void backend_cleanup(void);

#endif
