/* --fast: the other threads of a process stopped while a -x function's
 * entry is patched (fastentry.c; DESIGN.md, "Fast mode"). */
#ifndef LTRACE_FASTWORLD_H
#define LTRACE_FASTWORLD_H

#include <stdbool.h>

#include "forward.h"

struct breakpoint;

/* Stop every thread of P (the process whose memory it is) but SELF,
 * stopped at B's entry, for B's patch: one with a report waiting keeps
 * it; the others are interrupted (PTRACE_INTERRUPT) and their reports
 * (the interrupt's stop, or whatever stop came first) taken, all to be
 * handed to the loop next, which resumes each as at any such stop (a
 * group-stop listens again, a syscall restarts).  NULL when every one
 * stopped and none can run half of the patch; else why not now (a
 * thread did not stop in time, one is inside the bytes the patch
 * replaces or in B's displaced copy, which goes back into them). */
const char *fastworld_stop(const struct task *self, const struct process *p,
			   const struct breakpoint *b);
/* Whether the entry of B may be tried again now (after a failed
 * fastworld_stop, the entries let pass double each time); false for
 * good after too many tries. */
bool fastworld_may_try(struct breakpoint *b);
/* Note a failed try at B's patch. */
void fastworld_failed(struct breakpoint *b);

#endif
