/* Taking in what a traced task brings: a new thread, a vfork or fork
 * child (followed with -f, let go without), and a new program after an
 * exec. */
#ifndef LTRACE_ADOPT_H
#define LTRACE_ADOPT_H

#include <sys/types.h>

#include "forward.h"
#include "tracee.h"

/* PARENT is stopped at the event HOW (TRACEE_CLONE, TRACEE_FORK or
 * TRACEE_VFORK): take the new task in, or let it go, and resume it if it
 * has stopped already.  The caller resumes PARENT. */
void adopt_child(struct task *parent, enum tracee_event_kind how,
		 const struct options *o);
/* T is stopped at TRACEE_EXEC: forget the old program, print the exec
 * line, set up the new program and resume T; or let T go if it is a vfork
 * child that is not followed. */
void adopt_exec(struct task *t, const struct options *o);
/* A fork child PID that is not followed, stopped, with PARENT's
 * breakpoints in its copy of the address space: take them out and let
 * it go. */
void adopt_release_fork_child(pid_t pid, struct process *parent);

#endif
