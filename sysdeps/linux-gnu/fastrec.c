/* --fast: the state the tracer keeps of each process's recorder
 * (fastrec.h), and what the other fast*.c files read and write with it:
 * the traced process's memory, the threads its records name by their
 * TLS pointer, and the readable ranges' table in its region, with the
 * pages where direct copies faulted (fasttrap.c, fast_fault).  Calls no
 * other fast*.c file. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "debug.h"
#include "fast.h"
#include "fastrec.h"
#include "mem.h"
#include "proc.h"
#include "readable.h"
#include "recorder/recblob.h"
#include "recregs.h"
#include "tracee.h"
#include "xmalloc.h"

/* The readable ranges' table is read again while the recorder's copies
 * miss it, at most every FAST_RANGES_WAIT or 16 times what the last
 * reading took, whichever is longer (the reading is 1/16 of the time at
 * most), and up to FAST_RANGES_SLOW apart when a reading changes
 * nothing (what they miss is no plain memory: a device's mapping, the
 * vDSO).  A copy that misses goes by system call, about 1 us: the heap
 * a program's first malloc makes after the table's first reading was
 * missed for 10 ms, 4000 strlen calls' worth at the start of each run. */
#define FAST_RANGES_WAIT (1000ull * 1000)
#define FAST_RANGES_SLOW (1000ull * 1000 * 1000)

/* ---- the recorder's state ---- */

bool fastrec_enabled;
struct fastrec_stats fastrec_stats;

struct fastrec *fastrec_of(struct process *p)
{
	if (!p->fast) {
		p->fast = xmalloc(sizeof(*p->fast));
		memset(p->fast, 0, sizeof(*p->fast));
	}
	return p->fast;
}

struct fastrec *fastrec_mapped(const struct process *p)
{
	return p && p->fast && p->fast->base ? p->fast : NULL;
}

uint64_t fastrec_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the traced process's memory ---- */

/* One gathered read of the traced process PID.  A process that made
 * itself non-dumpable (setuid, prctl) refuses process_vm_readv: its
 * /proc/PID/mem, opened while it could be, is read instead, a span at a
 * time. */
ssize_t fastrec_gather(pid_t pid, const struct iovec *l, size_t nl,
		       const struct iovec *r, size_t nr)
{
	ssize_t n = mem_gather(pid, l, nl, r, nr);
	if (n >= 0 || n == -ESRCH || nl != nr)
		return n;
	const struct process *p = process_first();
	while (p && (p->pid != pid || p->vfork_parent))
		p = p->next;
	if (!p || p->procmem < 0)
		return n;
	n = 0;
	for (size_t i = 0; i < nl; i++) {
		ssize_t k = pread(p->procmem, l[i].iov_base, l[i].iov_len,
				  (off_t)(uintptr_t)r[i].iov_base);
		if (k < 0)
			return n ? n : -errno;
		n += k;
		if ((size_t)k < l[i].iov_len)
			break;
	}
	return n;
}

int fastrec_read(pid_t pid, uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len };
	struct iovec r = { (void *)(uintptr_t)addr, len };
	return fastrec_gather(pid, &l, 1, &r, 1) == (ssize_t)len ? 0 : -EFAULT;
}

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

/* Write the table of the recorder F in the process of PROCMEM as the
 * recorder reads it (ring.h): the sequence word odd, the N entries of R
 * and their count, the word even.  A write that fails leaves the word
 * odd: every copy then goes by system call. */
static void ranges_write(int procmem, struct fastrec *f,
			 const struct rec_range *r, uint64_t n)
{
	uint64_t seq = (f->range_seq + 1) | 1;
	if (mem_write(procmem, FASTREC_FIELD(f, range_seq), &seq, sizeof(seq)))
		return;
	f->range_seq = seq;
	if ((n &&
	     mem_write(procmem, f->base + f->l.ranges, r, n * sizeof(*r))) ||
	    mem_write(procmem, FASTREC_FIELD(f, nrange), &n, sizeof(n)))
		return;
	seq++;
	if (mem_write(procmem, FASTREC_FIELD(f, range_seq), &seq,
		      sizeof(seq)) == 0)
		f->range_seq = seq;
}

void fastrec_ranges_refresh(struct process *p, struct fastrec *f)
{
	char path[64];
	uint64_t start = fastrec_mono_ns();
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->pid);
	FILE *m = fopen(path, "re");
	if (!m)
		return;
	long n = readable_ranges(m, range_buf, REC_NRANGE, f->base,
				 f->base + f->l.size, f->bad,
				 f->nbad < FAST_BAD ? f->nbad : FAST_BAD);
	fclose(m);
	fastrec_stats.range_reads++;
	if (n < 0)
		return;
	uint64_t sum = ranges_hash(range_buf, (size_t)n);
	bool same = f->range_seq && !(f->range_seq & 1) && sum == f->ranges_sum;
	uint64_t now = fastrec_mono_ns(), least = 16 * (now - start);
	if (least < FAST_RANGES_WAIT)
		least = FAST_RANGES_WAIT;
	f->ranges_wait = same ? 2 * f->ranges_wait : least;
	if (f->ranges_wait < least)
		f->ranges_wait = least;
	if (f->ranges_wait > FAST_RANGES_SLOW)
		f->ranges_wait = FAST_RANGES_SLOW;
	f->ranges_next = now + f->ranges_wait;
	if (same)
		return;
	f->ranges_sum = sum;
	ranges_write(p->procmem, f, range_buf, (uint64_t)n);
	debug_msg(DEBUG_GENERAL, "--fast: process %d: %ld readable ranges",
		  (int)p->pid, n);
}

void fastrec_ranges_check(struct process *p, struct fastrec *f,
			  uint64_t misses_now)
{
	if (misses_now == f->range_misses || fastrec_mono_ns() < f->ranges_next)
		return;
	f->range_misses = misses_now;
	fastrec_ranges_refresh(p, f);
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
	if (fastrec_enabled && t->proc && tcb)
		learn(fastrec_of(process_mem(t->proc)), t->tid, tcb);
}

void fast_stopped(struct task *t)
{
	struct arch_regs r;
	if (fastrec_enabled && t->proc && tracee_get_regs(t->tid, &r) == 0)
		fast_learn(t, &r);
}

static int read_word(pid_t pid, uint64_t addr, uint64_t *w)
{
	return fastrec_read(pid, addr, w, sizeof(*w));
}

void fast_clone(struct task *t, pid_t child)
{
	struct fastrec *f = fastrec_enabled && t->proc ?
				    fastrec_of(process_mem(t->proc)) :
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

struct task *fastrec_task_of(struct process *p, struct fastrec *f, uint64_t tcb)
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
