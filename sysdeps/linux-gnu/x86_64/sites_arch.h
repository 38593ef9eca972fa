/* x86_64: emulating a call site found by plt_arch_scan_sites (a call or
 * jump through a GOT slot, no stub) at its entry breakpoint.  Pure
 * register arithmetic: the caller reads the slot and writes the pushed
 * return address through the memory layer.  To be folded into arch.h. */
#ifndef LTRACE_SITES_ARCH_H
#define LTRACE_SITES_ARCH_H

#include "arch.h"
#include "../plt_arch.h"

#include <stdbool.h>
#include <stdint.h>

/* What the instruction at a site pushes, if anything. */
struct arch_site_push {
	uint64_t addr;	/* the stack slot to write VALUE to */
	uint64_t value; /* the return address: the instruction after */
};

/* Leave REGS as the site's instruction would: at the site SITE (of LEN
 * bytes, KIND), whose slot holds TARGET, the IP is TARGET; a call also
 * pushes SITE + LEN as `call` does (RSP -= 8, [RSP] = SITE + LEN).
 * Returns true, with PUSH filled, when the caller must write
 * PUSH->value at PUSH->addr before the task resumes; false for a jump,
 * which leaves RSP and the caller's return address where they are.
 * The IP the breakpoint left (SITE + 1) is not read.  Afterwards the
 * registers are those of a function's first instruction, as at a PLT
 * stub: arch_return_slot() and arch_sp_after_return() hold. */
static inline bool arch_emulate_site(struct arch_regs *regs, uint64_t site,
				     unsigned len, enum plt_site_kind kind,
				     uint64_t target,
				     struct arch_site_push *push)
{
	arch_set_ip(regs, target);
	if (kind != PLT_SITE_CALL)
		return false;
	push->addr = arch_push_return(regs);
	push->value = site + len;
	return true;
}

#endif
