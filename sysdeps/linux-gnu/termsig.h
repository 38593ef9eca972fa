/* The termination signals sent to the tracer (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGPIPE), which make it detach.  It owns the loop's wait for
 * the next report (DESIGN.md, "Signals"). */
#ifndef LTRACE_TERMSIG_H
#define LTRACE_TERMSIG_H

#include <sys/types.h>

struct tracee_event;

/* Catch the signals, before the loop's first wait. */
void termsig_init(void);
/* The next report (tracee_wait_intr), or -1 when the loop must end: a
 * termination signal came, or no tracee is left. */
pid_t termsig_wait(struct tracee_event *ev);
/* After the loop dispatched EV of TID: a task to interrupt in place of
 * one that ended. */
void termsig_after(pid_t tid, const struct tracee_event *ev);
/* The termination signal that ends the loop (the tracer then detaches
 * and exits 128 + it), or 0. */
int termsig_caught(void);

#endif
