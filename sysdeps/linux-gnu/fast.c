/* --fast: the tracer's side of the recorder (fast.h; DESIGN.md, "The
 * recorder" and "Fast mode").  Per process: one region mapped by
 * injected system calls at the first function handed over, the function
 * table the tracer fills, and a copy of the ring's data read in one
 * process_vm_readv per drain. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#include "arch.h"
#include "bpt.h"
#include "callsite.h"
#include "calls.h"
#include "debug.h"
#include "elfscan.h"
#include "error.h"
#include "fast.h"
#include "image.h"
#include "lens.h"
#include "library.h"
#include "mem.h"
#include "options.h"
#include "output.h"
#include "plan.h"
#include "proc.h"
#include "procfs.h"
#include "readable.h"
#include "recmem.h"
#include "recorder/recblob.h"
#include "recorder/reclayout.h"
#include "recorder/recread.h"
#include "recorder/ring.h"
#include "recregs.h"
#include "retbp.h"
#include "rectramp.h"
#include "tracee.h"
#include "xmalloc.h"

/* The region's shape: functions handed over, bytes of plans, threads
 * with hooked returns at once and hooked calls each, ring bytes. */
#define FAST_NFUNC 1024
#define FAST_PLAN_BYTES (256u << 10)
#define FAST_NSLOT 64
#define FAST_DEPTH 512
#define FAST_RING (256u << 10)
/* Threads whose TLS pointer is known, per process. */
#define FAST_THREADS 256
/* How often the drainer thread looks at the rings; FAST_BUSY_NS after
 * a drain that took an eighth of a ring or more: the writers would
 * otherwise fill it and trap, and wait, stopped, for a whole drain,
 * where the drainer formats while they go on. */
#define FAST_PERIOD_NS (10 * 1000 * 1000)
#define FAST_BUSY_NS (200 * 1000)
/* The readable ranges' table is read again at most this often while the
 * recorder's copies miss it, and up to FAST_RANGES_SLOW apart when a
 * reading changes nothing (what they miss is no plain memory: a device's
 * mapping, the vDSO). */
#define FAST_RANGES_WAIT (10ull * 1000 * 1000)
#define FAST_RANGES_SLOW (1000ull * 1000 * 1000)
/* Pages where a direct copy faulted, kept out of the table. */
#define FAST_BAD 64
/* Steps given a thread to leave the recorder's code before a signal is
 * delivered to it, or before the detach, when its ways out cannot take
 * an int3: a record takes a few thousand instructions at most, its
 * copies none (copy_by_call).  With the int3s, the blob's traps it may
 * meet on the way (a full ring, say). */
#define FAST_LEAVE_STEPS 100000
#define FAST_LEAVE_TRAPS 1000

struct fast_thread {
	uint64_t tcb;
	pid_t tid;
};

/* One process's recorder; one allocation (process_free frees it),
 * made when the tracer first learns a thread of the process, before the
 * region is mapped. */
struct fastrec {
	uint64_t base; /* the region in the traced process; 0: none yet */
	bool failed;   /* mapping it failed: no recorder in this process */
	struct rec_layout l;
	uint32_t nfunc;	     /* function table entries in use */
	uint64_t plans_used; /* bytes of the plan area in use */
	uint64_t tail;	     /* the ring's tail, as last stored */
	bool broken;	     /* a malformed record: reading stopped */
	bool uncommitted;    /* the last drain stopped at a record not
				committed yet */
	bool stuck;	     /* a settle gave up at STUCK_TAIL */
	uint64_t stuck_tail; /* (drain_settled_for) */
	uint64_t head;	     /* the ring's head, as the last drain read it */
	/* A signal was delivered to a thread while it ran in the region:
	 * a handler's frame may return there, so it is never unmapped. */
	bool signalled_inside;
	/* The last full ring's wait ended with no room: the record at the
	 * tail is another thread's, which is stopped (on_full). */
	bool stalled;
	struct fast_thread threads[FAST_THREADS];
	size_t nthreads;
	/* The readable ranges' table (readable.h): its sequence word as
	 * last written, the recorder's misses as last seen, when they may
	 * make it read /proc again and how long after that, a hash of the
	 * table written, and the pages where a direct copy faulted. */
	uint64_t range_seq;
	uint64_t range_misses;
	uint64_t ranges_next, ranges_wait;
	uint64_t ranges_sum;
	uint64_t bad[FAST_BAD];
	unsigned nbad;
	/* By function index: the stub (its breakpoint's address), its GOT
	 * slot and what the slot held. */
	uint64_t stub[FAST_NFUNC];
	uint64_t got[FAST_NFUNC];
	uint64_t target[FAST_NFUNC];
};

static bool enabled;
static struct lens_limits limits;
static unsigned char *ring_copy; /* FAST_RING bytes */
static unsigned long misses, handed_over;
/* Faults of direct copies, and readings of /proc/PID/maps for them. */
static unsigned long copy_faults, range_reads;
/* Threads run out of the recorder's code to one of its ways out, and
 * single steps taken instead where those could not take an int3. */
static unsigned long leave_runs, leave_steps;
/* fast_settle waits for records being written (not with -S). */
static bool settle;
/* For -D 1 (and testsuite/budget): records shown, and the drainer
 * thread's drains and the system calls they made but for the output's
 * writes: its sleep and its memory reads and writes (strace, without -f,
 * sees only the event loop's thread). */
static unsigned long records, thread_drains, thread_syscalls;

/* P's recorder state, made at the first need. */
static struct fastrec *rec_of(struct process *p)
{
	if (!p->fast) {
		p->fast = xmalloc(sizeof(*p->fast));
		memset(p->fast, 0, sizeof(*p->fast));
	}
	return p->fast;
}

/* P's recorder, when its region is mapped; else NULL. */
static struct fastrec *mapped(const struct process *p)
{
	return p && p->fast && p->fast->base ? p->fast : NULL;
}

/* tsc to CLOCK_MONOTONIC, by two points: at the start and at the last
 * drain (the time stamp counter is constant and shared by the CPUs:
 * constant_tsc, checked at the start). */
static bool use_tsc;
static uint64_t tsc0, mono0, tsc1, mono1;

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static bool tsc_constant(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool ok = false;
	while (f && !ok && fgets(line, sizeof(line), f))
		ok = !strncmp(line, "flags", 5) &&
		     strstr(line, " constant_tsc") &&
		     strstr(line, " nonstop_tsc");
	if (f)
		fclose(f);
	return ok;
}

static void clock_point(void)
{
	tsc1 = __rdtsc();
	mono1 = mono_ns();
}

/* The time of the record shown last. */
static uint64_t last_shown;

/* The output clock at the time stamp TSC of a record.  The mapping is
 * a line through two points, so it is off by a little, which must not
 * show as time going back or past the drain: the time is kept between
 * the last one shown (record or stop) and the drain's. */
static void set_time(uint64_t tsc)
{
	if (!output_timed() || !use_tsc || !tsc || tsc1 <= tsc0)
		return;
	double ns = (double)(mono1 - mono0) / (double)(tsc1 - tsc0);
	uint64_t t = mono0 + (uint64_t)((double)(int64_t)(tsc - tsc0) * ns);
	uint64_t lo = last_shown > output_now() ? last_shown : output_now();
	if (t < lo)
		t = lo;
	if (t > mono1)
		t = mono1 > lo ? mono1 : lo;
	last_shown = t;
	output_set_time(t);
}

bool fast_init(const struct options *o)
{
	if (!o->fast)
		return false;
	if (o->nentries || o->where) {
		error_msg("--fast: %s needs a stop at each call; "
			  "tracing in ptrace mode",
			  o->nentries ? "-x" : "-w");
		return false;
	}
	bool timed = o->time_mode || o->relative || o->time_spent ||
		     o->summary || o->format != FORMAT_TEXT;
	use_tsc = tsc_constant();
	if (timed && !use_tsc) {
		error_msg("--fast: this CPU's time stamp counter is not "
			  "constant; timing needs ptrace mode");
		return false;
	}
	limits.strlen = o->strlen;
	limits.arraylen = o->arraylen;
	/* With -S the recorder's own copies stop at syscall-stops: a
	 * writer is often stopped inside its record, and a wait for it at
	 * another thread's stop would last its whole bound. */
	settle = !o->syscalls;
	ring_copy = xmalloc(FAST_RING);
	tsc0 = __rdtsc();
	mono0 = mono_ns();
	clock_point();
	enabled = true;
	tracee_trace_exits(true);
	tracee_set_fault_hook(fast_fault);
	return true;
}

/* ---- the traced process's memory ---- */

/* One gathered read of the traced process PID.  A process that made
 * itself non-dumpable (setuid, prctl) refuses process_vm_readv: its
 * /proc/PID/mem, opened while it could be, is read instead, a span at a
 * time. */
static ssize_t gather(pid_t pid, const struct iovec *l, size_t nl,
		      const struct iovec *r, size_t nr)
{
	ssize_t n = mem_gather(pid, l, nl, r, nr);
	if (n >= 0 || n == -ESRCH || nl != nr)
		return n;
	const struct process *p = process_first();
	while (p && (p->pid != pid || p->vfork_parent))
		p = p->next;
	if (!p || p->memfd < 0)
		return n;
	n = 0;
	for (size_t i = 0; i < nl; i++) {
		ssize_t k = pread(p->memfd, l[i].iov_base, l[i].iov_len,
				  (off_t)(uintptr_t)r[i].iov_base);
		if (k < 0)
			return n ? n : -errno;
		n += k;
		if ((size_t)k < l[i].iov_len)
			break;
	}
	return n;
}

static int remote_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len };
	struct iovec r = { (void *)(uintptr_t)addr, len };
	return gather(pid, &l, 1, &r, 1) == (ssize_t)len ? 0 : -EFAULT;
}

static uint64_t shared_at(const struct fastrec *f)
{
	return f->base + f->l.rw;
}

#define SHARED_FIELD(f, field) \
	(shared_at(f) + offsetof(struct rec_shared, field))

/* ---- the readable ranges ---- */

static struct rec_range range_buf[REC_NRANGE];

static uint64_t ranges_hash(const struct rec_range *r, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = ((h ^ r[i].lo) * 0x100000001b3ull ^ r[i].hi) *
		    0x100000001b3ull;
	return h ^ n;
}

/* Write the table of the recorder F in the process of MEMFD as the
 * recorder reads it (ring.h): the sequence word odd, the N entries of R
 * and their count, the word even.  A write that fails leaves the word
 * odd: every copy then goes by system call. */
static void ranges_write(int memfd, struct fastrec *f,
			 const struct rec_range *r, uint64_t n)
{
	uint64_t seq = (f->range_seq + 1) | 1;
	if (mem_write(memfd, SHARED_FIELD(f, range_seq), &seq, sizeof(seq)))
		return;
	f->range_seq = seq;
	if ((n && mem_write(memfd, f->base + f->l.ranges, r, n * sizeof(*r))) ||
	    mem_write(memfd, SHARED_FIELD(f, nrange), &n, sizeof(n)))
		return;
	seq++;
	if (mem_write(memfd, SHARED_FIELD(f, range_seq), &seq, sizeof(seq)) ==
	    0)
		f->range_seq = seq;
}

/* Read P's mappings into its recorder's table (P is stopped, or its
 * copies race with the write harmlessly: ring.h). */
static void ranges_refresh(struct process *p, struct fastrec *f)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->pid);
	FILE *m = fopen(path, "re");
	if (!m)
		return;
	long n = readable_ranges(m, range_buf, REC_NRANGE, f->base,
				 f->base + f->l.size, f->bad,
				 f->nbad < FAST_BAD ? f->nbad : FAST_BAD);
	fclose(m);
	range_reads++;
	if (n < 0)
		return;
	uint64_t sum = ranges_hash(range_buf, (size_t)n);
	bool same = f->range_seq && !(f->range_seq & 1) && sum == f->ranges_sum;
	f->ranges_wait = same ? 2 * f->ranges_wait : FAST_RANGES_WAIT;
	if (f->ranges_wait > FAST_RANGES_SLOW)
		f->ranges_wait = FAST_RANGES_SLOW;
	f->ranges_next = mono_ns() + f->ranges_wait;
	if (same)
		return;
	f->ranges_sum = sum;
	ranges_write(p->memfd, f, range_buf, (uint64_t)n);
	debug_msg(DEBUG_GENERAL, "--fast: process %d: %ld readable ranges",
		  (int)p->pid, n);
}

/* At a drain: the recorder's count of copies the table missed is
 * MISSES; a new mapping, most likely, to read in. */
static void ranges_check(struct process *p, struct fastrec *f,
			 uint64_t misses_now)
{
	if (misses_now == f->range_misses || mono_ns() < f->ranges_next)
		return;
	f->range_misses = misses_now;
	ranges_refresh(p, f);
}

bool fast_fault(struct task *t, int sig)
{
	struct process *p = enabled && t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = mapped(p);
	struct arch_regs r;
	uint64_t addr;
	if (!f || (sig != SIGSEGV && sig != SIGBUS) ||
	    tracee_get_regs(t->tid, &r) ||
	    arch_ip(&r) != f->base + f->l.blob + rec_blob_copy_insn ||
	    !tracee_faulted(t->tid, &addr))
		return false;
	arch_set_ip(&r, f->base + f->l.blob + rec_blob_copy_fixup);
	if (tracee_set_regs(t->tid, &r))
		return false;
	copy_faults++;
	f->bad[f->nbad++ % FAST_BAD] = addr & ~4095ull;
	debug_msg(DEBUG_GENERAL,
		  "--fast: thread %d: a direct copy faulted at %#llx (%s)",
		  (int)t->tid, (unsigned long long)addr,
		  sig == SIGSEGV ? "SIGSEGV" : "SIGBUS");
	ranges_refresh(p, f);
	return true;
}

/* ---- threads ---- */

static void learn(struct fastrec *f, pid_t tid, uint64_t tcb)
{
	size_t free_at = f->nthreads;
	for (size_t i = 0; i < f->nthreads; i++) {
		if (f->threads[i].tcb == tcb) {
			f->threads[i].tid = tid;
			return;
		}
		if (f->threads[i].tid == tid)
			free_at = i;
	}
	if (free_at == f->nthreads) {
		if (f->nthreads == FAST_THREADS)
			free_at = (size_t)tid % FAST_THREADS;
		else
			f->nthreads++;
	}
	f->threads[free_at].tcb = tcb;
	f->threads[free_at].tid = tid;
}

void fast_learn(struct task *t, const struct arch_regs *regs)
{
	uint64_t tcb = recregs_thread(regs);
	if (enabled && t->proc && tcb)
		learn(rec_of(process_mem(t->proc)), t->tid, tcb);
}

void fast_stopped(struct task *t)
{
	struct arch_regs r;
	if (enabled && t->proc && tracee_get_regs(t->tid, &r) == 0)
		fast_learn(t, &r);
}

static int read_word(pid_t pid, uint64_t addr, uint64_t *w)
{
	return remote_read(pid, addr, w, sizeof(*w));
}

void fast_clone(struct task *t, pid_t child)
{
	struct fastrec *f = enabled && t->proc ? rec_of(process_mem(t->proc)) :
						 NULL;
	struct arch_regs r;
	uint64_t tls;
	if (f && !tracee_get_regs(t->tid, &r) &&
	    recregs_clone_tls(&r, t->tid, read_word, &tls)) {
		debug_msg(DEBUG_GENERAL, "--fast: thread %d has TLS %#llx",
			  (int)child, (unsigned long long)tls);
		learn(f, child, tls);
	}
}

/* The task of P whose TLS pointer is TCB; for one never seen, the
 * process's leader (or any task of it). */
static struct task *task_of(struct process *p, struct fastrec *f, uint64_t tcb)
{
	for (size_t i = 0; i < f->nthreads; i++) {
		if (f->threads[i].tcb != tcb)
			continue;
		struct task *t = task_lookup(f->threads[i].tid);
		if (t && t->proc && process_mem(t->proc) == p)
			return t;
		debug_msg(DEBUG_GENERAL, "--fast: thread %d of %#llx not found",
			  (int)f->threads[i].tid, (unsigned long long)tcb);
	}
	debug_msg(DEBUG_GENERAL, "--fast: TLS %#llx unknown",
		  (unsigned long long)tcb);
	struct task *t = task_lookup(p->pid);
	return t && t->proc == p ? t : NULL;
}

/* ---- formatting records ---- */

/* The floating point registers of the record being shown, made from
 * its xmm bytes only when the fetch code asks (a float argument or
 * return value): a call's xmm0..7 are in a chunk of its recmem, a
 * return's xmm0 in the record. */
static struct arch_fpregs rec_fp;
static const struct recmem *rec_mem;
static const void *rec_xmm;
static size_t rec_xmm_len;
static bool rec_fp_made, rec_fp_ok;

static const void *record_fpregs(struct callsite *cs)
{
	unsigned char xmm[128];
	const void *from = rec_xmm;
	size_t len = rec_xmm_len;

	(void)cs;
	if (rec_fp_made)
		return rec_fp_ok ? &rec_fp.f : NULL;
	rec_fp_made = true;
	if (!from && recmem_xmm(rec_mem, xmm)) {
		from = xmm;
		len = sizeof(xmm);
	}
	rec_fp_ok = from != NULL;
	if (rec_fp_ok)
		recregs_xmm(&rec_fp, from, len);
	return rec_fp_ok ? &rec_fp.f : NULL;
}

/* The record to be shown next keeps its xmm registers in MEM's chunks
 * (XMM NULL) or in the LEN bytes at XMM. */
static void record_fpregs_from(const struct recmem *mem, const void *xmm,
			       size_t len)
{
	rec_mem = mem;
	rec_xmm = xmm;
	rec_xmm_len = len;
	rec_fp_made = false;
}

static void show_call(struct process *p, struct fastrec *f,
		      const struct rec_call *c)
{
	struct breakpoint *b = c->func < f->nfunc ?
				       bpt_lookup(&p->bpts, f->stub[c->func]) :
				       NULL;
	struct task *t = task_of(p, f, c->thread);
	if (!b || !t)
		return;
	struct arch_regs regs;
	struct recmem rm;
	size_t used = c->used <= c->h.size - sizeof(*c) ? c->used : 0;
	recregs_call(&regs, c, f->target[c->func]);
	recmem_init(&rm, c + 1, used);
	record_fpregs_from(&rm, NULL, 0);
	struct callsite cs = { &rm.mem, &regs.r, record_fpregs,
			       true,	0,	 f->target[c->func] };
	set_time(c->tsc);
	call_entry(t, b, &cs, c->site, arch_sp_after_return(&regs),
		   task_prints(t));
	struct frame *fr = &t->frames[t->nframes - 1];
	fr->unhooked = (c->h.flags & REC_CALL_NOSLOT) != 0;
	fr->recorded = !fr->unhooked;
	misses += rm.misses;
}

static void show_return(struct process *p, struct fastrec *f,
			const struct rec_return *r)
{
	struct task *t = task_of(p, f, r->thread);
	if (!t)
		return;
	long i = call_match(t, r->site, r->sp);
	if (i < 0) {
		debug_msg(
			DEBUG_GENERAL,
			"--fast: thread %d: a return to %#llx, sp %#llx, pending %zu "
			"(top %#llx, %#llx): no call",
			(int)t->tid, (unsigned long long)r->site,
			(unsigned long long)r->sp, t->nframes,
			(unsigned long long)(t->nframes ?
						     t->frames[t->nframes - 1]
							     .ret :
						     0),
			(unsigned long long)(t->nframes ?
						     t->frames[t->nframes - 1]
							     .ret_sp :
						     0));
		return;
	}
	struct arch_regs regs;
	struct recmem rm;
	size_t used = r->used <= r->h.size - sizeof(*r) ? r->used : 0;
	recregs_return(&regs, r);
	recmem_init(&rm, r + 1, used);
	record_fpregs_from(&rm, r->xmm0, sizeof(r->xmm0));
	struct callsite cs = { &rm.mem, &regs.r, record_fpregs, false, 0, 0 };
	set_time(r->tsc);
	call_return_tail(t, (size_t)i, &cs, task_prints(t));
	misses += rm.misses;
}

static void show_record(struct process *p, struct fastrec *f,
			const struct rec_hdr *h)
{
	if (h->type == REC_CALL && h->size >= sizeof(struct rec_call))
		show_call(p, f, (const struct rec_call *)h);
	else if (h->type == REC_RETURN && h->size >= sizeof(struct rec_return))
		show_return(p, f, (const struct rec_return *)h);
}

/* ---- draining ---- */

/* A ring no longer read (a malformed record, a corrupt head): its room
 * is given back unread, so that the program's writers never wait on a
 * full ring for good.  Returns the bytes dropped. */
static uint64_t drop_all(struct process *p, struct fastrec *f, uint64_t head)
{
	if (head - f->tail > f->l.ring || head == f->tail)
		return 0;
	uint64_t n = head - f->tail;
	f->tail = head;
	(void)mem_write(p->memfd, SHARED_FIELD(f, tail), &head, sizeof(head));
	return n;
}

/* Where the committed records of F's ring, copied from TAIL to HEAD,
 * end.  A malformed record marks F broken, said once; one not committed
 * (or reserved after the head was read, over room a call gave back)
 * ends them too, and the next drain has it. */
static uint64_t committed_end(const struct process *p, struct fastrec *f,
			      uint64_t tail, uint64_t head)
{
	uint64_t pos = tail;
	while (pos < head) {
		const struct rec_hdr *h;
		int rc = rec_record_at(ring_copy, f->l.ring, pos, head - pos,
				       &h);
		if (rc < 0) {
			error_msg("--fast: process %d: a malformed record; "
				  "its calls are no longer shown",
				  (int)p->pid);
			f->broken = true;
		}
		if (rc <= 0)
			break;
		pos += h->size;
	}
	return pos;
}

/* Show P's committed records and give their room back.  Returns the
 * bytes consumed. */
static uint64_t drain(struct process *p)
{
	struct fastrec *f = mapped(p);
	uint64_t w[2]; /* head, range_misses */
	if (!f || remote_read(p->pid, SHARED_FIELD(f, head), w, sizeof(w)))
		return 0;
	uint64_t head = w[0];
	ranges_check(p, f, w[1]);
	if (f->broken)
		return drop_all(p, f, head);
	uint64_t size = f->l.ring, tail = f->tail;
	f->uncommitted = false;
	f->head = head;
	if (head == tail)
		return 0;
	if (head - tail > size) {
		error_msg("--fast: process %d: its ring's head is corrupt; "
			  "its calls are no longer shown",
			  (int)p->pid);
		f->broken = true;
		return 0;
	}
	uint64_t off = tail & (size - 1), len = head - tail;
	uint64_t first = off + len > size ? size - off : len;
	struct iovec l[2] = { { ring_copy + off, first },
			      { ring_copy, len - first } };
	struct iovec r[2] = {
		{ (void *)(uintptr_t)(f->base + f->l.data + off), first },
		{ (void *)(uintptr_t)(f->base + f->l.data), len - first },
	};
	if (gather(p->pid, l, len > first ? 2 : 1, r, len > first ? 2 : 1) !=
	    (ssize_t)len)
		return 0;
	clock_point();
	uint64_t end = committed_end(p, f, tail, head);
	f->uncommitted = !f->broken && end < head;
	if (end == tail)
		return 0;
	/* The room goes back before the records are shown, from the copy:
	 * the program's writers go on meanwhile instead of filling the
	 * ring and waiting, stopped, for the whole of the formatting. */
	f->tail = end;
	(void)mem_write(p->memfd, SHARED_FIELD(f, tail), &end, sizeof(end));
	for (uint64_t pos = tail; pos < end;) {
		const struct rec_hdr *h;
		if (rec_record_at(ring_copy, size, pos, end - pos, &h) <= 0)
			break;
		show_record(p, f, h);
		records++;
		pos += h->size;
	}
	return end - tail;
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

/* Drain P until every record reserved so far is shown: a thread about
 * to exit, whose records may wait behind another thread's that is still
 * being written (its records must be shown while its task is known).
 * A writer stopped inside its reservation would never commit: after 1
 * ms the reports of P's other threads than SELF are taken (on_full's
 * take_other), and a thread found stopped ends the wait, as does the
 * end of ROUNDS sleeps of 50 us.  A wait that ends so is not made again
 * for the same tail: with a signal every 500 us, 10 ms at every stop
 * while a writer stood stopped outran the program for good. */
static void drain_settled_for(struct process *p, const struct task *self,
			      int rounds)
{
	struct fastrec *f = mapped(p);
	if (!f)
		return;
	drain(p);
	uint64_t until = f->head;
	if (f->stuck && f->tail == f->stuck_tail)
		return;
	for (int i = 0;
	     i < rounds && !f->broken && f->tail < until && f->tail != f->head;
	     i++) {
		if (i % 20 == 19) {
			struct others o = { self, p, 0 };
			task_foreach(take_other, &o);
			if (o.taken)
				break;
		}
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
		drain(p);
	}
	f->stuck = !f->broken && f->tail < until && f->tail != f->head;
	f->stuck_tail = f->tail;
}

/* Every process's records shown: the bytes of ring consumed. */
static uint64_t drain_all(void)
{
	uint64_t n = 0;
	for (struct process *p = process_first(); p; p = p->next)
		if (!p->vfork_parent)
			n += drain(p);
	return n;
}

void fast_drain_all(void)
{
	if (enabled)
		(void)drain_all();
}

bool fast_owns_ip(const struct task *t, uint64_t ip)
{
	const struct fastrec *f =
		enabled && t->proc ? mapped(process_mem(t->proc)) : NULL;
	return f && ip >= f->base && ip - f->base < f->l.rw;
}

void fast_settle(pid_t tid)
{
	struct task *t = enabled ? task_lookup(tid) : NULL;
	struct process *p = t && t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = mapped(p);
	struct arch_regs r;
	if (!settle || !f || !f->uncommitted || p->vfork_parent ||
	    tracee_get_regs(tid, &r))
		return;
	if (fast_owns_ip(t, arch_ip(&r)))
		return; /* the writer may be this thread */
	drain_settled_for(p, t, 200);
}

/* ---- setting up a process ---- */

/* Map and fill the region: trampolines and blob read and execute, the
 * configuration, the rest zero. */
static int setup(struct task *t, struct fastrec *f,
		 const struct arch_regs *saved)
{
	struct process *p = process_mem(t->proc);
	if (rec_layout_init(&f->l, FAST_NFUNC, FAST_PLAN_BYTES, FAST_NSLOT,
			    FAST_DEPTH, FAST_RING))
		goto err_free;
	f->base = tracee_inject_mmap(t, saved, 0, f->l.size,
				     PROT_READ | PROT_WRITE, 0);
	if (!f->base)
		goto err_free;
	long ret;
	long prot[6] = { (long)f->base, (long)f->l.rw, PROT_READ | PROT_EXEC };
	if (tracee_inject_syscall(t, saved, SYS_mprotect, prot, &ret) || ret)
		goto err_free;
	size_t code = f->l.rw;
	unsigned char *img = xmalloc(code + sizeof(struct rec_shared));
	memset(img, 0xcc, code);
	uint64_t entry = f->base + f->l.blob + rec_blob_entry;
	for (uint32_t i = 0; i < FAST_NFUNC; i++) {
		uint64_t at =
			f->base + f->l.tramp + (uint64_t)i * REC_TRAMP_SIZE;
		if (rec_tramp_write(img + f->l.tramp + i * REC_TRAMP_SIZE, at,
				    i, entry))
			goto err_img;
	}
	memcpy(img + f->l.blob, rec_blob, rec_blob_size);
	rec_shared_init((struct rec_shared *)(img + code), &f->l, f->base,
			(uint64_t)p->pid);
	if (mem_write(p->memfd, f->base, img, code + sizeof(struct rec_shared)))
		goto err_img;
	free(img);
	ranges_refresh(p, f);
	debug_msg(DEBUG_GENERAL, "--fast: recorder of %d at %#llx, %llu bytes",
		  (int)p->pid, (unsigned long long)f->base,
		  (unsigned long long)f->l.size);
	return 0;
err_img:
	free(img);
err_free:
	f->base = 0;
	f->failed = true;
	return -1;
}

/* Functions whose calls stay with breakpoints: those that return twice
 * (the first return would pop the shadow entry the second needs), and
 * clone, whose child may share the parent's TLS pointer. */
static bool never_recorded(const char *name)
{
	static const char *const names[] = {
		"vfork",       "setjmp",      "_setjmp",
		"sigsetjmp",   "__sigsetjmp", "getcontext",
		"swapcontext", "clone",	      "savectx",
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* The exec family: the ring is drained before the old image goes. */
static bool replaces_image(const char *name)
{
	return !strncmp(name, "exec", 4) || !strcmp(name, "fexecve");
}

/* Whether some call site without a stub (-fno-plt) calls through B's
 * GOT slot: it has its own breakpoint, and a call would show twice. */
struct slot_use {
	uint64_t got;
	bool used;
};

static void find_site(struct breakpoint *b, void *data)
{
	struct slot_use *u = data;
	if (b->kind == BPT_SITE && b->got == u->got)
		u->used = true;
}

static bool bound_yet(struct process *p, const struct breakpoint *b,
		      uint64_t target)
{
	for (const struct library *l = p->libs; l; l = l->next)
		if (library_contains(l, b->addr))
			return !library_contains(l, target);
	return false;
}

/* Fill function entry I for B: its plans (the entry's, then the
 * return's unless it copies nothing), then its table entry. */
static int fill_function(struct process *p, struct fastrec *f, uint32_t i,
			 const struct breakpoint *b,
			 const struct fetch_plan *fp,
			 const struct fetch_plan *rp, uint64_t target)
{
	struct plan_op ops[2 * PLAN_MAX_OPS];
	size_t n = fp->nops, rn = rp->bound ? rp->nops : 0;
	if (f->plans_used + (n + rn) * sizeof(*ops) > FAST_PLAN_BYTES ||
	    fp->bound > UINT32_MAX || rp->bound > UINT32_MAX)
		return -ENOSPC;
	memcpy(ops, fp->ops, n * sizeof(*ops));
	memcpy(ops + n, rp->ops, rn * sizeof(*ops));
	uint64_t plan = f->base + f->l.plans + f->plans_used;
	struct rec_func fn = {
		.target = target,
		.plan = plan,
		.bound = (uint32_t)fp->bound,
		.flags = REC_FN_RETURNS |
			 (replaces_image(b->name) ? REC_FN_DRAIN : 0),
		.rplan = rn ? plan + n * sizeof(*ops) : 0,
		.rbound = (uint32_t)rp->bound,
	};
	uint64_t bytes = (n + rn) * sizeof(*ops);
	int rc = mem_write(p->memfd, plan, ops, bytes);
	if (!rc)
		rc = mem_write(p->memfd, f->base + f->l.ftab + i * sizeof(fn),
			       &fn, sizeof(fn));
	if (!rc)
		f->plans_used += (bytes + 15) & ~15ull;
	return rc;
}

bool fast_take(struct task *t, struct breakpoint *b, struct arch_regs *regs,
	       uint64_t target)
{
	struct process *p = process_mem(t->proc);
	if (!enabled || b->fast_refused || b->kind != BPT_PLT || !b->got ||
	    t->proc->vfork_parent)
		return false;
	if (!bound_yet(p, b, target))
		return false; /* lazy binding: the next call will tell */
	struct fetch_plan fp, rp;
	const char *why = NULL;
	struct slot_use u = { b->got, false };
	bpt_foreach(&p->bpts, find_site, &u);
	if (never_recorded(b->name))
		why = "it returns twice";
	else if (u.used)
		why = "call sites use its GOT slot";
	else if (plan_compile(b->proto, &limits, &fp, &rp, &why) < 0)
		;
	else if (!mapped(p) && (rec_of(p)->failed || setup(t, p->fast, regs)))
		why = "no recorder in this process";
	else if (p->fast->nfunc == FAST_NFUNC)
		why = "the function table is full";
	else if (fp.bound + sizeof(struct rec_call) >
			 rec_max_record(&p->fast->l) ||
		 rp.bound + sizeof(struct rec_return) >
			 rec_max_record(&p->fast->l))
		/* Its copies would be cut at the record's room, and show
		 * less than a stop does (-s 9999999 bounds each string of
		 * writev's iovecs at 9999999 bytes, whatever they hold). */
		why = "its copies may not fit in a record";
	if (why) {
		debug_msg(DEBUG_GENERAL, "--fast: %s stays in ptrace mode: %s",
			  b->name, why);
		b->fast_refused = true;
		return false;
	}
	struct fastrec *f = p->fast;
	uint32_t i = f->nfunc;
	uint64_t tramp = f->base + f->l.tramp + (uint64_t)i * REC_TRAMP_SIZE;
	if (fill_function(p, f, i, b, &fp, &rp, target) ||
	    mem_write(p->memfd, b->got, &tramp, sizeof(tramp))) {
		b->fast_refused = true;
		return false;
	}
	f->stub[i] = b->addr;
	f->got[i] = b->got;
	f->target[i] = target;
	f->nfunc++;
	handed_over++;
	image_lift(p, b);
	b->fast = true;
	fast_learn(t, regs);
	arch_set_ip(regs, tramp);
	(void)tracee_set_regs(t->tid, regs);
	return true;
}

/* ---- traps ---- */

static bool in_blob(const struct fastrec *f, uint64_t ip, uint64_t off)
{
	return ip == f->base + f->l.blob + off + 1;
}

/* The ring was full: drain until the trapping writer T has room.  The
 * drainer thread may have made it already; if not, and the record at
 * the tail is still being written by another thread, wait for that one
 * to commit (the writer comes back at once otherwise).  That thread may
 * be stopped, a signal say, its report behind those of writers that
 * trap again as soon as they are resumed: waitpid(-1) hands out the
 * same few tasks first, and it would never run (fork_lift: 1 run in 30
 * hung so).  Every 1 ms the other threads' reports are taken, to be
 * handled next, and T goes on without room. */
static void on_full(struct task *t, struct process *p)
{
	struct fastrec *f = p->fast;
	f->stalled = false;
	for (int i = 0; i < 2000 && !drain(p) && f->uncommitted; i++) {
		if (i % 20 == 19) {
			struct others o = { t, p, 0 };
			task_foreach(take_other, &o);
			if (o.taken)
				break;
		}
		struct timespec ts = { 0, 50000 };
		nanosleep(&ts, NULL);
	}
	f->stalled = f->uncommitted;
}

/* A record built on the writer's stack, at ADDR. */
static void on_sync(struct process *p, struct fastrec *f, uint64_t addr)
{
	union {
		struct rec_hdr h;
		unsigned char b[sizeof(struct rec_call) + REC_SYNC_ROOM + 256];
	} u;
	drain(p);
	if (remote_read(p->pid, addr, &u.h, sizeof(u.h)) ||
	    u.h.size > sizeof(u) || u.h.size < sizeof(u.h) ||
	    u.h.size % REC_ALIGN || remote_read(p->pid, addr, u.b, u.h.size))
		return;
	if (u.h.type == REC_CALL && u.h.size >= sizeof(struct rec_call)) {
		struct rec_call *c = (struct rec_call *)u.b;
		if (c->used <= u.h.size - sizeof(*c))
			show_call(p, f, c);
	} else {
		show_record(p, f, &u.h);
	}
}

/* A hooked return with no shadow entry: SP is its call's stack pointer
 * at entry.  The thread goes on where that call returns. */
static bool on_lost(struct task *t, struct arch_regs *regs, uint64_t sp)
{
	struct process *p = process_mem(t->proc);
	drain(p);
	for (size_t k = t->nframes; k-- > 0;) {
		if (t->frames[k].ret_sp != sp + 8)
			continue;
		uint64_t saved[2];
		if (remote_read(p->pid, sp - 40, saved, sizeof(saved)))
			return false;
		regs->r.rax = saved[0];
		regs->r.rdx = saved[1];
		regs->r.rsp = sp + 8;
		regs->r.rip = t->frames[k].ret;
		return tracee_set_regs(t->tid, regs) == 0;
	}
	return false;
}

/* The calls of T recorded with no hook on their return get a return
 * breakpoint: from here on their returns stop T as in ptrace mode.  They
 * are the innermost (T traps after each such record). */
static void want_returns(struct task *t, struct memsrc *m,
			 const struct arch_regs *regs)
{
	for (size_t k = t->nframes; k-- > 0 && t->frames[k].unhooked;) {
		t->frames[k].unhooked = false;
		retbp_ensure(t, m, regs, t->frames[k].ret);
	}
}

/* Whether IP is just past one of the recorder's ways out, where
 * fast_leave puts an int3 for a moment. */
static bool past_exit(const struct fastrec *f, uint64_t ip)
{
	return in_blob(f, ip, rec_blob_entry_exit) ||
	       in_blob(f, ip, rec_blob_return_exit);
}

/* Write the recorder's ways out as the blob has them, through MEMFD:
 * after an int3 of fast_leave's that a fork copied into a child (any
 * thread of the program may fork while those are in place). */
static void exits_restore(int memfd, const struct fastrec *f)
{
	(void)mem_write(memfd, f->base + f->l.blob + rec_blob_entry_exit,
			&rec_blob[rec_blob_entry_exit], 1);
	(void)mem_write(memfd, f->base + f->l.blob + rec_blob_return_exit,
			&rec_blob[rec_blob_return_exit], 1);
}

bool fast_trap_stop(struct task *t)
{
	struct process *p = enabled && t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = mapped(p);
	struct arch_regs r;
	if (!f || !tracee_trapped(t->tid) || tracee_get_regs(t->tid, &r))
		return false;
	uint64_t ip = arch_ip(&r);
	return past_exit(f, ip) || in_blob(f, ip, rec_blob_trap_full) ||
	       in_blob(f, ip, rec_blob_trap_sync) ||
	       in_blob(f, ip, rec_blob_trap_lost);
}

/* What the loop does at one of the blob's traps, T stopped just past it
 * with REGS: a full ring drained (and with M, the memory of the loop's
 * stop, return breakpoints for the calls the recorder could not hook),
 * a record on the writer's stack shown, a lost return resumed at its
 * call site.  False when the IP is at none of them, or a lost return's
 * call is unknown. */
static bool blob_trap(struct task *t, struct process *p, struct fastrec *f,
		      struct memsrc *m, struct arch_regs *regs)
{
	uint64_t ip = arch_ip(regs);
	if (past_exit(f, ip)) {
		/* Another thread's fast_leave had an int3 there, gone now
		 * (or copied into this process by a fork: put back): back
		 * onto the jmp. */
		exits_restore(p->memfd, f);
		arch_set_ip(regs, ip - 1);
		return tracee_set_regs(t->tid, regs) == 0;
	}
	if (in_blob(f, ip, rec_blob_trap_full)) {
		on_full(t, p);
		if (m)
			want_returns(t, m, regs);
		return true;
	}
	if (in_blob(f, ip, rec_blob_trap_sync)) {
		on_sync(p, f, regs->r.rdi);
		return true;
	}
	if (in_blob(f, ip, rec_blob_trap_lost))
		return on_lost(t, regs, regs->r.rdi);
	return false;
}

bool fast_trap(struct task *t, struct memsrc *m, struct arch_regs *regs)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = mapped(p);
	if (!enabled || !f)
		return false;
	return blob_trap(t, p, f, m, regs);
}

/* ---- leaving the recorder's code ---- */

/* Whether IP is in the recorder's code: its trampolines and blob. */
static bool in_code(const struct fastrec *f, uint64_t ip)
{
	return ip - f->base < f->l.rw;
}

/* T stopped on rec_copy's rep movsb, registers R: make the copy by
 * system calls and put T past the instruction, its registers as the
 * instruction leaves them, instead of a step per byte.  Where the bytes
 * cannot be read, T stays on the instruction with the copy made so far
 * (R says how far): a step there faults as the copy would, and
 * fast_fault ends it.  True when T is past it. */
static bool copy_by_call(struct task *t, struct process *p,
			 const struct fastrec *f, struct arch_regs *r)
{
	/* rep movsb: f3 a4 */
	static const unsigned char insn[2] = { 0xf3, 0xa4 };
	uint64_t at = f->base + f->l.blob + rec_blob_copy_insn;
	unsigned char buf[4096];
	if (arch_ip(r) != at || remote_read(p->pid, at, buf, sizeof(insn)) ||
	    memcmp(buf, insn, sizeof(insn)))
		return false;
	while (r->r.rcx) {
		size_t n = r->r.rcx < sizeof(buf) ? r->r.rcx : sizeof(buf);
		if (remote_read(p->pid, r->r.rsi, buf, n) ||
		    mem_write(p->memfd, r->r.rdi, buf, n))
			break;
		r->r.rsi += n;
		r->r.rdi += n;
		r->r.rcx -= n;
	}
	if (!r->r.rcx)
		arch_set_ip(r, at + sizeof(insn));
	return tracee_set_regs(t->tid, r) == 0 && !r->r.rcx;
}

/* fast_leave by single steps, where its int3s cannot be written: slow
 * (a record is some hundreds of instructions), and bounded. */
static bool step_leave(struct task *t, struct process *p, struct fastrec *f,
		       struct memsrc *m, struct arch_regs *r)
{
	for (int i = 0; i < FAST_LEAVE_STEPS && in_code(f, arch_ip(r)); i++) {
		if (copy_by_call(t, p, f, r))
			continue;
		if (tracee_step_trap(t) || tracee_get_regs(t->tid, r))
			return false;
		leave_steps++;
		/* A trap the step ran into (the IP is just past it), handled
		 * as the loop would; a lost return's moves the IP; a full
		 * ring with no room stops the steps, as in fast_leave. */
		f->stalled = false;
		if ((!blob_trap(t, p, f, m, r) &&
		     in_blob(f, arch_ip(r), rec_blob_trap_lost)) ||
		    f->stalled)
			return false;
	}
	return !in_code(f, arch_ip(r));
}

bool fast_leave(struct task *t, struct memsrc *m, struct arch_regs *r)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = mapped(p);
	if (!f || !in_code(f, arch_ip(r)))
		return true;
	/* Stopped just past one of the blob's int3s (a stop the detach
	 * collected, or a signal that came right after the loop handled
	 * the trap): that trap first; handled twice, a drain is only made
	 * again. */
	(void)blob_trap(t, p, f, m, r);
	if (!in_code(f, arch_ip(r)))
		return true;
	/* Every way out of the recorder's code is one of two jmp *%r11: an
	 * int3 on each for the time T runs to one.  Another thread that
	 * meets one stops, and the loop puts it back on the jmp later
	 * (blob_trap). */
	const uint64_t exits[2] = { f->base + f->l.blob + rec_blob_entry_exit,
				    f->base + f->l.blob +
					    rec_blob_return_exit };
	const unsigned char int3 = 0xcc;
	if (mem_write(p->memfd, exits[0], &int3, 1) ||
	    mem_write(p->memfd, exits[1], &int3, 1)) {
		exits_restore(p->memfd, f);
		return step_leave(t, p, f, m, r);
	}
	bool out = false;
	for (int i = 0; i < FAST_LEAVE_TRAPS; i++) {
		if (tracee_cont_trap(t) || tracee_get_regs(t->tid, r))
			break;
		leave_runs++;
		if (past_exit(f, arch_ip(r))) {
			/* The jmp's work: on to r11. */
			arch_set_ip(r, r->r.r11);
			out = tracee_set_regs(t->tid, r) == 0;
			break;
		}
		/* The blob's traps as the loop handles them; any other
		 * trap cannot come from the recorder's code.  A full ring
		 * whose tail another, stopped, thread holds has no room
		 * until the loop resumes that thread: T stays. */
		f->stalled = false;
		if (!blob_trap(t, p, f, m, r) || !in_code(f, arch_ip(r)) ||
		    f->stalled) {
			out = !in_code(f, arch_ip(r));
			break;
		}
	}
	exits_restore(p->memfd, f);
	return out;
}

/* ---- shadow stack slots ---- */

/* The owners of F's slots, into OWNERS (FAST_NSLOT of them), in one
 * gathered read: 0 or -EFAULT. */
static int read_owners(const struct fastrec *f, pid_t pid, uint64_t *owners)
{
	struct iovec l[FAST_NSLOT], r[FAST_NSLOT];
	uint64_t size = rec_shadow_size(f->l.depth);
	uint32_t n = f->l.nslot < FAST_NSLOT ? f->l.nslot : FAST_NSLOT;
	for (uint32_t i = 0; i < n; i++) {
		l[i] = (struct iovec){ &owners[i], sizeof(owners[i]) };
		r[i] = (struct iovec){
			(void *)(uintptr_t)(f->base + f->l.shadow + i * size),
			sizeof(owners[i])
		};
	}
	return gather(pid, l, n, r, n) == (ssize_t)(n * sizeof(*owners)) ?
		       0 :
		       -EFAULT;
}

/* The address of the shadow stack slot of thread TCB, or 0.  Threads
 * probe from a hash of their TCB: every slot is looked at. */
static uint64_t slot_of(const struct fastrec *f, pid_t pid, uint64_t tcb)
{
	uint64_t owners[FAST_NSLOT];
	if (!tcb || tcb == REC_SLOT_FREE || read_owners(f, pid, owners))
		return 0;
	for (uint32_t i = 0; i < f->l.nslot && i < FAST_NSLOT; i++)
		if (owners[i] == tcb)
			return f->base + f->l.shadow +
			       i * rec_shadow_size(f->l.depth);
	return 0;
}

/* ---- the unwinder ---- */

static const char *const unwinders[] = {
	"_Unwind_RaiseException",    "_Unwind_ForcedUnwind", "_Unwind_Resume",
	"_Unwind_Resume_or_Rethrow", "_Unwind_Backtrace",
};
#define NUNWINDERS (sizeof(unwinders) / sizeof(unwinders[0]))

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

void fast_select(struct process *p, struct library *l,
		 void (*add)(struct breakpoint *b, void *ctx), void *ctx)
{
	struct elf_funcs fs;
	if (!enabled || !l->soname || strncmp(l->soname, "libgcc_s.so", 11) ||
	    elf_funcs_read(&fs, l->path))
		return;
	uint64_t at[NUNWINDERS];
	size_t n = 0;
	for (size_t i = 0; i < fs.n; i++)
		for (size_t k = 0; k < NUNWINDERS && n < NUNWINDERS; k++)
			if (!strcmp(fs.v[i].name, unwinders[k]) &&
			    fs.v[i].bind != 2 && !fs.v[i].ifunc)
				at[n++] = fs.v[i].addr + l->bias;
	elf_funcs_destroy(&fs);
	qsort(at, n, sizeof(at[0]), cmp_u64);
	for (size_t i = 0; i < n; i++) {
		if ((i && at[i] == at[i - 1]) || bpt_lookup(&p->bpts, at[i]))
			continue;
		struct breakpoint *b = bpt_add(&p->bpts, at[i], BPT_ENTRY);
		b->name = xstrdup("_Unwind");
		b->label = xstrdup(b->name);
		b->resumed = xstrdup(b->name);
		b->fast_unwind = true;
		add(b, ctx);
	}
}

static void unhook_slot(struct process *p, const struct fastrec *f, uint64_t at,
			uint64_t ret_tramp);

void fast_unwinding(struct task *t, struct memsrc *m,
		    const struct arch_regs *regs)
{
	struct process *p = process_mem(t->proc);
	struct fastrec *f = mapped(p);
	if (!f || t->proc->vfork_parent)
		return;
	drain(p);
	uint64_t at = slot_of(f, p->pid, recregs_thread(regs));
	debug_msg(DEBUG_GENERAL, "--fast: %d unwinds, shadow slot %#llx",
		  (int)t->tid, (unsigned long long)at);
	if (at)
		unhook_slot(p, f, at, f->base + f->l.blob + rec_blob_return);
	for (size_t k = 0; k < t->nframes; k++) {
		if (!t->frames[k].recorded)
			continue;
		t->frames[k].recorded = false;
		retbp_ensure(t, m, regs, t->frames[k].ret);
	}
	want_returns(t, m, regs);
}

/* ---- thread exit, fork, detach ---- */

/* Free the shadow stack slot at AT in the process at MEMFD: its state
 * and pending words zeroed, then its owner REC_SLOT_FREE (not 0, which
 * would end other threads' probes). */
static void release_slot(int memfd, uint64_t at)
{
	uint64_t zero[2] = { 0, 0 }, freed = REC_SLOT_FREE;
	(void)mem_write(memfd, at + offsetof(struct rec_shadow, state), zero,
			sizeof(zero));
	(void)mem_write(memfd, at, &freed, sizeof(freed));
}

/* Free every used slot but thread KEEP's. */
static void free_slots(const struct fastrec *f, pid_t pid, int memfd,
		       uint64_t keep)
{
	uint64_t size = rec_shadow_size(f->l.depth);
	for (uint32_t i = 0; i < f->l.nslot; i++) {
		uint64_t at = f->base + f->l.shadow + i * size;
		uint64_t owner;
		if (remote_read(pid, at, &owner, sizeof(owner)) || owner == 0 ||
		    owner == REC_SLOT_FREE || owner == keep)
			continue;
		release_slot(memfd, at);
	}
}

static void free_slot_of(const struct fastrec *f, pid_t pid, int memfd,
			 uint64_t tcb)
{
	uint64_t at = slot_of(f, pid, tcb);
	if (at)
		release_slot(memfd, at);
}

void fast_exit(struct task *t)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = mapped(p);
	if (!f || t->proc->vfork_parent)
		return;
	drain_settled_for(p, t, 2000);
	struct arch_regs r;
	if (tracee_get_regs(t->tid, &r))
		return;
	uint64_t tcb = recregs_thread(&r);
	free_slot_of(f, p->pid, p->memfd, tcb);
	for (size_t i = 0; i < f->nthreads; i++)
		if (f->threads[i].tid == t->tid)
			f->threads[i].tcb = 0;
}

/* A fork child's ring: its own pid for the copies, the parent's records
 * left to the parent (tail = head). */
static void child_ring(const struct fastrec *f, pid_t pid, int memfd)
{
	uint64_t head, cfg = pid;
	uint64_t shared = f->base + f->l.rw;
	if (remote_read(pid, shared + offsetof(struct rec_shared, head), &head,
			sizeof(head)))
		return;
	(void)mem_write(memfd, shared + offsetof(struct rec_shared, tail),
			&head, sizeof(head));
	(void)mem_write(memfd, shared + offsetof(struct rec_shared, pid), &cfg,
			sizeof(cfg));
}

void fast_fork(struct process *child, const struct process *parent)
{
	const struct fastrec *pf = mapped(parent);
	if (!pf || child->memfd < 0)
		return;
	struct fastrec *f = xmalloc(sizeof(*f));
	memcpy(f, pf, sizeof(*f));
	child->fast = f;
	struct arch_regs r;
	uint64_t keep = 0;
	if (tracee_get_regs(child->pid, &r) == 0)
		keep = recregs_thread(&r);
	free_slots(f, child->pid, child->memfd, keep);
	child_ring(f, child->pid, child->memfd);
	exits_restore(child->memfd, f);
	uint64_t head;
	if (remote_read(child->pid, SHARED_FIELD(f, head), &head,
			sizeof(head)) == 0)
		f->tail = head;
	f->nthreads = 0;
	struct task *t = task_lookup(child->pid);
	if (t && keep)
		fast_learn(t, &r);
	/* Mappings made MADV_DONTFORK are not the child's. */
	ranges_refresh(child, f);
}

void fast_release_child(int memfd, pid_t pid, const struct process *parent)
{
	const struct fastrec *f = mapped(parent);
	if (!f)
		return;
	for (uint32_t i = 0; i < f->nfunc; i++)
		(void)mem_write(memfd, f->got[i], &f->target[i],
				sizeof(f->target[i]));
	child_ring(f, pid, memfd);
	exits_restore(memfd, f);
	/* No tracer will fix a fault of the child's copies (its hooked
	 * returns still run the recorder): an odd sequence word for good,
	 * so that they all go by system call. */
	uint64_t seq = f->range_seq | 1;
	(void)mem_write(memfd, SHARED_FIELD(f, range_seq), &seq, sizeof(seq));
}

/* Put back the return addresses that the hooked calls of slot AT still
 * have on their stacks, and free the slot. */
static void unhook_slot(struct process *p, const struct fastrec *f, uint64_t at,
			uint64_t ret_tramp)
{
	struct rec_shadow sh;
	if (remote_read(p->pid, at, &sh, sizeof(sh)) || sh.owner == 0 ||
	    sh.owner == REC_SLOT_FREE)
		return;
	uint64_t depth = sh.state & 0xffff;
	if (depth > f->l.depth)
		depth = f->l.depth;
	for (uint64_t k = 0; k < depth; k++) {
		struct rec_shadow_entry e;
		uint64_t word;
		if (remote_read(p->pid, at + sizeof(sh) + k * sizeof(e), &e,
				sizeof(e)) ||
		    remote_read(p->pid, e.sp, &word, sizeof(word)))
			continue;
		if (word == ret_tramp)
			(void)mem_write(p->memfd, e.sp, &e.ret, sizeof(e.ret));
	}
	release_slot(p->memfd, at);
}

/* Step a stopped thread of process DATA out of the recorder's code (it
 * finishes its record first: the ring has room after the drain). */
static void step_out(struct task *t, void *data)
{
	struct arch_regs r;
	if (t->proc && process_mem(t->proc) == data && t->stopped &&
	    !tracee_get_regs(t->tid, &r))
		(void)fast_leave(t, NULL, &r);
}

void fast_signal(struct task *t, int sig, struct arch_regs *regs)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = mapped(p);
	if (!f || !in_code(f, arch_ip(regs)) || !procfs_caught(t->tid, sig))
		return;
	if (!fast_leave(t, mem_bind(p->pid, p->memfd), regs))
		f->signalled_inside = true;
}

void fast_unmap(struct task *t, const struct arch_regs *saved)
{
	struct process *p = process_mem(t->proc);
	struct fastrec *f = mapped(p);
	long ret;
	if (!f || f->signalled_inside || p->vfork_parent)
		return;
	long args[6] = { (long)f->base, (long)f->l.size };
	/* A failure leaves the region mapped, unreachable. */
	if (tracee_inject_syscall(t, saved, SYS_munmap, args, &ret) == 0 &&
	    ret == 0)
		f->base = 0;
}

void fast_detach(struct process *p)
{
	struct fastrec *f = mapped(p);
	if (!f || p->vfork_parent || p->memfd < 0)
		return;
	drain(p);
	for (uint32_t i = 0; i < f->nfunc; i++)
		(void)mem_write(p->memfd, f->got[i], &f->target[i],
				sizeof(f->target[i]));
	task_foreach(step_out, p);
	drain(p);
	uint64_t size = rec_shadow_size(f->l.depth);
	uint64_t ret_tramp = f->base + f->l.blob + rec_blob_return;
	for (uint32_t i = 0; i < f->l.nslot; i++)
		unhook_slot(p, f, f->base + f->l.shadow + i * size, ret_tramp);
}

/* ---- the drainer thread ---- */

static pthread_mutex_t big = PTHREAD_MUTEX_INITIALIZER;
static pthread_t drainer;
static volatile int drainer_stop;
static bool drainer_on;

void fast_lock(void)
{
	if (enabled)
		pthread_mutex_lock(&big);
}

void fast_unlock(void)
{
	if (enabled)
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
	if (!enabled)
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
	if (!enabled)
		return;
	fast_unlock();
	if (drainer_on) {
		__atomic_store_n(&drainer_stop, 1, __ATOMIC_RELEASE);
		(void)syscall(SYS_futex, (int *)&drainer_stop,
			      FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		pthread_join(drainer, NULL);
		drainer_on = false;
	}
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
		  handed_over, records, thread_drains, thread_syscalls,
		  range_reads, copy_faults, leave_runs, leave_steps);
}
