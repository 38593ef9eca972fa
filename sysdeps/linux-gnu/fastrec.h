/* --fast, the tracer's side of the recorder: what its files share
 * (DESIGN.md, "Fast mode").  Included by the fast*.c files only; the
 * rest of the backend knows them through fast.h.  The files, each
 * calling only those below it:
 *
 *	fast.c		--fast turned on; a function handed over (the
 *			process's region mapped at the first)
 *	fastdetach.c	the hooks undone: a thread's exit, a fork, a C++
 *			unwinder, the detach (the shadow stacks)
 *	fasttrap.c	the recorder's traps; leaving its code; a recorder
 *			the program unmapped given up
 *	fastdrain.c	the rings drained; the drainer thread
 *	fastshow.c	the records shown: as calls and returns, at the
 *			times their time stamps map to
 *	fastpoison.c	a ring given up: its process back in ptrace mode,
 *			the records lost counted
 *	fastrec.c	the state below: a process's recorder, its memory,
 *			its threads, its readable ranges
 *
 * Two threads of the tracer run this code: the event loop's and the
 * drainer (fastdrain.c).  The loop holds the mutex of fast_lock except
 * while it waits for a stop; the drainer takes it for each of its
 * drains.  So every file-scope variable of the fast*.c files, every
 * struct fastrec, and what a drain reaches in the rest of the tracer
 * (tasks, frames, the output) is touched under that lock alone.  The
 * one exception is drainer_stop, an atomic word that fast_stop sets to
 * end the drainer's futex sleep.
 */
#ifndef LTRACE_FASTREC_H
#define LTRACE_FASTREC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"
#include "recorder/reclayout.h"

struct arch_regs;
struct rec_hdr;
struct iovec;
struct fetch_plan;

/* The region's shape: functions handed over, bytes of plans, threads
 * with hooked returns at once and hooked calls each, ring bytes. */
#define FAST_NFUNC 1024
#define FAST_PLAN_BYTES (256u << 10)
#define FAST_NSHADOW 64
#define FAST_DEPTH 512
#define FAST_RING (256u << 10)
/* The ring under big limits (fast.c, ring_bytes): -s or -A at least
 * these. */
#define FAST_RING_BIG (4u << 20)
#define FAST_BIG_STRLEN 4096
#define FAST_BIG_ARRAYLEN 256
/* Threads whose TLS pointer is known, per process. */
#define FAST_THREADS 256
/* Pages where a direct copy faulted, kept out of the table. */
#define FAST_BAD 64

struct fastrec_thread {
	uint64_t tcb;
	pid_t tid;
};

/* One process's recorder; one allocation (process_free frees it),
 * made when the tracer first learns a thread of the process, before the
 * region is mapped.  A followed fork child gets a copy (fast_fork). */
struct fastrec {
	/* The region (fast.c maps it at the first hand-over). */
	uint64_t base; /* the region in the traced process; 0: none yet */
	bool failed;   /* mapping it failed: no recorder in this process */
	/* Its configuration says where errno is (fast.c, errno_setup). */
	bool errno_set;
	struct rec_layout l;
	/* A signal was delivered to a thread while it ran in the region:
	 * a handler's frame may return there, so it is never unmapped
	 * (fasttrap.c sets it, fastdetach.c reads it). */
	bool signalled_inside;
	/* The functions handed over (fast.c): table entries and bytes of
	 * the plan area in use; by function index, the stub (its
	 * breakpoint's address), its GOT slot and what the slot held. */
	uint32_t nfunc;
	uint64_t plans_used;
	uint64_t stub[FAST_NFUNC];
	uint64_t got[FAST_NFUNC];
	uint64_t target[FAST_NFUNC];
	/* A patched entry's (-x, fastentry.c; got 0): its original bytes,
	 * how many the patch replaced (0: a stub's function). */
	uint8_t xorig[FAST_NFUNC][16];
	uint8_t xlen[FAST_NFUNC];
	/* The ring as the drains left it (fastdrain.c). */
	uint64_t tail; /* the ring's tail, as last stored */
	/* [WRITTEN_LO, WRITTEN_HI): ring positions that committed records
	 * covered since the ring was mapped or its process forked: their
	 * pages are the writers' own, written (copy_ring). */
	uint64_t written_lo, written_hi;
	bool broken;	     /* the ring was given up (fastpoison.c) */
	bool uncommitted;    /* the last drain stopped at a record not
				committed yet */
	bool stuck;	     /* a settle gave up at STUCK_TAIL */
	uint64_t stuck_tail; /* (fastdrain_settled) */
	uint64_t head;	     /* the ring's head, as the last drain read it */
	/* The last full ring's wait ended with no room: the record at the
	 * tail is another thread's, which is stopped (fastdrain_full). */
	bool stalled;
	/* Records accounted for: the recorder's count of records (the last
	 * drain read it into RECORDS_SEEN) that the tracer showed or said
	 * were lost; how many more the bytes dropped unread could have
	 * held; the record not committed at WAIT_POS and the time the
	 * tracer waited on it (fastdrain.c, fastpoison.c). */
	uint64_t counted, records_seen, lost_room;
	uint64_t wait_pos, wait_ns, wait_last;
	/* The threads whose TLS pointer is known (fastrec.c). */
	struct fastrec_thread threads[FAST_THREADS];
	size_t nthreads;
	/* The readable ranges' table (readable.h; fastrec.c): its sequence
	 * word as last written, the recorder's misses as last seen, when
	 * they may make it read /proc again and how long after that, a hash
	 * of the table written, and the pages where a direct copy faulted. */
	uint64_t range_seq;
	uint64_t range_misses;
	uint64_t ranges_next, ranges_wait;
	uint64_t ranges_sum;
	uint64_t bad[FAST_BAD];
	unsigned nbad;
	/* The stack copy's size its configuration asks for (-w). */
	uint64_t stack_copy;
	/* The program may hold a trampoline's address: a function was
	 * handed over whose address it may read in its slot (a GLOB_DAT
	 * one), or it wrote a slot since (its hook calls what it read
	 * there).  The detach keeps the trampolines then, forwarding
	 * (fastdetach.c). */
	bool tramp_held;
};

/* ---- fastrec.c ---- */

/* Whether --fast is on (fast_init). */
extern bool fastrec_enabled;

/* For -D 1 (fast_stop's figures; testsuite/budget reads them): those
 * counted outside fastdrain.c. */
struct fastrec_stats {
	unsigned long handed_over; /* functions (fast.c) */
	/* Faults of direct copies, and readings of /proc/PID/maps for
	 * them (fastrec.c). */
	unsigned long copy_faults, range_reads;
	/* Threads run out of the recorder's code to one of its ways out,
	 * and single steps taken instead where those could not take an
	 * trap (fasttrap.c). */
	unsigned long leave_runs, leave_steps;
};
extern struct fastrec_stats fastrec_stats;

/* P's recorder state, made at the first need. */
struct fastrec *fastrec_of(struct process *p);

/* P's recorder, when its region is mapped; else NULL. */
struct fastrec *fastrec_mapped(const struct process *p);

/* CLOCK_MONOTONIC, in ns. */
uint64_t fastrec_mono_ns(void);

/* One gathered read of the traced process PID, L[0..NL) from
 * R[0..NR): the bytes read, or -errno.  A process that made itself
 * non-dumpable is read through its /proc/PID/mem. */
ssize_t fastrec_gather(pid_t pid, const struct iovec *l, size_t nl,
		       const struct iovec *r, size_t nr);

/* LEN bytes at ADDR of PID into BUF: 0, or -EFAULT. */
int fastrec_read(pid_t pid, uint64_t addr, void *buf, size_t len);

/* Where F's struct rec_shared (ring.h) is in the traced process, and
 * one of its fields. */
static inline uint64_t fastrec_shared(const struct fastrec *f)
{
	return f->base + f->l.rw;
}

#define FASTREC_FIELD(f, field) \
	(fastrec_shared(f) + offsetof(struct rec_shared, field))

/* Read P's mappings into its recorder F's readable ranges' table (P is
 * stopped, or its copies race with the write harmlessly: ring.h). */
void fastrec_ranges_refresh(struct process *p, struct fastrec *f);

/* At a drain: the recorder's count of copies the table missed is
 * MISSES_NOW; a new mapping, most likely, to read in. */
void fastrec_ranges_check(struct process *p, struct fastrec *f,
			  uint64_t misses_now);

/* The task of P whose TLS pointer is TCB; for one never seen, the
 * process's leader (or any task of it). */
struct task *fastrec_task_of(struct process *p, struct fastrec *f,
			     uint64_t tcb);

/* ---- fastdrain.c ---- */

/* fast_init's part: the ring's copy made, the clock's first point
 * taken; WAIT_WRITERS, whether fast_settle waits.  False, said on
 * stderr, when TIMED (an option shows times) and this CPU's time stamp
 * counter cannot give them. */
bool fastdrain_init(bool timed, bool wait_writers);

/* Show P's committed records and give their room back.  Returns the
 * bytes consumed. */
uint64_t fastdrain_drain(struct process *p);

/* Drain P until every record reserved so far is shown: at most ROUNDS
 * times 50 us, less when another thread than SELF is found stopped, the
 * last such wait gave up at the same tail, or a termination signal
 * came to the tracer. */
void fastdrain_settled(struct process *p, const struct task *self, int rounds);

/* T trapped on P's full ring: drain until it has room, or a wait for
 * another thread's record gives up (P's stalled then). */
void fastdrain_full(struct task *t, struct process *p);

/* Show the record that a writer of P (recorder F) built on its stack,
 * at ADDR, after the ring's.  LIVE (or NULL) reads the memory of the
 * writer's thread, stopped at the trap: a record whose copies did not fit
 * (REC_CALL_LIVE, REC_RETURN_LIVE) is shown from it. */
void fastdrain_sync(struct process *p, struct fastrec *f, uint64_t addr,
		    struct memsrc *live);

/* ---- fastbt.c ---- */

struct callsite;
struct rec_return;
struct rec_shared;

/* fast_init's part: -w's depth WHERE (0: no backtraces). */
void fastbt_init(unsigned where);

/* With -w, F's configuration SH asks its recorder for return records
 * with the caller's stack (ring.h, struct rec_stack). */
void fastbt_config(struct fastrec *f, struct rec_shared *sh);

/* The return record R of T's pending call I, with CS its stop as the
 * record gives it: the return's line, and that of each call that
 * tail-called it (call_return_tail), each followed by its backtrace
 * with -w (as ptrace mode shows them, from the stack the record kept). */
void fastbt_return(struct task *t, size_t i, struct callsite *cs,
		   const struct rec_return *r);

/* ---- fastshow.c ---- */

/* fastdrain_init's part: the clock's first point (false when TIMED
 * needs a constant time stamp counter this CPU has not). */
bool fastshow_init(bool timed);

/* The records' clock's second point, taken at each drain. */
void fastshow_clock_point(void);

/* At each drain, before its records: the lookups fastshow_record
 * keeps from record to record (the thread a TLS pointer names, the
 * breakpoint of a function) are forgotten, since tasks and
 * breakpoints may have gone between two drains. */
void fastshow_batch(void);

/* Show H, a record of P (recorder F) whose size was checked, as a call
 * or a return of the task it names; other types are skipped.  A live
 * one (REC_CALL_LIVE, REC_RETURN_LIVE: a synchronous record whose
 * copies did not fit) reads LIVE, its thread's memory at the trap. */
void fastshow_record(struct process *p, struct fastrec *f,
		     const struct rec_hdr *h, struct memsrc *live);

/* Reads of traced memory that no copy of a record held, so far. */
unsigned long fastshow_misses(void);

/* ---- fastpoison.c ---- */

/* Give up P's ring (recorder F), for WHY, once: said on stderr, the GOT
 * slots pointed back at their stubs, whose breakpoints go back in; the
 * process goes on in ptrace mode.  The ring is still read, from where
 * the drain that calls this moves its tail on. */
void fastpoison(struct process *p, struct fastrec *f, const char *why);

/* Each function F handed over in P back to its stub: its GOT slot as
 * before the hand-over where it still points at the function's
 * trampoline, then the stub's breakpoint back (where the program left the
 * byte alone), never to be handed over again.  Said by the caller. */
void fastpoison_handback(struct process *p, const struct fastrec *f);

/* The bytes of F's ring from its tail to HEAD (any value: it is the
 * program's) dropped unread, and the tail stored at HEAD: the records
 * they held, by the recorder's count RECS less those accounted for and
 * at most as many as the bytes could hold, said lost.  Returns the bytes
 * dropped (a lap at most). */
uint64_t fastpoison_drop(struct process *p, struct fastrec *f, uint64_t head,
			 uint64_t recs);

/* N records of P lost: "--- N calls not recorded ---" (none when 0). */
void fastpoison_lost(struct process *p, uint64_t n);

/* ---- fasttrap.c ---- */

/* The calls of T recorded with no hook on their return get a return
 * breakpoint (through M; T's registers REGS). */
void fasttrap_want_returns(struct task *t, struct memsrc *m,
			   const struct arch_regs *regs);

/* Write F's ways out as the blob has them, through PROCMEM: after an
 * trap of fast_leave's that a fork copied into a child. */
/* fast.c: why B, hit by T with registers REGS, cannot be handed over
 * (its name, its plans, which it compiles into FP and RP, the region,
 * which it maps if needed), or NULL. */
const char *fastrec_refusal(struct task *t, const struct breakpoint *b,
			    struct arch_regs *regs, struct fetch_plan *fp,
			    struct fetch_plan *rp);
/* fast.c: function entry I of F for B, its plans FP and RP, going on
 * at TARGET.  0 or -errno. */
int fastrec_fill(struct process *p, struct fastrec *f, uint32_t i,
		 const struct breakpoint *b, const struct fetch_plan *fp,
		 const struct fetch_plan *rp, uint64_t target);
/* fastentry.c: where a call to ADDR of P goes on: the relocated copy
 * of a patched entry there (so that a stub's call to it makes one
 * line), else ADDR. */
uint64_t fastentry_copy(const struct process *p, uint64_t addr);
/* fastentry.c: put back the bytes of P's patched entries through
 * PROCMEM (the detach, a fork child let go). */
void fastentry_restore(int procmem, const struct fastrec *f);
/* fastentry.c: what the GOT slot of stub J of F held when it was
 * handed over: its target, or the entry of the function whose
 * relocated copy that target has become since (retarget_stubs). */
uint64_t fastentry_slot_value(const struct fastrec *f, uint32_t j);
/* fastentry.c: the GOT slots of F's stubs, in process PID (PROCMEM),
 * back to what they held (fastentry_slot_value) where they still point
 * at their trampolines.  A slot the program has written since (a PLT
 * hook of its own) is left as it is, and so is one of an object gone
 * (dlclose: another may be mapped there).  Returns whether there was
 * such a slot: the program may have kept the trampoline it read there
 * (the hook calls it). */
bool fastentry_slots_back(int procmem, pid_t pid, const struct fastrec *f);
/* fastentry.c: P's patched entries back in ptrace mode, F given up
 * (fastpoison.c): their breakpoints back in place where our jump still
 * is, never patched again. */
void fastentry_handback(struct process *p, const struct fastrec *f);
/* fastentry.c: T, stopped with registers R, in the head of one of F's
 * entry cells (before rec_xentry): put back at the function's entry,
 * to go through the cell again (a signal's handler first: no frame of
 * it in the recorder, nor in scratch that a detach unmaps).  False if
 * T is not there (or its registers could not be set). */
bool fastentry_leave_head(struct task *t, const struct fastrec *f,
			  struct arch_regs *r);
/* fastentry.c: T out of any of F's entry cells: out of the head as
 * above, or stepped out of the relocated prologue into the function.
 * False if a step failed (T gone, or a fault). */
bool fastentry_leave_cell(struct task *t, const struct fastrec *f,
			  struct arch_regs *r);
void fasttrap_exits_restore(int procmem, const struct fastrec *f);

#endif
