/* --fast (DESIGN.md, "The recorder"): calls recorded inside the traced
 * process.  A function's first call goes through its stub breakpoint as
 * in ptrace mode; at a later one, once its GOT slot holds where the call
 * really goes, the slot is pointed at the function's trampoline in the
 * recorder, the stub's breakpoint lifted, and its calls no longer stop the
 * program.  The ring is drained before every stop is handled, by a
 * thread of the tracer between stops, and when the recorder traps.
 * Implemented by fast.c and the files fastrec.h lists, one concern
 * each. */
#ifndef LTRACE_FAST_H
#define LTRACE_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"

struct arch_regs;

/* Before anything is started: whether --fast is on (false also when
 * the options ask for what it cannot do; it then said so). */
bool fast_init(const struct options *o);

/* The stub breakpoint B (BPT_STUB, prototype looked up) was hit by T,
 * its registers REGS, its GOT slot holding TARGET.  True when B's calls
 * are the recorder's from now on, this one included: T's registers
 * were written to enter the trampoline, and the caller only resumes it.
 * False: this call goes on through the breakpoint. */
bool fast_take(struct task *t, struct breakpoint *b, struct arch_regs *regs,
	       uint64_t target);
/* The entry breakpoint B (-x) was hit by T, its registers REGS, at a
 * call the loop would show: true when its calls are the recorder's from
 * now on (fastentry.c), this one included (T's registers were written
 * to enter its cell).  False: it keeps its breakpoint. */
bool fast_take_entry(struct task *t, struct breakpoint *b,
		     struct arch_regs *regs);
/* Whether the entry ADDR of P, its return address RET, is a tail call
 * out of a function the recorder has (fastentry.c), which only the
 * recorder can show: RET is its hook of a recorded call's return, and
 * no stub handed over goes on at ADDR (the stub's call, shown
 * already, reaching the entry: XXX a tail call to a function called
 * through such a stub too is not shown). */
bool fast_tail_entry(const struct process *p, uint64_t ret, uint64_t addr);

/* With --fast: whether the call of stub B that T makes, its GOT slot
 * holding TARGET, goes through the slot's lazy binding (TARGET is in
 * the stub's own object); false for a B handed over already or never
 * to be.  The loop marks such a call's frame (frame.binding): B is not
 * handed over while one is pending. */
bool fast_binding(const struct task *t, const struct breakpoint *b,
		  uint64_t target);

/* L was added to P: with --fast, when L is the unwinder (libgcc_s),
 * a new entry breakpoint, not inserted, on each of its functions that
 * walk the stack by return addresses (_Unwind_RaiseException and the
 * like), passed to ADD(B, CTX) in increasing address order: the caller
 * inserts them.  A hooked return address would stop the unwinder, and a
 * C++ exception through a recorded call would end the program. */
void fast_select(struct process *p, struct library *l,
		 void (*add)(struct breakpoint *b, void *ctx), void *ctx);

/* T stopped at one of fast_select's breakpoints with registers REGS,
 * memory read through M: its shadow stack is undone (the return
 * addresses it hooked put back), and its recorded pending calls get
 * return breakpoints, as in ptrace mode.  The caller then runs the
 * breakpoint's instruction displaced. */
void fast_unwinding(struct task *t, struct memsrc *m,
		    const struct arch_regs *regs);

/* T is in a signal-delivery stop of SIG: true when that was a fault of
 * a recorder's direct copy, which the tracer fixed (T's IP moved to the
 * copy's way out, the copy short); T must then be resumed without the
 * signal, which is not the program's.  The faulting page is kept out of
 * the recorder's readable ranges from then on. */
bool fast_fault(struct task *t, int sig);

/* T, a thread found at attach, is stopped: with --fast, learn its TLS
 * pointer (one GETREGS), which names its records. */
void fast_stopped(struct task *t);

/* T, stopped at PTRACE_EVENT_CLONE, made the thread CHILD: remember
 * the TLS pointer it gave it, which names the child's records (the
 * child may never stop). */
void fast_clone(struct task *t, pid_t child);

/* Show the calls recorded by every traced process so far. */
void fast_drain_all(void);

/* Before the stop of thread TID is handled, after fast_drain_all: if
 * the drain of its process stopped at a record another thread is still
 * writing, wait (up to 10 ms) for it, since TID's own records may sit
 * behind it and must be shown before its stop (a stub stop of TID would
 * otherwise take TID's pending call, whose return is in the ring, for
 * unwound).  Not when TID itself is inside the recorder, nor with -S
 * (the recorder's copies stop at syscall-stops there).  True when other
 * threads' reports were taken, with that record unwritten (a writer
 * stopped inside its reservation, by a signal say): the caller handles
 * those first (tracee_defer), since the writer commits only once the
 * loop resumes it.  With MAY_DEFER, at once when one is found, with no
 * wait: a stop per signal then costs no sleep. */
bool fast_settle(pid_t tid, bool may_defer);

/* Whether IP of T's process is in the recorder's code: its system calls
 * (the copies) are not the program's, and -S does not show them. */
bool fast_owns_ip(const struct task *t, uint64_t ip);

/* A SIGTRAP of T with its registers REGS (its memory through M): whether
 * it came from one of the recorder's traps (handled: the caller resumes
 * T), or from the trap of a stub lifted for the recorder (T's IP put
 * back on the stub). */
bool fast_trap(struct task *t, struct memsrc *m, struct arch_regs *regs);

/* T stopped with registers REGS: remember which thread its TLS pointer
 * names in the records. */
void fast_learn(struct task *t, const struct arch_regs *regs);

/* T is about to exit (PTRACE_EVENT_EXIT): its records shown, its shadow
 * stack freed for another thread. */
void fast_exit(struct task *t);

/* CHILD, a followed fork of PARENT stopped at its first stop, has a copy
 * of the parent's recorder: make it the child's own. */
void fast_fork(struct process *child, const struct process *parent);

/* A fork child of PARENT about to be let go (PROCMEM its memory): its GOT
 * slots back to the functions, its ring emptied for the returns already
 * hooked. */
void fast_release_child(int procmem, pid_t pid, const struct process *parent);

/* Every task of P is stopped and about to be detached: drain, restore
 * the GOT slots and the hooked return addresses, step threads out of
 * the recorder. */
void fast_detach(struct process *p);

/* T, stopped with registers R in the recorder's code, is run out of it
 * (to a trap put for the time on each way out; by single steps if
 * those cannot be written), the blob's traps it meets handled as
 * fast_trap does (M, the memory for return breakpoints, or NULL when
 * detaching).  R follows.  False if T is still inside: it ended, or
 * the steps ran out. */
bool fast_leave(struct task *t, struct memsrc *m, struct arch_regs *r);

/* Whether T stopped with the trap of one of the recorder's traps (its
 * own, or one fast_leave put on a way out): the detach keeps no SIGTRAP
 * for it, and fast_leave handles it. */
bool fast_trap_stop(struct task *t);

/* Signal SIG is about to be delivered to T, stopped with registers REGS
 * (which follow): if a handler of the program's will run, a thread in
 * the recorder's code is stepped out of it first, so that
 * no signal frame ever returns into the recorder; the tracer may have
 * detached and unmapped it, or freed the thread's shadow stack, by then.
 * If it cannot leave, the region is kept mapped at the detach. */
void fast_signal(struct task *t, int sig, struct arch_regs *regs);

/* After fast_detach and the restoring of P's bytes, T a stopped thread
 * of P with registers SAVED (set back by the caller): unmap the region,
 * unless a signal was delivered to a thread running in it.  If the
 * program may have read a function's address while its slot held the
 * trampoline, the trampolines forward to the functions and stay mapped
 * (with the blob and the function table). */
void fast_unmap(struct task *t, const struct arch_regs *saved);

/* The drainer thread and the lock it shares with the event loop, which
 * holds it except while it waits. */
void fast_start(void);
void fast_stop(void);
void fast_lock(void);
void fast_unlock(void);

#endif
