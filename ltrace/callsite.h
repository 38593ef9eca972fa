/* The machine state of one traced call, as the ABI fetch code sees it.
 * Filled by the core at the entry stop and again at the return stop.  The
 * register blocks are the architecture's own (sysdeps/linux-gnu/ARCH/
 * arch.h: struct arch_regs and struct arch_fpregs); only its fetch.c
 * looks inside them. */
#ifndef LTRACE_CALLSITE_H
#define LTRACE_CALLSITE_H

#include <stdint.h>

#include <stdbool.h>

#include "forward.h"

struct callsite {
	struct memsrc *mem;
	/* General purpose registers; never NULL. */
	const void *regs;
	/* Floating point registers, fetched lazily: returns NULL if they
	 * cannot be read.  The backend's implementation reads them once
	 * per stop at most, and only when called. */
	const void *(*fpregs)(struct callsite *cs);
	/* True at the entry stop (registers as at the first instruction of
	 * the callee); false at the return stop (registers as just after
	 * the callee returned). */
	bool at_entry;
	/* At the return stop of a system call that failed (-S): its error
	 * number, shown after the value as "ENOENT (No such file or
	 * directory)"; else 0. */
	int error;
	/* What the GOT slot of the call's stub held at its entry, when the
	 * backend knows it without reading memory (--fast's records); 0:
	 * read it through MEM. */
	uint64_t target;
	/* The thread's errno at this stop into *OUT: false when it cannot
	 * be known (no libc that defines it, unreadable).  NULL: never
	 * known.  Read at most once per stop, and only when called. */
	bool (*thread_errno)(struct callsite *cs, int *out);
	/* The thread that made the call: /proc/TID/fd names its
	 * descriptors (-y, lenses/fd.c); 0 if unknown. */
	int tid;
};

#endif
