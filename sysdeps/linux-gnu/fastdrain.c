/* --fast: the rings drained and their records shown (DESIGN.md, "Fast
 * mode", Draining and Times).  A drain copies a process's ring from its
 * tail to its head (process_vm_readv), gives the room of the
 * committed records back, then formats them from the copy as calls and
 * returns of the tasks they name, at the times their time stamps map
 * to.  Drains run before each stop is handled (fast_drain_all), in the
 * drainer thread between stops, and at the recorder's traps
 * (fasttrap.c) and a thread's exit (fastdetach.c).  Calls fastrec.c. */
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "bpt.h"
#include "callsite.h"
#include "calls.h"
#include "debug.h"
#include "error.h"
#include "fast.h"
#include "fastrec.h"
#include "mem.h"
#include "output.h"
#include "proc.h"
#include "recmem.h"
#include "recorder/recread.h"
#include "recorder/ring.h"
#include "recregs.h"
#include "termsig.h"
#include "tracee.h"
#include "xmalloc.h"

/* How often the drainer thread looks at the rings; FAST_BUSY_NS after
 * a drain that took an eighth of a ring or more: the writers would
 * otherwise fill it and trap, and wait, stopped, for a whole drain,
 * where the drainer formats while they go on. */
#define FAST_PERIOD_NS (10 * 1000 * 1000)
#define FAST_BUSY_NS (200 * 1000)

static unsigned char *ring_copy; /* FAST_RING_BIG bytes */
/* fast_settle waits for records being written (not with -S). */
static bool settle;
/* For -D 1 (and testsuite/budget): records shown, and the drainer
 * thread's drains and the system calls they made but for the output's
 * writes: its sleep and its memory reads and writes (strace, without -f,
 * sees only the event loop's thread). */
static unsigned long records, thread_drains, thread_syscalls;

bool fastdrain_init(bool timed, bool wait_writers)
{
	if (!fastshow_init(timed))
		return false;
	settle = wait_writers;
	ring_copy = xmalloc(FAST_RING_BIG);
	return true;
}

/* Whether H, a record copied whole into the tracer (its size checked),
 * is a call or a return whose chunks fit in it. */
static bool sync_valid(const struct rec_hdr *h)
{
	if (h->type == REC_CALL && h->size >= sizeof(struct rec_call))
		return ((const struct rec_call *)h)->used <=
		       h->size - sizeof(struct rec_call);
	if (h->type == REC_RETURN && h->size >= sizeof(struct rec_return))
		return ((const struct rec_return *)h)->used <=
		       h->size - sizeof(struct rec_return);
	return false;
}

/* ---- draining ---- */

/* The time a record may stay uncommitted at the tail while the tracer
 * waits on it before the ring is given up (fastpoison.c): the tracer's
 * waiting, summed over the drains that found it so, each counted at
 * most FAST_WAIT_STEP_NS (the gaps between stops, or the drainer's
 * period, are no waiting).  A writer is a few microseconds inside its
 * reservation; one preempted on a loaded machine, some milliseconds. */
#define FAST_STUCK_NS (20ull * 1000 * 1000)
#define FAST_WAIT_STEP_NS (1000ull * 1000)

/* Where the committed records of F's ring, copied from TAIL to HEAD,
 * end.  A malformed record ends them, and sets *BAD; one not committed
 * (or reserved after the head was read, over room a call gave back)
 * ends them too, and the next drain has it. */
static uint64_t committed_end(struct fastrec *f, uint64_t tail, uint64_t head,
			      bool *bad)
{
	uint64_t pos = tail;
	*bad = false;
	while (pos < head) {
		const struct rec_hdr *h;
		int rc = rec_record_at(ring_copy, f->l.ring, pos, head - pos,
				       &h);
		*bad = rc < 0;
		if (rc <= 0)
			break;
		pos += h->size;
	}
	return pos;
}

static void consume(struct process *p, struct fastrec *f, uint64_t tail,
		    uint64_t end);

/* After END in F's ring copy, up to HEAD: the first record committed
 * and whole, or HEAD.  A commit word names its record's position: the
 * stale bytes of an earlier lap never pass for one. */
static uint64_t resync(struct fastrec *f, uint64_t end, uint64_t head)
{
	for (uint64_t pos = end + REC_ALIGN; pos < head; pos += REC_ALIGN) {
		const struct rec_hdr *h;
		if (rec_record_at(ring_copy, f->l.ring, pos, head - pos, &h) ==
		    1)
			return pos;
	}
	return head;
}

/* The drain of P (recorder F) ended at END, before HEAD, at a record not
 * committed yet (RECS, the recorder's count of records): the tracer's
 * waiting on it summed, and past FAST_STUCK_NS the ring given up, the
 * record skipped, and the committed records after it shown (those not
 * whole yet wait for the next drain).  Returns the bytes consumed. */
static uint64_t waited(struct process *p, struct fastrec *f, uint64_t end,
		       uint64_t head, uint64_t recs)
{
	uint64_t now = fastrec_mono_ns();
	if (f->wait_pos != end || !f->wait_last) {
		f->wait_pos = end;
		f->wait_ns = 0;
	} else {
		uint64_t d = now - f->wait_last;
		f->wait_ns += d < FAST_WAIT_STEP_NS ? d : FAST_WAIT_STEP_NS;
	}
	f->wait_last = now;
	if (f->wait_ns < FAST_STUCK_NS)
		return 0;
	fastpoison(p, f, "a record in its ring was never committed");
	uint64_t next = resync(f, end, head);
	if (next == head)
		return fastpoison_drop(p, f, head, recs);
	/* No record was committed in [END, NEXT): none is lost there. */
	f->tail = next;
	(void)mem_write(p->procmem, FASTREC_FIELD(f, tail), &next,
			sizeof(next));
	bool bad;
	uint64_t to = committed_end(f, next, head, &bad);
	consume(p, f, next, to);
	return to - end;
}

/* The records of F's ring copied from TAIL to END consumed: their room
 * given back, then they are shown, from the copy (the program's writers
 * go on meanwhile instead of filling the ring and waiting, stopped, for
 * the whole of the formatting). */
static void consume(struct process *p, struct fastrec *f, uint64_t tail,
		    uint64_t end)
{
	if (end == tail)
		return;
	fastshow_batch(); /* waited() may have given the ring up first */
	/* [TAIL, END) was written as committed; from the range's start on,
	 * since the mapping or the fork */
	if (tail <= f->written_hi && end > f->written_hi && end > f->written_lo)
		f->written_hi = end;
	f->tail = end;
	(void)mem_write(p->procmem, FASTREC_FIELD(f, tail), &end, sizeof(end));
	/* committed_end checked each record of [TAIL, END) in this copy,
	 * which only the tracer writes: they are not checked again. */
	for (uint64_t pos = tail; pos < end;) {
		const struct rec_hdr *h =
			(const struct rec_hdr *)(ring_copy +
						 (pos & (f->l.ring - 1)));
		fastshow_record(p, f, h, NULL);
		records++;
		f->counted += h->type != REC_PAD;
		pos += h->size;
	}
}

/* Copying P's ring (recorder F) from its tail to HEAD into ring_copy.
 * The kernel pins the pages of one remote iovec (16 at a time) before it
 * copies them, and a page pinned before its first write since the ring
 * was mapped or its process forked (the zero page, a page shared
 * copy-on-write) keeps its old bytes in the copy while the writer's go
 * to a new page: the body of a record committed in between was copied
 * stale (zeros in a writev's strings, 1 run in 10 under -s 9999999).
 * So positions outside F's written range go one page an iovec, pinned
 * and copied in ring order: a record whose commit word the copy shows
 * had every later page of it written before that word was copied, so
 * before those pages were pinned.  Inside the range, where every page
 * was written already (a pad's too: the recorder writes a word in each),
 * large iovecs (per-page ones cost strlen 6%). */
#define RING_IOVS 256

struct ring_iovs {
	struct iovec l[RING_IOVS], r[RING_IOVS];
	size_t n;
	uint64_t bytes;
};

static bool ring_flush(pid_t pid, struct ring_iovs *v)
{
	bool ok = !v->n || fastrec_gather(pid, v->l, v->n, v->r, v->n) ==
				   (ssize_t)v->bytes;
	v->n = 0;
	v->bytes = 0;
	return ok;
}

/* Positions [POS, END) of F's ring into V, pieces of at most STEP
 * bytes (a power of two) that never cross a multiple of STEP. */
static bool ring_add(pid_t pid, const struct fastrec *f, struct ring_iovs *v,
		     uint64_t pos, uint64_t end, uint64_t step)
{
	uint64_t size = f->l.ring, base = f->base + f->l.data;
	while (pos < end) {
		uint64_t off = pos & (size - 1);
		uint64_t k = step - (off & (step - 1));
		if (k > end - pos)
			k = end - pos;
		if (v->n == RING_IOVS && !ring_flush(pid, v))
			return false;
		v->l[v->n] = (struct iovec){ ring_copy + off, k };
		v->r[v->n] =
			(struct iovec){ (void *)(uintptr_t)(base + off), k };
		v->n++;
		v->bytes += k;
		pos += k;
	}
	return true;
}

static bool copy_ring(struct process *p, struct fastrec *f, uint64_t head)
{
	static uint64_t page;
	static struct ring_iovs v;
	uint64_t size = f->l.ring, tail = f->tail, safe = tail;

	if (!page) {
		long ps = sysconf(_SC_PAGESIZE);
		page = ps > 0 && !(ps & (ps - 1)) ? (uint64_t)ps : 4096;
	}
	if (f->written_hi - f->written_lo >= size)
		safe = head;
	else if (tail >= f->written_lo && tail < f->written_hi)
		safe = head < f->written_hi ? head : f->written_hi;
	return ring_add(p->pid, f, &v, tail, safe, size) &&
	       ring_add(p->pid, f, &v, safe, head, page) &&
	       ring_flush(p->pid, &v);
}

/* Every value read from the ring's header (head, the recorder's
 * counts) is read once, into W, and checked there: a head more than a
 * lap from the tail, a malformed record, a record never committed give
 * the ring up (fastpoison.c), whose room then goes back unread. */
uint64_t fastdrain_drain(struct process *p)
{
	struct fastrec *f = fastrec_mapped(p);
	uint64_t w[3]; /* head, range_misses, records */
	fastshow_batch();
	if (!f || fastrec_read(p->pid, FASTREC_FIELD(f, head), w, sizeof(w)))
		return 0;
	uint64_t head = w[0], tail = f->tail;
	fastrec_ranges_check(p, f, w[1]);
	f->uncommitted = false;
	f->head = head;
	f->records_seen = w[2];
	if (head == tail)
		return 0;
	if (head - tail > f->l.ring) {
		fastpoison(p, f, "its ring's head is corrupt");
		return fastpoison_drop(p, f, head, w[2]);
	}
	if (!copy_ring(p, f, head))
		return 0;
	fastshow_clock_point();
	bool bad;
	uint64_t end = committed_end(f, tail, head, &bad);
	consume(p, f, tail, end);
	if (bad) {
		fastpoison(p, f, "a malformed record in its ring");
		return end - tail + fastpoison_drop(p, f, head, w[2]);
	}
	if (end == head || f->broken)
		return end - tail;
	f->uncommitted = true;
	return end - tail + waited(p, f, end, head, w[2]);
}

struct others {
	const struct task *self;
	const struct process *p;
	int taken;
};

static void take_other(struct task *t, void *data)
{
	struct others *o = data;
	if (t != o->self && t->proc && !t->orphan &&
	    process_mem(t->proc) == o->p && tracee_take_report(t->tid))
		o->taken++;
}

/* Take the reports of P's stopped threads other than SELF, to be
 * handled next: whether one of them has its report waiting, taken now
 * or before (a writer in a reservation whose report a wait took before
 * is as stopped: a full ring's wait that missed it ran 2000 rounds). */
static bool take_others(const struct task *self, const struct process *p)
{
	struct others o = { self, p, 0 };
	task_foreach(take_other, &o);
	return o.taken != 0;
}

/* Drain P until every record reserved so far is shown: a thread about
 * to exit, whose records may wait behind another thread's that is still
 * being written (its records must be shown while its task is known).
 * A writer stopped inside its reservation would never commit: after 1
 * ms, and every 1 ms, the reports of P's other threads than SELF are
 * taken (as at a full ring), and a thread found stopped ends the wait.
 * So do ROUNDS times 50 us of the clock (sleeps run long on a loaded
 * machine: 2000 sleeps took 1.4 s) and a termination signal of the
 * tracer's.  A wait that ends so is not made again for the same tail:
 * with a signal every 500 us, 10 ms at every stop while a writer stood
 * stopped outran the program for good. */
void fastdrain_settled(struct process *p, const struct task *self, int rounds)
{
	struct fastrec *f = fastrec_mapped(p);
	if (!f)
		return;
	fastdrain_drain(p);
	uint64_t until = f->head, now = fastrec_mono_ns();
	uint64_t end = now + (uint64_t)rounds * 50000, look = now + 1000000;
	if (f->stuck && f->tail == f->stuck_tail) {
		(void)take_others(self, p);
		return;
	}
	while (!f->broken && f->tail < until && f->tail != f->head &&
	       now < end && !termsig_caught()) {
		if (now >= look) {
			if (take_others(self, p))
				break;
			look = now + 1000000;
		}
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
		fastdrain_drain(p);
		now = fastrec_mono_ns();
	}
	f->stuck = !f->broken && f->tail < until && f->tail != f->head;
	f->stuck_tail = f->tail;
}

/* The ring was full: drain until the trapping writer T has room.  The
 * drainer thread may have made it already; if not, and the record at
 * the tail is still being written by another thread, wait for that one
 * to commit (the writer comes back at once otherwise).  That thread may
 * be stopped, a signal say, its report behind those of writers that
 * trap again as soon as they are resumed: waitpid(-1) hands out the
 * same few tasks first, and it would never run (fork_lift: 1 run in 30
 * hung so).  Every 1 ms the other threads' reports are taken, to be
 * handled next, and T goes on without room.  The wait ends after
 * FAST_FULL_NS, or at once at the tracer's SIGINT, SIGTERM or SIGHUP; a
 * record that stays uncommitted gives the ring up (fastdrain_drain).
 * In a ring given up, a full ring's room goes back unread. */
#define FAST_FULL_NS (100ull * 1000 * 1000)

void fastdrain_full(struct task *t, struct process *p)
{
	struct fastrec *f = p->fast;
	uint64_t until = fastrec_mono_ns() + FAST_FULL_NS;
	uint64_t made = 0;
	f->stalled = false;
	for (int i = 0; !(made = fastdrain_drain(p)) && f->uncommitted; i++) {
		if (termsig_caught() || fastrec_mono_ns() > until ||
		    (i % 20 == 19 && take_others(t, p)))
			break;
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
	}
	if (!made && f->broken)
		made = fastpoison_drop(p, f, f->head, f->records_seen);
	f->stalled = f->uncommitted;
}

/* The record that a writer built on its stack is the program's to
 * change while the tracer reads it: read once, its header first for
 * its size, then the whole of it, and only that copy used, its size
 * checked there again.  One that does not hold is said lost. */
void fastdrain_sync(struct process *p, struct fastrec *f, uint64_t addr,
		    struct memsrc *live)
{
	union {
		struct rec_hdr h;
		unsigned char b[sizeof(struct rec_call) + REC_SYNC_ROOM + 256];
	} u;
	struct rec_hdr h;
	fastdrain_drain(p);
	if (fastrec_read(p->pid, addr, &h, sizeof(h)) || h.size > sizeof(u) ||
	    h.size < sizeof(h) || h.size % REC_ALIGN ||
	    fastrec_read(p->pid, addr, u.b, h.size) || u.h.size != h.size ||
	    !sync_valid(&u.h)) {
		fastpoison_lost(p, 1);
		return;
	}
	fastshow_record(p, f, &u.h, live);
}

/* Every process's records shown: the bytes of ring consumed. */
static uint64_t drain_all(void)
{
	uint64_t n = 0;
	for (struct process *p = process_first(); p; p = p->next)
		if (!p->vfork_parent)
			n += fastdrain_drain(p);
	return n;
}

void fast_drain_all(void)
{
	if (fastrec_enabled)
		(void)drain_all();
}

bool fast_owns_ip(const struct task *t, uint64_t ip)
{
	const struct fastrec *f = fastrec_enabled && t->proc ?
					  fastrec_mapped(process_mem(t->proc)) :
					  NULL;
	return f && ip >= f->base && ip - f->base < f->l.rw;
}

bool fast_settle(pid_t tid, bool may_defer)
{
	struct task *t = fastrec_enabled ? task_lookup(tid) : NULL;
	struct process *p = t && t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = fastrec_mapped(p);
	struct arch_regs r;
	if (!settle || !f || !f->uncommitted || p->vfork_parent ||
	    tracee_get_regs(tid, &r))
		return false;
	if (fast_owns_ip(t, arch_ip(&r)))
		return false; /* the writer may be this thread */
	/* A writer already stopped commits only once the loop resumes it:
	 * the others' stops first, with no wait (one a signal). */
	if (may_defer && take_others(t, p))
		return true;
	fastdrain_settled(p, t, 200);
	return f->stuck && tracee_has_early();
}

/* ---- the drainer thread ---- */

static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static pthread_t drainer;
static volatile int drainer_stop;
static bool drainer_on;

void fast_lock(void)
{
	if (fastrec_enabled)
		pthread_mutex_lock(&big);
}

void fast_unlock(void)
{
	if (fastrec_enabled)
		pthread_mutex_unlock(&big);
}

static void *drain_loop(void *arg)
{
	(void)arg;
	long period = FAST_PERIOD_NS;
	while (!__atomic_load_n(&drainer_stop, __ATOMIC_ACQUIRE)) {
		/* A sleep that fast_stop's wake ends at once: the tracer's
		 * exit waited up to a whole period for a nanosleep. */
		struct timespec ts = { 0, period };
		(void)syscall(SYS_futex, (int *)&drainer_stop,
			      FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
		if (__atomic_load_n(&drainer_stop, __ATOMIC_ACQUIRE))
			break;
		pthread_mutex_lock(&big);
		unsigned long before = mem_syscalls();
		uint64_t n = drain_all();
		thread_drains++;
		thread_syscalls += 1 + (mem_syscalls() - before);
		output_sync();
		pthread_mutex_unlock(&big);
		period = n >= FAST_RING / 8 ? FAST_BUSY_NS : FAST_PERIOD_NS;
	}
	return NULL;
}

void fast_start(void)
{
	if (!fastrec_enabled)
		return;
	sigset_t all, old;
	sigfillset(&all);
	/* The tracer's signals stay with the loop's thread. */
	pthread_sigmask(SIG_SETMASK, &all, &old);
	drainer_on = pthread_create(&drainer, NULL, drain_loop, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	fast_lock();
}

void fast_stop(void)
{
	if (!fastrec_enabled)
		return;
	fast_unlock();
	if (drainer_on) {
		__atomic_store_n(&drainer_stop, 1, __ATOMIC_RELEASE);
		(void)syscall(SYS_futex, (int *)&drainer_stop,
			      FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		pthread_join(drainer, NULL);
		drainer_on = false;
	}
	unsigned long misses = fastshow_misses();
	if (misses)
		error_msg("--fast: %lu reads of traced memory were not in the "
			  "fetch plans' copies; those arguments may show less "
			  "than in ptrace mode",
			  misses);
	debug_msg(DEBUG_GENERAL,
		  "--fast: %lu functions recorded, %lu records shown; the "
		  "drainer thread: %lu drains, %lu sleeps and memory system "
		  "calls; %lu readings of the readable ranges, %lu direct "
		  "copies faulted; %lu runs and %lu steps out of the recorder",
		  fastrec_stats.handed_over, records, thread_drains,
		  thread_syscalls, fastrec_stats.range_reads,
		  fastrec_stats.copy_faults, fastrec_stats.leave_runs,
		  fastrec_stats.leave_steps);
}
