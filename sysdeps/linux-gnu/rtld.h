/* Following the dynamic linker's rendezvous (r_debug, r_brk): the
 * libraries of a process as they come and go, each with its stub
 * breakpoints from before its first call until its dlclose. */
#ifndef LTRACE_RTLD_H
#define LTRACE_RTLD_H

#include "forward.h"

struct arch_regs;

/* T's process has just exec'd (one thread; bptmem_setup has read its
 * program): find its dynamic linker and put the rendezvous breakpoint on
 * its r_brk.  Nothing for a static program; a dynamic linker without
 * the rendezvous is reported.  T's registers are left as they were. */
void rtld_setup_exec(struct task *t);
/* T's process has just been attached (every thread stopped; bptmem_setup
 * has read its program): find r_debug through the program's DT_DEBUG,
 * read the objects loaded so far (placing their breakpoints), and put
 * the rendezvous breakpoint on r_brk. */
void rtld_setup_attach(struct task *t);
/* T is stopped on the rendezvous breakpoint B with registers REGS (IP at
 * B), memory read through M: if the objects are consistent, bring P's
 * list up to date with r_map; then move T past B's instruction and set
 * its registers. */
void rtld_hit(struct task *t, struct breakpoint *b, struct arch_regs *regs,
	      struct memsrc *m);

#endif
