/* The signals sent to the tracer: the termination signals (SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) that make it detach, and the
 * terminal's signals (Ctrl-C, Ctrl-\, Ctrl-Z), which belong to the
 * program the tracer started.  It owns the loop's wait for the next
 * report (DESIGN.md, "Signals"). */
#ifndef LTRACE_TERMSIG_H
#define LTRACE_TERMSIG_H

#include <stdbool.h>
#include <sys/types.h>

struct tracee_event;

/* Catch the signals, before the loop's first wait.  PROGRAM: the pid of
 * the program the tracer started when it traces nothing else (no -p),
 * whose terminal signals are its own; 0 if none. */
void termsig_init(pid_t program);
/* The next report (tracee_wait_intr; MANY: more than one task traced),
 * or -1 when the loop must end: a termination signal came, or no
 * tracee is left.  A SIGTSTP sent to the tracer alone stops it in
 * there, between two waits. */
pid_t termsig_wait(struct tracee_event *ev, bool many);
/* After the loop dispatched EV of TID: a task to interrupt in place of
 * one that ended; the tracer stops when the program stops after the
 * terminal's Ctrl-Z. */
void termsig_after(pid_t tid, const struct tracee_event *ev);
/* The termination signal that ends the loop (the tracer then detaches
 * and exits 128 + it), or 0. */
int termsig_caught(void);
/* The tracer drives thread TID alone from now on (fasttrap.c: a thread
 * run out of the recorder); TID 0: the drive is over.  A termination
 * signal that comes meanwhile interrupts TID (its stop ends a wait for
 * it), and termsig_drive_cut says so till the next drive. */
void termsig_drive(pid_t tid);
bool termsig_drive_cut(void);

#endif
