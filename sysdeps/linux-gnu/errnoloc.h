/* A thread's errno, found as its own code finds it: libc's TLS variable
 * "errno" lies at the thread pointer plus an offset the loader wrote in
 * a GOT slot of libc's (ltrace/elfscan.h, errno_got).  Nothing is
 * guessed: without that slot, or before the loader filled it, errno is
 * not known. */
#ifndef LTRACE_ERRNOLOC_H
#define LTRACE_ERRNOLOC_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "forward.h"

/* The offset of errno from the thread pointer in P's threads, read
 * through M once libc is relocated and kept until an exec; false if not
 * known (yet). */
bool errnoloc_tpoff(struct process *p, struct memsrc *m, int64_t *off);

/* The errno of task T, whose registers at this stop are REGS, read
 * through M; false if it cannot be known. */
bool errnoloc_read(struct task *t, const struct arch_regs *regs,
		   struct memsrc *m, int *out);

#endif
