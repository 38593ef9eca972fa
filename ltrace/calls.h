/* What happens at a traced call and its return, independent of how the
 * tracee was stopped: pending-call bookkeeping, formatting and output. */
#ifndef LTRACE_CALLS_H
#define LTRACE_CALLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "forward.h"

void calls_init(const struct options *o);

/* Task T entered the function of PLT breakpoint B, which will return to
 * address RET with the stack pointer at RET_SP (both computed by the
 * backend, which knows the ABI).  PRINT: show the call (false for a
 * silent process). */
void call_entry(struct task *t, const struct breakpoint *b, struct callsite *cs,
		uint64_t ret, uint64_t ret_sp, bool print);

/* The task's pending call at frame index I returned (frames above it
 * never will).  Formats and prints the return, pops the frames.  Returns
 * whether a return line was written (what a backtrace follows, -w). */
bool call_return(struct task *t, size_t i, struct callsite *cs, bool print);

/* call_return for T's pending call I, then for each call that
 * tail-called it (call_tail_caller), innermost first. */
void call_return_tail(struct task *t, size_t i, struct callsite *cs,
		      bool print);

/* T's pending calls from frame index I up will never return (an exit,
 * an exec, an unwinding): with --format each is shown whole, without a
 * return value; then they are popped. */
void call_abandon(struct task *t, size_t i);

/* CHILD was forked by PARENT inside its pending calls: give it copies of
 * them (returns in the child print as "<... name resumed>"), with their
 * breakpoints looked up in BPTS, the child's table. */
void call_inherit(struct task *child, const struct task *parent,
		  const struct bpt_table *bpts);

/* The index of T's first pending call that a new call returning with
 * the stack pointer at RET_SP shows to be unwound (call_entry drops it
 * and those above it, unless call_tail); T's number of pending calls if
 * none. */
size_t call_unwound(const struct task *t, uint64_t ret_sp);

/* Whether a new call of T that returns to RET with the stack pointer at
 * RET_SP is a tail call of T's innermost pending call (it returns where
 * that one does): both stay pending, and both return at its return. */
bool call_tail(const struct task *t, uint64_t ret, uint64_t ret_sp);

/* The index of T's innermost pending call that returns to RET with the
 * stack pointer now at SP (its RET_SP), or -1. */
long call_match(const struct task *t, uint64_t ret, uint64_t sp);

/* T's pending call I, returning to RET with the stack pointer at SP,
 * has been shown returned (call_return popped it): the index of the
 * call that tail-called it (it returns there too, and is shown next),
 * or -1. */
long call_tail_caller(const struct task *t, size_t i, uint64_t ret,
		      uint64_t sp);

/* The code in [LO, HI) is gone (a dlclose): forget T's pending calls
 * that would return there or entered through a stub there (neither can
 * return; their breakpoints are being freed).  Calls made inside them
 * stay pending. */
void call_forget_range(struct task *t, uint64_t lo, uint64_t hi);

#endif
