/* Entry breakpoints (-x): a breakpoint on the first instruction of each
 * function that -x selects in an object (its .symtab and .dynsym, local
 * functions included), one per address, named by the best of the
 * selected symbols there.  A call stops there with the registers as at
 * a call stub (the return address at the return slot), and its first
 * instruction runs displaced (retbp_run_entry).
 *
 * IFUNC: the breakpoint on an STT_GNU_IFUNC symbol sits on its resolver
 * and shows "name.IFUNC() = <implementation>"; when a resolver returns,
 * an entry breakpoint labelled as the symbol goes on the implementation
 * it chose.  A resolver that ran before its breakpoint was placed (the
 * dynamic linker relocates the libraries before it reports them; an
 * attached process has run them all) is not called again: its choice
 * is read where the dynamic linker stored it (entry_find_impls).
 *
 * The functions are read only with -x, once per object, when it is
 * added; breakpoints go with their object (image_remove). */
#ifndef LTRACE_ENTRY_H
#define LTRACE_ENTRY_H

#include <stdbool.h>
#include <stdint.h>

#include "forward.h"

/* Add to P's table an entry breakpoint, not inserted, on each function
 * of L that O's -x expressions select (none without -x, and none where
 * P has a breakpoint already), and call ADD(B, CTX) for each, in
 * increasing address order: the caller inserts them.  Notes L's
 * executable span (entry_return_ok).  An unreadable file adds nothing. */
void entry_select(struct process *p, struct library *l, const struct options *o,
		  void (*add)(struct breakpoint *b, void *ctx), void *ctx);

/* P's objects are relocated (the dynamic linker has reported them, or P
 * was attached): for each IFUNC resolver breakpoint, the implementation
 * its resolver already chose, read through M from its IRELATIVE slot or
 * from a resolved GOT slot of its name in another object, gets an entry
 * breakpoint, unless it has one. */
void entry_find_impls(struct process *p, struct memsrc *m);

/* The IFUNC resolver of breakpoint R returned IMPL in P: put an entry
 * breakpoint on IMPL, labelled as R's symbol, unless IMPL has a
 * breakpoint or lies in no object's code. */
void entry_ifunc_returned(struct process *p, const struct breakpoint *r,
			  uint64_t impl);

/* Whether RET, found at an entry breakpoint (arch_return_addr), can be the
 * return address of a call: it follows a call instruction (read through
 * M, our breakpoints undone) in executable code: the code of a known object,
 * or an executable mapping outside every object.  A function entered
 * otherwise (a jump from the dynamic linker's lazy-binding trampoline,
 * a program's _start) is not traced, and no return breakpoint is
 * written where no call returns. */
bool entry_return_ok(struct process *p, struct memsrc *m, uint64_t ret);

#endif
