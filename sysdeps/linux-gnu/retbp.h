/* Return breakpoints and displaced runs: a breakpoint at the return
 * address of
 * every traced call (or at any instruction that must run on: the
 * rendezvous breakpoint), with a displacement (displace.h) for running the
 * instruction under it without lifting the breakpoint, and the counted
 * last resort of single-stepping an instruction in place. */
#ifndef LTRACE_RETBP_H
#define LTRACE_RETBP_H

#include <stdbool.h>
#include <stdint.h>

#include "forward.h"

struct arch_regs;

/* B is a new breakpoint (not inserted) on an instruction that must run
 * on after each hit: read the original instruction through M, prepare its
 * displaced run (mapping scratch memory if needed; T's registers are
 * REGS, which the caller sets back afterwards) and insert the
 * breakpoint. */
void retbp_arm(struct task *t, struct memsrc *m, const struct arch_regs *regs,
	       struct breakpoint *b);
/* Prepare the displaced run of B's instruction as retbp_arm does, for a
 * breakpoint that may be inserted already (its original bytes are read
 * through M, with our breakpoints undone); inserts nothing. */
void retbp_displace(struct task *t, struct memsrc *m,
		    const struct arch_regs *regs, struct breakpoint *b);
/* Make sure RET, in T's address space, has a return breakpoint: read the
 * original instruction through M, prepare its displaced run (mapping
 * scratch memory if needed; T's registers are REGS, which the caller
 * sets back afterwards) and insert the breakpoint.  If RET holds an entry
 * breakpoint (-x) instead, mark it as one that calls return to. */
void retbp_ensure(struct task *t, struct memsrc *m,
		  const struct arch_regs *regs, uint64_t ret);
/* A pending call that was to return to RET never did (a new call shows
 * it unwound, or tail-called from it): if RET's return breakpoint is no
 * longer in T's memory, read through M (the program mapped a page anew
 * over it, or wrote there), prepare and insert it again from the bytes
 * there now, and return true.  One read, made only when calls are found
 * unwound or tail-called. */
bool retbp_recheck(struct task *t, struct memsrc *m,
		   const struct arch_regs *regs, uint64_t ret);
/* T stopped at return breakpoint B, which no pending call of T's
 * process returns to (a call that returns through the --fast recorder,
 * code that jumps there): lift it, so that passing through costs
 * no stop; retbp_ensure puts it back for the next call that needs it.
 * The displacement stays, for T's own displaced run of this hit. */
void retbp_lift_unneeded(struct task *t, struct breakpoint *b);
/* T is stopped on breakpoint B, armed by retbp_arm, with registers REGS
 * (IP at B):
 * move it past B's instruction as its displacement says, and set its registers. */
void retbp_run_displaced(struct task *t, struct breakpoint *b,
			 struct arch_regs *regs);
/* T is stopped on breakpoint B (of any kind) with registers REGS: lift
 * B, single-step the original instruction, put B back. */
void retbp_step_in_place(struct task *t, struct breakpoint *b,
			 struct arch_regs *regs);
/* T is stopped with registers REGS on (or, from retbp_jump, about to
 * enter) B, the entry breakpoint of a function (-x): prepare its displaced
 * run at the first time (reading through M), then run B's instruction
 * displaced as retbp_run_displaced does, and set T's registers. */
void retbp_run_entry(struct task *t, struct memsrc *m, struct arch_regs *regs,
		     struct breakpoint *b);
/* Send T to TARGET, as a jump there (a call stub's, a call site's)
 * would: set its IP and its registers REGS.  If TARGET holds the entry
 * breakpoint of a function traced with -x, its first instruction runs
 * displaced instead (retbp_run_entry), so that the entry does not stop
 * again: the caller has shown the call already, once. */
void retbp_jump(struct task *t, struct memsrc *m, struct arch_regs *regs,
		uint64_t target);
/* Whether a thread can stand at the IP a trap at B leaves (B's address
 * + ARCH_DECR_PC_AFTER_BREAK) after running code, without having hit B,
 * so that only the stop's siginfo tells a hit (tracee_trapped) from a
 * SIGTRAP sent to it: past a displaced instruction
 * ARCH_DECR_PC_AFTER_BREAK bytes long (x86_64: one byte), whose copy
 * comes back there.  Where the IP stays on the breakpoint (aarch64), a
 * thread there that has not hit it yet is about to: taking the stop of
 * a SIGTRAP sent at that very moment for a hit runs nothing twice and
 * loses only that signal, where a GETSIGINFO at each stop would cost 11
 * tracer syscalls per call against the budget's 10 (measured in the
 * aarch64 VM). */
bool retbp_ip_ambiguous(const struct breakpoint *b);
/* Where a thread of P whose registers are R, with its IP in the scratch
 * copy of a displaced system call, is in the program's own code: the
 * breakpoint's address before the call, the next instruction's just
 * past it (where a thread in the call stops).  0 when the IP is not
 * there.  *AGAIN: the call is still to run, or to run again (the return
 * register holds a restart code: the kernel restarts it at the next
 * return to user mode unless a handler runs); a step from there runs
 * the call, which may block for ever. */
uint64_t retbp_syscall_home(struct process *p, const struct arch_regs *r,
			    bool *again);
/* Single steps done so far (the budget expects none). */
unsigned long retbp_singlesteps(void);

#endif
