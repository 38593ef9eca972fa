/* --fast: the records shown (DESIGN.md, "Fast mode", Formatting and
 * Times).  A record copied from a ring becomes registers (recregs.h)
 * and a recmem, and goes to calls.c as a stop of the task it names
 * would, at the time its time stamp maps to.  Called by fastdrain.c. */
#include <stdio.h>
#include <string.h>

#include "arch.h"
#include "bpt.h"
#include "callsite.h"
#include "calls.h"
#include "debug.h"
#include "error.h"
#include "fastrec.h"
#include "output.h"
#include "proc.h"
#include "recmem.h"
#include "recorder/ring.h"
#include "recregs.h"

/* Reads of traced memory that no copy of a record held. */
static unsigned long misses;

/* ---- the records' times ---- */

/* The records' cycle counter (recregs.h) to CLOCK_MONOTONIC, by two
 * points: at the start and at the last drain (the counter is constant
 * and shared by the CPUs, checked at the start). */
static bool use_tsc;
/* The options show times (fastshow_init's TIMED, the output's
 * output_timed): else a record's time is not worked out at all. */
static bool timed_records;
static uint64_t tsc0, mono0, tsc1, mono1;

void fastshow_clock_point(void)
{
	tsc1 = recregs_cycles();
	mono1 = fastrec_mono_ns();
}

/* The time of the record shown last. */
static uint64_t last_shown;

/* The output clock at the time stamp TSC of a record.  The mapping is
 * a line through two points, so it is off by a little, which must not
 * show as time going back or past the drain: the time is kept between
 * the last one shown (record or stop) and the drain's. */
static void set_time(uint64_t tsc)
{
	if (!timed_records || !output_timed() || !use_tsc || !tsc ||
	    tsc1 <= tsc0)
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

bool fastshow_init(bool timed)
{
	timed_records = timed;
	use_tsc = recregs_cycles_constant();
	if (timed && !use_tsc) {
		error_msg("--fast: this CPU's time stamp counter is not "
			  "constant; timing needs ptrace mode");
		return false;
	}
	tsc0 = recregs_cycles();
	mono0 = fastrec_mono_ns();
	fastshow_clock_point();
	return true;
}

unsigned long fastshow_misses(void)
{
	return misses;
}

/* ---- formatting records ---- */

/* The floating point registers of the record being shown, made from
 * its floating point bytes only when the fetch code asks (a float argument or
 * return value): a call's are in a chunk of its recmem, a return's
 * first one in the record. */
static struct arch_fpregs rec_fp;
static const struct recmem *rec_mem;
static const void *rec_fpr;
static size_t rec_fpr_len;
static bool rec_fp_made, rec_fp_ok;

static const void *record_fpregs(struct callsite *cs)
{
	unsigned char fpr[128];
	const void *from = rec_fpr;
	size_t len = rec_fpr_len;

	(void)cs;
	if (rec_fp_made)
		return rec_fp_ok ? &rec_fp.f : NULL;
	rec_fp_made = true;
	if (!from && recmem_fpr(rec_mem, fpr)) {
		from = fpr;
		len = sizeof(fpr);
	}
	rec_fp_ok = from != NULL;
	if (rec_fp_ok)
		recregs_fpr(&rec_fp, from, len);
	return rec_fp_ok ? &rec_fp.f : NULL;
}

/* The record to be shown next keeps its floating point registers in MEM's chunks
 * (XMM NULL) or in the LEN bytes at XMM. */
static void record_fpregs_from(const struct recmem *mem, const void *fpr,
			       size_t len)
{
	rec_mem = mem;
	rec_fpr = fpr;
	rec_fpr_len = len;
	rec_fp_made = false;
}

/* ---- lookups kept within a drain ---- */

/* The breakpoints of functions (by table index, modulo) and the task
 * of the last TLS pointer that records named in this drain: a record's
 * hash lookups cost as much as the rest of its conversion. */
#define SEEN_FUNCS 64
static struct {
	const struct fastrec *f;
	uint32_t func;
	struct breakpoint *b;
} seen_func[SEEN_FUNCS];
static struct {
	const struct process *p;
	const struct fastrec *f;
	uint64_t tcb;
	struct task *t;
} seen_task;

void fastshow_batch(void)
{
	memset(seen_func, 0, sizeof(seen_func));
	memset(&seen_task, 0, sizeof(seen_task));
}

/* The breakpoint of F's function FUNC (its stub's), or NULL. */
static struct breakpoint *func_bpt(struct process *p, struct fastrec *f,
				   uint32_t func)
{
	if (func >= f->nfunc)
		return NULL;
	__typeof__(seen_func[0]) *s = &seen_func[func % SEEN_FUNCS];
	if (s->f != f || s->func != func || !s->b) {
		s->f = f;
		s->func = func;
		s->b = bpt_lookup(&p->bpts, f->stub[func]);
	}
	return s->b;
}

/* The task of P (recorder F) whose TLS pointer is TCB, or NULL. */
static struct task *tcb_task(struct process *p, struct fastrec *f, uint64_t tcb)
{
	if (seen_task.t && seen_task.p == p && seen_task.f == f &&
	    seen_task.tcb == tcb)
		return seen_task.t;
	struct task *t = fastrec_task_of(p, f, tcb);
	seen_task.p = p;
	seen_task.f = f;
	seen_task.tcb = tcb;
	seen_task.t = t;
	return t;
}

/* The registers of the record being shown, zero at first: a call's and
 * a return's conversions (recregs.h) write the same few registers each
 * time, so the others stay zero without a memset per record. */
static struct arch_regs call_regs, return_regs;

static void fastshow_call(struct process *p, struct fastrec *f,
			  const struct rec_call *c, struct memsrc *live)
{
	struct breakpoint *b = func_bpt(p, f, c->func);
	struct task *t = tcb_task(p, f, c->thread);
	if (!b || !t)
		return;
	struct arch_regs *regs = &call_regs;
	struct recmem rm;
	size_t used = c->used <= c->h.size - sizeof(*c) ? c->used : 0;
	recregs_call_set(regs, c, f->target[c->func]);
	recmem_init(&rm, c + 1, used);
	if (c->h.flags & REC_CALL_LIVE)
		rm.live = live;
	record_fpregs_from(&rm, NULL, 0);
	struct callsite cs = { .mem = &rm.mem,
			       .regs = &regs->r,
			       .fpregs = record_fpregs,
			       .at_entry = true,
			       .target = f->target[c->func],
			       .tid = t->tid };
	set_time(c->tsc);
	call_entry(t, b, &cs, c->site, arch_sp_after_return(regs),
		   task_prints(t));
	struct frame *fr = &t->frames[t->nframes - 1];
	fr->unhooked = (c->h.flags & REC_CALL_NOSHADOW) != 0;
	fr->recorded = !fr->unhooked;
	misses += rm.misses;
}

/* A return record as a stop: the errno the recorder read there. */
struct rec_stop {
	struct callsite cs;
	int err;
	bool known;
};

static bool record_errno(struct callsite *cs, int *out)
{
	const struct rec_stop *s = (const struct rec_stop *)cs;
	*out = s->err;
	return s->known;
}

/* Whether E, an errno the program's memory gave, is one the kernel
 * could have set (0 up to its MAX_ERRNO, 4095). */
static bool errno_ok(int32_t e)
{
	return e >= 0 && e < 4096;
}

/* R's errno into S (read once from the tracer's copy: the program
 * wrote it) and, read at the entry, into the frame F of its call. */
static void record_errnos(const struct rec_return *r, struct rec_stop *s,
			  struct frame *f)
{
	uint16_t flags = r->h.flags;
	int32_t err = r->err, entry = r->err_entry;
	s->err = err;
	s->known = (flags & REC_RETURN_ERRNO) && errno_ok(err);
	s->cs.thread_errno = record_errno;
	if ((flags & REC_RETURN_ERRNO_ENTRY) && errno_ok(entry)) {
		f->errno_entry = entry;
		f->errno_entry_known = true;
	}
}

static void fastshow_return(struct process *p, struct fastrec *f,
			    const struct rec_return *r, struct memsrc *live)
{
	struct task *t = tcb_task(p, f, r->thread);
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
	struct arch_regs *regs = &return_regs;
	struct recmem rm;
	size_t used = r->used <= r->h.size - sizeof(*r) ? r->used : 0;
	recregs_return_set(regs, r);
	recmem_init(&rm, r + 1, used);
	if (r->h.flags & REC_RETURN_LIVE)
		rm.live = live;
	record_fpregs_from(&rm, r->fret, sizeof(r->fret));
	struct rec_stop st = { .cs = { .mem = &rm.mem,
				       .regs = &regs->r,
				       .fpregs = record_fpregs,
				       .tid = t->tid } };
	record_errnos(r, &st, &t->frames[i]);
	set_time(r->tsc);
	fastbt_return(t, (size_t)i, &st.cs, r);
	misses += rm.misses;
}

void fastshow_record(struct process *p, struct fastrec *f,
		     const struct rec_hdr *h, struct memsrc *live)
{
	if (h->type == REC_CALL && h->size >= sizeof(struct rec_call))
		fastshow_call(p, f, (const struct rec_call *)h, live);
	else if (h->type == REC_RETURN && h->size >= sizeof(struct rec_return))
		fastshow_return(p, f, (const struct rec_return *)h, live);
}
