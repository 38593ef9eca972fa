/* Unit test of the --fast recorder blob (recorder/recorder.c,
 * x86_64/recentry.S, built into recblob.c by mkblob).
 *
 * The test plays both sides in its own process: it maps the blob (code
 * RX, data RW) as the tracer would in a traced one, fills the function
 * table, writes entry trampolines (rectramp.c) and calls real functions
 * through a "GOT" of pointers to them: strlen, a function of 8 integer
 * arguments (2 on the stack), functions of doubles and varargs, nested
 * traced calls, a longjmp out of a traced call, threads, and a signal
 * handler interrupting traced calls.  It drains the ring as the tracer
 * will (records in order while their commit word is right, then the
 * tail), from a SIGTRAP handler at the full-ring int3 and at the end,
 * and checks every record against what the calls were and returned.
 * Prints the cost per recorded call of strlen. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "../check.h"
#include "readable.h"
#include "recorder/plan.h"
#include "recorder/planrun.h"
#include "recorder/recblob.h"
#include "recorder/reclayout.h"
#include "recorder/recread.h"
#include "recorder/ring.h"
#include "recregs.h"
#include "rectramp.h"

#define PAGE 4096UL
#define RING_MAX (16UL << 20)
#define NSHADOW 16
#define DEPTH 64
#define NTHREAD 4
#define MAXPEND 256

enum func {
	F_STRLEN,
	F_ADD8,
	F_HYP,
	F_VSUM,
	F_OUTER,
	F_JUMPER,
	F_PROBE,
	F_TAILER,
	F_WIDE,
	F_PAIR,
	F_DRAINED,
	F_LOSE,
	F_RECURSE,
	F_FILL,
	F_TAILFILL,
	F_SETERR,
	NFUNC,
};

/* The recorder's mapping (reclayout.h) in this process. */
struct recmap {
	struct rec_layout l;
	uint8_t *base;
	uint8_t *blob;
	struct rec_shared *sh;
	struct rec_func *ftab;
	struct plan_op *plans;
	uint8_t *shadow;
	uint8_t *data;
};

/* The program's view: the GOT its calls go through. */
static void *volatile got[NFUNC];
static struct recmap *cur;

/* What the drain saw. */
struct pending {
	uint64_t pos, sp, site, func, expect;
	bool tail; /* a tail call of the one under it: returns with it */
};
struct thread_model {
	uint64_t thread;
	int depth;
	struct pending p[MAXPEND];
};
static struct {
	struct thread_model t[NTHREAD + 2];
	int nthread;
	uint64_t calls[NFUNC], returns[NFUNC], records, pads, unwound;
	uint64_t full_traps, syncs, lost;
	/* tailfill has a return plan (test_rplan). */
	bool tailfill_plan;
	/* The last return's errno fields (test_errno). */
	int32_t err, err_entry;
	uint16_t err_flags;
	/* The last return's stack part of each function, and its last
	 * call's stack pointer and site (test_stack). */
	struct rec_stack stack[NFUNC];
	uint64_t stack_bytes[NFUNC][64];
	uint64_t call_sp[NFUNC], call_site[NFUNC];
	/* The (type, func) of the first records, for the nesting test. */
	int log[16];
	int nlog;
	volatile int lock;
} seen;

/* An empty ring of SIZE bytes, no thread's shadow stack, nothing seen. */
static void rec_reset(struct recmap *m, uint64_t size)
{
	rec_shared_init(m->sh, &m->l, (uint64_t)m->base, (uint64_t)getpid());
	memset(m->data, 0, size);
	memset(m->shadow, 0, m->l.data - m->l.shadow);
	m->sh->size = size;
	m->sh->max_record = size / 4 < 65536 ? size / 4 : 65536;
	memset(&seen, 0, sizeof(seen));
}

/* Map the blob as the tracer will (reclayout.h). */
static int rec_map(struct recmap *m)
{
	if (rec_layout_init(&m->l, NFUNC, NFUNC * 16 * sizeof(struct plan_op),
			    NSHADOW, DEPTH, RING_MAX))
		return -1;
	m->base = mmap(NULL, m->l.size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->base == MAP_FAILED)
		return -1;
	m->blob = m->base + m->l.blob;
	memcpy(m->blob, rec_blob, rec_blob_size);
	for (uint32_t i = 0; i < NFUNC; i++) {
		uint8_t *at = m->base + m->l.tramp + i * REC_TRAMP_SIZE;
		if (rec_tramp_write(at, (uint64_t)at, i,
				    (uint64_t)m->blob + rec_blob_entry))
			return -1;
	}
	if (mprotect(m->base, m->l.rw, PROT_READ | PROT_EXEC))
		return -1;
	m->sh = (struct rec_shared *)(m->base + m->l.rw);
	m->ftab = (struct rec_func *)(m->base + m->l.ftab);
	m->plans = (struct plan_op *)(m->base + m->l.plans);
	m->shadow = m->base + m->l.shadow;
	m->data = m->base + m->l.data;
	rec_reset(m, RING_MAX);
	CHECK(m->sh == (struct rec_shared *)(m->blob + rec_blob_rw));
	return 0;
}

/* Function I goes to TARGET through its trampoline. */
static void rec_func(struct recmap *m, int i, void *target, uint32_t flags)
{
	m->ftab[i].target = (uint64_t)target;
	m->ftab[i].plan = 0;
	m->ftab[i].bound = 0;
	m->ftab[i].rplan = 0;
	m->ftab[i].rbound = 0;
	m->ftab[i].flags = flags;
	got[i] = m->base + m->l.tramp + i * REC_TRAMP_SIZE;
}

/* Function I runs PLAN (at most 8 instructions). */
static void rec_plan(struct recmap *m, int i, const struct plan_op *plan,
		     size_t n)
{
	struct plan_op *p = m->plans + 8 * i;
	memcpy(p, plan, n * sizeof(*plan));
	m->ftab[i].plan = (uint64_t)p;
	m->ftab[i].bound = (uint32_t)plan_bound(p);
}

/* Function I runs PLAN at its hooked returns (at most 8 instructions,
 * after the entry plan's 8). */
static void rec_rplan(struct recmap *m, int i, const struct plan_op *plan,
		      size_t n)
{
	struct plan_op *p = m->plans + 8 * NFUNC + 8 * i;
	memcpy(p, plan, n * sizeof(*plan));
	m->ftab[i].rplan = (uint64_t)p;
	m->ftab[i].rbound = (uint32_t)plan_bound(p);
}

/* The functions called through the GOT. */

/* N 'x's and a NUL into BUF; returns BUF + 1. */
__attribute__((noinline)) static char *fill(char *buf, long n)
{
	for (long i = 0; i < n; i++)
		buf[i] = 'x';
	buf[n] = 0;
	return buf + 1;
}

/* Its call of fill is a tail call. */
__attribute__((noinline)) static char *tailfill(char *buf, long n)
{
	return ((char *(*)(char *, long))got[F_FILL])(buf, n);
}

__attribute__((noinline)) static long add8(long a, long b, long c, long d,
					   long e, long f, long g, long h)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

__attribute__((noinline)) static double hyp(double x, double y, long k)
{
	return x * y + (double)k;
}

__attribute__((noinline)) static double vsum(long n, ...)
{
	va_list ap;
	double sum = 0;
	va_start(ap, n);
	for (long i = 0; i < n; i++)
		sum += va_arg(ap, double);
	va_end(ap);
	return sum;
}

__attribute__((noinline)) static long outer(const char *s)
{
	return ((size_t(*)(const char *))got[F_STRLEN])(s) + 1;
}

/* Returned in rax:rdx. */
__attribute__((noinline)) static unsigned __int128 wide(uint64_t a)
{
	return (unsigned __int128)a << 64 | ~a;
}

/* Returned in xmm0:xmm1. */
struct pair {
	double x, y;
};
__attribute__((noinline)) static struct pair pair(double x)
{
	return (struct pair){ x + 1, x * 2 };
}

/* Recorded with REC_FN_DRAIN: the tracer read its call before it
 * ran. */
__attribute__((noinline)) static uint64_t drained(void)
{
	return seen.calls[F_DRAINED];
}

static uint64_t tcb(void)
{
	uint64_t v;
	__asm__ volatile("mov %%fs:0, %0" : "=r"(v));
	return v;
}

/* Frees its own thread's shadow stack, as a tracer that lost track of the
 * thread would: its return finds no shadow entry. */
__attribute__((noinline)) static long lose(long v)
{
	for (int i = 0; i < NSHADOW; i++) {
		struct rec_shadow *sh =
			(void *)(cur->shadow + i * rec_shadow_size(DEPTH));
		if (sh->owner == tcb()) {
			sh->state = sh->pending = 0;
			sh->owner = REC_SHADOW_FREE;
		}
	}
	return v * 3;
}

/* N calls deep through the GOT. */
__attribute__((noinline)) static long recurse(long n)
{
	long r = n ? ((long (*)(long))got[F_RECURSE])(n - 1) + 1 : 0;
	__asm__ volatile("" ::: "memory");
	return r;
}

/* Its call of strlen is a tail call (a jmp through the GOT). */
__attribute__((noinline)) static size_t tailer(const char *s)
{
	return ((size_t(*)(const char *))got[F_STRLEN])(s);
}

__attribute__((noinline)) static void jumper(jmp_buf *jb)
{
	longjmp(*jb, 1);
}

__attribute__((noinline)) static uint64_t probe(void)
{
	return (uint64_t)__builtin_return_address(0);
}

/* What each call should return, from its registers. */
static uint64_t expect_add8(const uint64_t *r)
{
	long a = r[0], b = r[1], c = r[2], d = r[3], e = r[4], f = r[5];
	return add8(a, b, c, d, e, f, a + b, c * 2);
}

static double expect_hyp(long k)
{
	return hyp(k * 0.5, k * 0.25, k);
}

static uint64_t bits(double d)
{
	uint64_t v;
	memcpy(&v, &d, 8);
	return v;
}

/* The chunks of a strlen call with the CSTR plan: one, the string. */
static void check_cstr_chunk(const struct rec_call *r)
{
	const struct plan_chunk *c = (const void *)(r + 1);
	const char *s = (const char *)r->regs[REC_RDI];
	size_t n = strlen(s) + 1;
	CHECK(r->used == plan_chunk_size(n), "chunks of %u bytes", r->used);
	CHECK(c->addr == (uint64_t)s && c->len == n && c->wanted == n);
	CHECK(!memcmp(c + 1, s, n), "chunk bytes differ");
}

/* add8's stack words with the PLAN_STACK plan: the return address,
 * then g and h. */
static void check_stack_chunk(const struct rec_call *r)
{
	const struct plan_chunk *c = (const void *)(r + 1);
	const uint64_t *w = (const uint64_t *)(c + 1);
	CHECK(c->addr == r->sp && c->len == 24);
	CHECK(w[0] == r->site && w[1] == r->regs[0] + r->regs[1] &&
	      w[2] == r->regs[2] * 2);
}

static uint64_t check_call(const struct rec_call *r)
{
	const uint64_t *g = r->regs;
	switch (r->func) {
	case F_STRLEN:
		if (r->used)
			check_cstr_chunk(r);
		return strlen((const char *)g[REC_RDI]);
	case F_ADD8:
		if (r->used)
			check_stack_chunk(r);
		return expect_add8(g);
	case F_HYP:
		return bits(expect_hyp(g[REC_RDI]));
	case F_VSUM:
		/* al: the number of vector registers used (psABI). */
		CHECK((g[REC_RAX] & 0xff) == g[REC_RDI], "al %lu for %lu",
		      g[REC_RAX] & 0xff, g[REC_RDI]);
		return bits(g[REC_RDI] * (g[REC_RDI] + 1) / 2.0);
	case F_OUTER:
		return strlen((const char *)g[REC_RDI]) + 1;
	case F_TAILER:
		return strlen((const char *)g[REC_RDI]);
	case F_WIDE:
	case F_FILL:
	case F_TAILFILL:
		return g[REC_RDI];
	}
	return 0;
}

/* The chunks of fill's return plan: the string its buffer holds at the
 * return (before the call, it held something else), then the one at
 * the pointer returned.  With TAIL, tailfill's after them, which ended
 * with its tail call of fill and returns with it: the buffer's. */
static void check_fill_chunks(const struct rec_return *r, uint64_t buf,
			      bool tail)
{
	const struct plan_chunk *c = (const void *)(r + 1);
	size_t n = c->len;
	uint64_t fill = plan_chunk_size(n) + plan_chunk_size(n - 1);
	/* the slack past the chunks, REC_SLACK_KEEP bytes at most, stays */
	CHECK(r->h.size >= rec_align(sizeof(*r) + r->used) &&
	      r->h.size - rec_align(sizeof(*r) + r->used) <= REC_SLACK_KEEP);
	CHECK(r->ret[0] == buf + 1 && c->addr == buf && n >= 1 &&
	      c->wanted == n &&
	      r->used == fill + (tail ? plan_chunk_size(n) : 0));
	if (tail && r->used > fill)
		CHECK(!memcmp((const char *)c + fill, c, plan_chunk_size(n)),
		      "tailfill's chunk differs");
	const char *b = (const char *)(c + 1);
	for (size_t i = 0; i + 1 < n; i++)
		CHECK(b[i] == 'x', "byte %zu of %zu: %#x", i, n, b[i]);
	CHECK(b[n - 1] == 0);
	const struct plan_chunk *c2 =
		(const void *)((const char *)c + plan_chunk_size(n));
	CHECK(c2->addr == buf + 1 && c2->len == n - 1 &&
	      !memcmp(c2 + 1, b + 1, n - 1));
}

/* The bytes a return record R takes: its stack part (REC_OPT_STACK)
 * checked and kept in seen. */
static uint64_t check_stack(const struct rec_return *r)
{
	uint64_t off = rec_align(sizeof(*r) + r->used);
	bool on = cur->sh->options & REC_OPT_STACK;
	CHECK(!(r->h.flags & REC_RETURN_STACK) == !on);
	if (!on || r->func >= NFUNC)
		return off;
	const struct rec_stack *k = (const void *)((const char *)r + off);
	CHECK(k->sp == r->sp && k->len <= k->wanted &&
	      k->wanted <= cur->sh->stack_copy);
	seen.stack[r->func] = *k;
	memcpy(seen.stack_bytes[r->func], k + 1,
	       k->len < sizeof(seen.stack_bytes[0]) ?
		       k->len :
		       sizeof(seen.stack_bytes[0]));
	return rec_align(off + sizeof(*k) + k->len);
}

static void check_return(const struct rec_return *r, const struct pending *p)
{
	uint64_t xmm0;
	memcpy(&xmm0, r->fret, 8);
	switch (p->func) {
	case F_STRLEN:
	case F_ADD8:
	case F_OUTER:
	case F_TAILER:
		CHECK(r->ret[0] == p->expect, "func %lu returned %lu, want %lu",
		      p->func, r->ret[0], p->expect);
		break;
	case F_HYP:
	case F_VSUM:
		CHECK(xmm0 == p->expect, "func %lu: xmm0 %lx, want %lx",
		      p->func, xmm0, p->expect);
		break;
	case F_WIDE:
		CHECK(r->ret[1] == p->expect && r->ret[0] == ~p->expect);
		break;
	case F_PROBE:
		/* probe saw the return trampoline as its return address. */
		CHECK(r->ret[0] == (uint64_t)cur->blob + rec_blob_return);
		break;
	case F_FILL:
		check_fill_chunks(r, p->expect, seen.tailfill_plan);
		break;
	}
	uint64_t end = check_stack(r);
	if (p->func != F_FILL)
		CHECK(r->used == 0 && r->h.size == end);
	CHECK(r->func == p->func && r->site == p->site && r->sp == p->sp + 8);
}

static struct thread_model *model_of(uint64_t thread)
{
	for (int i = 0; i < seen.nthread; i++)
		if (seen.t[i].thread == thread)
			return &seen.t[i];
	if (seen.nthread == NTHREAD + 2) {
		FAIL("more threads than expected: %lx", thread);
		abort();
	}
	seen.t[seen.nthread].thread = thread;
	return &seen.t[seen.nthread++];
}

static void log_record(int type, uint32_t func)
{
	if (seen.nlog < 16)
		seen.log[seen.nlog++] = type * 100 + (int)func;
}

/* A call.  Returns name their call's position: the tracer pairs them
 * so, and drops the pending calls above the one a return ends (their
 * frames are gone; the recorder dropped them at a later entry already).
 * Pairing by stack pointer would go wrong: a synchronous record is read
 * before the ring's records that came before it. */
static void on_call(uint64_t pos, const struct rec_call *r)
{
	CHECK(r->func < NFUNC && r->thread && r->sp && r->site);
	CHECK(!r->tsc == !(cur->sh->options & REC_OPT_TSC));
	if (r->func >= NFUNC)
		return;
	seen.calls[r->func]++;
	seen.call_sp[r->func] = r->sp;
	seen.call_site[r->func] = r->site;
	log_record(REC_CALL, r->func);
	struct thread_model *m = model_of(r->thread);
	uint64_t expect = check_call(r);
	/* A tail call of a function with a return plan is hooked too, on
	 * top of the call it ended (same stack pointer and site). */
	if ((r->h.flags & REC_CALL_TAIL) && (r->h.flags & REC_CALL_HOOKED))
		CHECK(cur->ftab[r->func].rplan && m->depth &&
		      m->p[m->depth - 1].sp == r->sp &&
		      m->p[m->depth - 1].site == r->site);
	if (!(r->h.flags & REC_CALL_HOOKED))
		return;
	CHECK(m->depth < MAXPEND);
	if (m->depth < MAXPEND)
		m->p[m->depth++] = (struct pending){
			pos,	 r->sp,	 r->site,
			r->func, expect, (r->h.flags & REC_CALL_TAIL) != 0
		};
}

static void on_return(const struct rec_return *r)
{
	seen.returns[r->func < NFUNC ? r->func : 0]++;
	seen.err = r->err;
	seen.err_entry = r->err_entry;
	seen.err_flags = r->h.flags &
			 (REC_RETURN_ERRNO | REC_RETURN_ERRNO_ENTRY);
	log_record(REC_RETURN, r->func);
	struct thread_model *m = model_of(r->thread);
	int i = m->depth;
	while (i && m->p[i - 1].pos != r->call)
		i--;
	CHECK(i > 0, "a return of no pending call (call %lu)", r->call);
	if (!i)
		return;
	seen.unwound += m->depth - i;
	m->depth = i - 1;
	check_return(r, &m->p[i - 1]);
	/* The calls that tail-called it return with it, in this record. */
	for (bool tail = m->p[i - 1].tail; tail && m->depth; m->depth--)
		tail = m->p[m->depth - 1].tail;
}

static void read_record(uint64_t pos, const struct rec_hdr *h)
{
	seen.records += h->type != REC_PAD;
	switch (h->type) {
	case REC_PAD:
		seen.pads++;
		break;
	case REC_CALL:
		on_call(pos, (const struct rec_call *)h);
		break;
	case REC_RETURN:
		CHECK(h->size >= sizeof(struct rec_return));
		on_return((const struct rec_return *)h);
		break;
	default:
		FAIL("record type %u at %lu", h->type, pos);
	}
}

/* Read the committed records from the tail, then move the tail: what
 * the tracer does, with process_vm_readv and process_vm_writev. */
static void drain(void)
{
	while (__atomic_exchange_n(&seen.lock, 1, __ATOMIC_ACQUIRE))
		;
	struct rec_shared *s = cur->sh;
	uint64_t mask = s->size - 1;
	uint64_t t = s->tail;
	const struct rec_hdr *h;
	int ok;
	while ((ok = rec_record_at(cur->data, s->size, t, s->size, &h)) > 0) {
		read_record(t, h);
		t += h->size;
	}
	if (ok < 0) {
		FAIL("a bad record at %lu (offset %lu)", t, t & mask);
		abort();
	}
	__atomic_store_n(&s->tail, t, __ATOMIC_RELEASE);
	__atomic_store_n(&seen.lock, 0, __ATOMIC_RELEASE);
}

/* The last record handed over at rec_blob_trap_sync. */
static union {
	struct rec_hdr h;
	unsigned char b[sizeof(struct rec_call) + REC_SYNC_ROOM];
} last_sync;

/* A record handed over at rec_blob_trap_sync, after the ring's. */
static void read_sync(const struct rec_hdr *h)
{
	if (h->size <= sizeof(last_sync))
		memcpy(&last_sync, h, h->size);
	uint64_t pos = h->commit - 1;
	CHECK(pos & REC_SYNC_BIT);
	CHECK(h->size <= sizeof(struct rec_call) + REC_SYNC_ROOM);
	while (__atomic_exchange_n(&seen.lock, 1, __ATOMIC_ACQUIRE))
		;
	seen.syncs++;
	read_record(pos, h);
	__atomic_store_n(&seen.lock, 0, __ATOMIC_RELEASE);
}

/* A return with no shadow entry: what DESIGN.md says the tracer does,
 * resume at the site of the thread's pending call whose stack pointer is
 * rdi, with the value rec_return saved. */
static void on_lost(greg_t *g)
{
	drain();
	uint64_t sp = g[REG_RDI];
	struct thread_model *m = model_of(tcb());
	int i = m->depth;
	while (i && m->p[i - 1].sp != sp)
		i--;
	if (!i) {
		FAIL("a lost return of no pending call");
		abort();
	}
	g[REG_RIP] = m->p[i - 1].site;
	g[REG_RSP] = sp + 8;
	/* rec_return's frame: rax, rdx at its start (recregs.h). */
	g[REG_RAX] = *(uint64_t *)recregs_lost_saved(sp);
	g[REG_RDX] = *(uint64_t *)(recregs_lost_saved(sp) + 8);
	m->depth = i - 1;
	seen.lost++;
}

/* The tracer's side of the recorder's traps: a SIGTRAP just after the
 * int3 at rec_blob_trap_full (drain) or at rec_blob_trap_sync (drain,
 * then read the record at rdi). */
static void on_trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)si;
	greg_t *g = ((ucontext_t *)uc)->uc_mcontext.gregs;
	uint64_t ip = g[REG_RIP] - 1 - (uint64_t)cur->blob;
	if (ip == rec_blob_trap_lost) {
		on_lost(g);
		return;
	}
	if (ip != rec_blob_trap_full && ip != rec_blob_trap_sync) {
		FAIL("SIGTRAP at %llx", g[REG_RIP]);
		abort();
	}
	if (ip == rec_blob_trap_full)
		__atomic_fetch_add(&seen.full_traps, 1, __ATOMIC_RELAXED);
	drain();
	if (ip == rec_blob_trap_sync)
		read_sync((const struct rec_hdr *)g[REG_RDI]);
}

/* Everything recorded was read, and matches the recorder's counters. */
static void check_drained(const char *what)
{
	drain();
	struct rec_shared *s = cur->sh;
	CHECK(s->tail == s->head, "%s: tail %lu, head %lu", what, s->tail,
	      s->head);
	CHECK(s->records + s->syncs == seen.records,
	      "%s: %lu records, %lu read", what, s->records + s->syncs,
	      seen.records);
	uint64_t left = 0;
	for (int i = 0; i < seen.nthread; i++)
		left += seen.t[i].depth;
	CHECK(s->unwound == seen.unwound + left,
	      "%s: unwound %lu, tracer %lu + %lu left", what, s->unwound,
	      seen.unwound, left);
	/* The int3 at rec_blob_trap_full: a full ring, a drain, or a
	 * return left unhooked. */
	CHECK(s->full_traps + s->drains + s->unhooked == seen.full_traps &&
	      s->syncs == seen.syncs);
	for (int i = 0; i < seen.nthread; i++)
		CHECK(seen.t[i].depth == 0 || !strcmp(what, "longjmp"),
		      "%s: %d calls never returned", what, seen.t[i].depth);
}

static void all_functions(struct recmap *m, uint32_t flags)
{
	rec_func(m, F_STRLEN, (void *)strlen, flags);
	rec_func(m, F_ADD8, (void *)add8, flags);
	rec_func(m, F_HYP, (void *)hyp, flags);
	rec_func(m, F_VSUM, (void *)vsum, flags);
	rec_func(m, F_OUTER, (void *)outer, flags);
	rec_func(m, F_JUMPER, (void *)jumper, flags);
	rec_func(m, F_PROBE, (void *)probe, flags);
	rec_func(m, F_TAILER, (void *)tailer, flags);
	rec_func(m, F_WIDE, (void *)wide, flags);
	rec_func(m, F_PAIR, (void *)pair, flags);
	rec_func(m, F_DRAINED, (void *)drained, flags | REC_FN_DRAIN);
	rec_func(m, F_LOSE, (void *)lose, flags);
	rec_func(m, F_RECURSE, (void *)recurse, flags);
	rec_func(m, F_FILL, (void *)fill, flags);
	rec_func(m, F_TAILFILL, (void *)tailfill, flags);
}

#define CALL(f, type, ...) (((type)got[f])(__VA_ARGS__))

/* Calls of every shape return what the functions return: the
 * registers reach them unchanged, and the values reach the caller. */
static void calls_of_every_shape(void)
{
	static const char *strs[] = { "", "a", "hello, world", "0123456789" };
	for (int k = 0; k < 100; k++) {
		const char *s = strs[k % 4];
		CHECK(CALL(F_STRLEN, size_t(*)(const char *), s) == strlen(s));
		long a = k, b = -k, c = k * 3, d = 1L << 40, e = k ^ 5, f = 7;
		CHECK(CALL(F_ADD8,
			   long (*)(long, long, long, long, long, long, long,
				    long),
			   a, b, c, d, e, f, a + b,
			   c * 2) == add8(a, b, c, d, e, f, a + b, c * 2));
		CHECK(CALL(F_HYP, double (*)(double, double, long), k * 0.5,
			   k * 0.25, k) == expect_hyp(k));
		CHECK(CALL(F_VSUM, double (*)(long, ...), 3, 1.0, 2.0, 3.0) ==
		      6.0);
		CHECK(CALL(F_OUTER, long (*)(const char *), s) ==
		      (long)strlen(s) + 1);
		unsigned __int128 w =
			CALL(F_WIDE, unsigned __int128 (*)(uint64_t), k);
		CHECK(w == wide(k));
		struct pair p = CALL(F_PAIR, struct pair(*)(double), k);
		CHECK(p.x == k + 1 && p.y == k * 2);
	}
}

/* probe's record has the call site its caller's call returns to. */
__attribute__((noinline)) static uint64_t call_probe(void)
{
	uint64_t v = CALL(F_PROBE, uint64_t(*)(void));
	/* Not a tail call: the site is here. */
	__asm__ volatile("" ::: "memory");
	return v;
}

static void test_shapes(struct recmap *m, const char *where)
{
	cur = m;
	rec_reset(m, RING_MAX);
	all_functions(m, REC_FN_RETURNS);
	calls_of_every_shape();
	check_drained(where);
	for (int i = F_STRLEN; i <= F_PAIR; i++)
		if (i < F_JUMPER || i > F_TAILER)
			CHECK(seen.calls[i] == (i == F_STRLEN ? 200 : 100) &&
				      seen.returns[i] == seen.calls[i],
			      "%s: func %d: %lu calls, %lu returns", where, i,
			      seen.calls[i], seen.returns[i]);
	/* REC_FN_DRAIN: the tracer has the call before the function runs,
	 * and the trap is not counted as a full ring. */
	rec_reset(m, RING_MAX);
	CHECK(CALL(F_DRAINED, uint64_t(*)(void)) == 1);
	check_drained(where);
	CHECK(m->sh->drains == 1 && m->sh->full_traps == 0);
	/* A tail call from a hooked function: strlen's call is marked so,
	 * with tailer's site, and the one return is tailer's. */
	rec_reset(m, RING_MAX);
	CHECK(CALL(F_TAILER, size_t(*)(const char *), "abc") == 3);
	check_drained(where);
	CHECK(seen.nlog == 3 && seen.log[0] == 200 + F_TAILER &&
	      seen.log[1] == 200 + F_STRLEN && seen.log[2] == 300 + F_TAILER);
	struct rec_call *c1 = (void *)m->data;
	struct rec_call *c2 = (void *)(m->data + c1->h.size);
	CHECK((c2->h.flags & REC_CALL_TAIL) &&
	      !(c2->h.flags & REC_CALL_HOOKED) && c2->site == c1->site &&
	      c2->sp == c1->sp);
	/* Nesting: outer's call, strlen's call and return, outer's
	 * return. */
	rec_reset(m, RING_MAX);
	CALL(F_OUTER, long (*)(const char *), "abc");
	check_drained(where);
	CHECK(seen.nlog == 4 && seen.log[0] == 200 + F_OUTER &&
	      seen.log[1] == 200 + F_STRLEN && seen.log[2] == 300 + F_STRLEN &&
	      seen.log[3] == 300 + F_OUTER);
}

/* A return plan copies at the return, through the entry's argument
 * registers and the return value; a tail call's return runs the plan of
 * the function tail-called, with its arguments, and then the caller's,
 * with the caller's. */
static void test_rplan(struct recmap *m)
{
	static const struct plan_op rp[] = {
		{ .op = PLAN_ARG, .dst = 0, .a = 0 },
		{ .op = PLAN_CSTR, .src = 0, .a = 64 },
		{ .op = PLAN_ARG, .dst = 1, .a = PLAN_ARG_RET0 },
		{ .op = PLAN_CSTR, .src = 1, .a = 64 },
		{ .op = PLAN_END },
	};
	cur = m;
	rec_reset(m, RING_MAX);
	all_functions(m, REC_FN_RETURNS);
	rec_rplan(m, F_FILL, rp, 5);
	char buf[64];
	for (int k = 1; k < 40; k++) {
		memset(buf, 'o', sizeof(buf) - 1);
		buf[sizeof(buf) - 1] = 0;
		CHECK(CALL(F_FILL, char *(*)(char *, long), buf, k) == buf + 1);
		memset(buf, 'o', sizeof(buf) - 1);
		CHECK(CALL(F_TAILFILL, char *(*)(char *, long), buf, k) ==
		      buf + 1);
	}
	check_drained("rplan");
	CHECK(seen.calls[F_FILL] == 78 && seen.returns[F_FILL] == 78 &&
	      seen.calls[F_TAILFILL] == 39 && seen.returns[F_TAILFILL] == 0);
	rec_reset(m, RING_MAX);
	const struct plan_op rt[] = { rp[0], rp[1], { .op = PLAN_END } };
	rec_rplan(m, F_TAILFILL, rt, 3);
	seen.tailfill_plan = true;
	for (int k = 1; k < 40; k++) {
		memset(buf, 'o', sizeof(buf) - 1);
		CHECK(CALL(F_TAILFILL, char *(*)(char *, long), buf, k) ==
		      buf + 1);
	}
	check_drained("rplan, tail");
	CHECK(seen.calls[F_FILL] == 39 && seen.returns[F_FILL] == 39 &&
	      seen.calls[F_TAILFILL] == 39 && seen.returns[F_TAILFILL] == 0);
	all_functions(m, REC_FN_RETURNS);
}

/* The site in the record is the return address the callee sees when
 * the return is not hooked; hooked, the callee sees the trampoline. */
/* A return whose shadow entry is gone traps; the tracer's repair
 * returns to the caller with the value.  A recursion deeper than the
 * shadow stack leaves the deeper returns unhooked, not failed. */
/* Six values live across a lost return, in the six registers a callee
 * keeps (rbx rbp r12..r15): the repair resumes the caller with them as
 * they were, whatever the recorder did with them. */
__attribute__((noinline)) static int keeps_registers(long a)
{
	long v1 = a * 3, v2 = a ^ 0x55, v3 = a + 7, v4 = a * a, v5 = a - 9,
	     v6 = a << 3;
	__asm__ volatile(""
			 : "+r"(v1), "+r"(v2), "+r"(v3), "+r"(v4), "+r"(v5),
			   "+r"(v6));
	long r = CALL(F_LOSE, long (*)(long), a);
	__asm__ volatile(""
			 : "+r"(v1), "+r"(v2), "+r"(v3), "+r"(v4), "+r"(v5),
			   "+r"(v6));
	return r == 3 * a && v1 == a * 3 && v2 == (a ^ 0x55) && v3 == a + 7 &&
	       v4 == a * a && v5 == a - 9 && v6 == a << 3;
}

/* Sets errno to E and fails, as libc's functions do. */
__attribute__((noinline)) static long seterr(long e)
{
	errno = (int)e;
	return -1;
}

/* errno at the return, and at the entry, where the function's flags
 * ask and once the tracer set where it is: this thread's, the int at
 * its thread pointer plus libc's offset of it. */
static void test_errno(struct recmap *m)
{
	cur = m;
	rec_reset(m, RING_MAX);
	uint32_t both = REC_FN_RETURNS | REC_FN_ERRNO | REC_FN_ERRNO_ENTRY;
	rec_func(m, F_SETERR, (void *)seterr, both);
	errno = 5;
	CHECK(CALL(F_SETERR, long (*)(long), 7) == -1 && errno == 7);
	check_drained("errno unknown");
	CHECK(seen.returns[F_SETERR] == 1 && !seen.err_flags && !seen.err);
	m->sh->errno_off = (int64_t)((uint64_t)&errno - tcb());
	m->sh->options |= REC_OPT_ERRNO;
	errno = 5;
	CHECK(CALL(F_SETERR, long (*)(long), 7) == -1 && errno == 7);
	check_drained("errno");
	CHECK(seen.err_flags == (REC_RETURN_ERRNO | REC_RETURN_ERRNO_ENTRY) &&
		      seen.err == 7 && seen.err_entry == 5,
	      "flags %#x errno %d entry %d", seen.err_flags, seen.err,
	      seen.err_entry);
	rec_func(m, F_SETERR, (void *)seterr, REC_FN_RETURNS | REC_FN_ERRNO);
	CHECK(CALL(F_SETERR, long (*)(long), 9) == -1);
	check_drained("errno at return");
	CHECK(seen.err_flags == REC_RETURN_ERRNO && seen.err == 9 &&
	      !seen.err_entry);
	rec_func(m, F_SETERR, (void *)seterr, REC_FN_RETURNS);
	CHECK(CALL(F_SETERR, long (*)(long), 11) == -1);
	check_drained("no errno");
	CHECK(!seen.err_flags && !seen.err && !seen.err_entry);
	m->sh->options &= ~(uint64_t)REC_OPT_ERRNO;
}

static void test_lost(struct recmap *m)
{
	cur = m;
	rec_reset(m, RING_MAX);
	all_functions(m, REC_FN_RETURNS);
	CHECK(keeps_registers(14), "registers lost across a lost return");
	check_drained("lost registers");
	rec_reset(m, RING_MAX);
	CHECK(CALL(F_LOSE, long (*)(long), 14) == 42);
	CHECK(CALL(F_STRLEN, size_t(*)(const char *), "after") == 5);
	check_drained("lost");
	CHECK(seen.lost == 1 && seen.calls[F_LOSE] == 1 &&
	      seen.returns[F_LOSE] == 0 && seen.returns[F_STRLEN] == 1);
	rec_reset(m, RING_MAX);
	CHECK(CALL(F_RECURSE, long (*)(long), 99) == 99);
	check_drained("deep");
	CHECK(seen.calls[F_RECURSE] == 100 &&
	      seen.returns[F_RECURSE] == DEPTH &&
	      m->sh->unhooked == 100 - DEPTH);
}

/* A plan bound beyond max_record: a call whose copies do not fit in
 * the record's room is handed over at rec_blob_trap_sync with no chunk
 * of memory (REC_CALL_LIVE: the tracer reads it there), its room in the
 * ring given back; a bad pointer costs an empty chunk, not a fault. */
static void test_cut(struct recmap *m)
{
	cur = m;
	rec_reset(m, RING_MAX);
	all_functions(m, REC_FN_RETURNS);
	struct plan_op cstr[] = { { .op = PLAN_ARG, .dst = 0, .a = 0 },
				  { .op = PLAN_CSTR, .src = 0, .a = 1000 },
				  { .op = PLAN_END } };
	rec_plan(m, F_OUTER, cstr, 3);
	m->sh->max_record = sizeof(struct rec_call) + 64;
	static char big[2000];
	memset(big, 'x', sizeof(big) - 1);
	CHECK(CALL(F_OUTER, long (*)(const char *), big) == sizeof(big));
	/* probe ignores its argument, a pointer to nothing. */
	rec_plan(m, F_PROBE, cstr, 3);
	CALL(F_PROBE, uint64_t(*)(const char *), (const char *)16);
	drain();
	const struct rec_call *r = (const void *)&last_sync;
	const struct plan_chunk *c = (const void *)(r + 1);
	CHECK(r->h.type == REC_CALL && r->func == F_OUTER &&
	      (r->h.commit - 1) & REC_SYNC_BIT &&
	      (r->h.flags & REC_CALL_LIVE) && (r->h.flags & REC_CALL_CUT) &&
	      (!r->used ||
	       (r->used == plan_chunk_size(128) && c->addr == PLAN_FPR_ADDR)));
	/* The probe's call: after strlen's call and return and outer's
	 * return. */
	const struct rec_hdr *h = (const void *)m->data;
	for (int i = 0; i < 3 && h->size; i++)
		h = (const void *)((const char *)h + h->size);
	r = (const void *)h;
	CHECK(h->type == REC_CALL && r->func == F_PROBE);
	c = (const void *)(r + 1);
	CHECK(r->used == sizeof(*c) && c->addr == 16 && c->len == 0 &&
	      c->wanted != 0);
	check_drained("cut");
	memset(m->plans, 0, PAGE);
	all_functions(m, REC_FN_RETURNS);
}

static void test_site(struct recmap *m)
{
	cur = m;
	rec_reset(m, RING_MAX);
	rec_func(m, F_PROBE, (void *)probe, 0);
	uint64_t site = call_probe();
	rec_func(m, F_PROBE, (void *)probe, REC_FN_RETURNS);
	CHECK(call_probe() == (uint64_t)m->blob + rec_blob_return);
	drain();
	struct rec_call *r = (void *)m->data;
	struct rec_call *r2 = (void *)(m->data + r->h.size);
	CHECK(r->site == site && r2->site == site);
	CHECK(!(r->h.flags & REC_CALL_HOOKED) &&
	      (r2->h.flags & REC_CALL_HOOKED));
	check_drained("site");
	CHECK(seen.calls[F_PROBE] == 2 && seen.returns[F_PROBE] == 1);
}

__attribute__((noinline)) static void call_jumper(jmp_buf *jb)
{
	CALL(F_JUMPER, void (*)(jmp_buf *), jb);
}

/* A longjmp out of a hooked call leaves its shadow entry; the next call
 * from a frame above drops it. */
static void test_longjmp(struct recmap *m)
{
	cur = m;
	rec_reset(m, RING_MAX);
	all_functions(m, REC_FN_RETURNS);
	jmp_buf jb;
	if (!setjmp(jb))
		call_jumper(&jb);
	CHECK(CALL(F_STRLEN, size_t(*)(const char *), "after") == 5);
	check_drained("longjmp");
	CHECK(m->sh->unwound == 1 && seen.calls[F_JUMPER] == 1 &&
	      seen.returns[F_JUMPER] == 0 && seen.returns[F_STRLEN] == 1);
}

#define THREAD_CALLS 20000

static pthread_barrier_t threads_go;

static void *thread_main(void *arg)
{
	char s[32];
	snprintf(s, sizeof(s), "thread %ld", (long)arg);
	pthread_barrier_wait(&threads_go);
	for (int k = 0; k < THREAD_CALLS; k++) {
		if (CALL(F_STRLEN, size_t(*)(const char *), s) != strlen(s))
			FAIL("thread strlen");
		if (CALL(F_ADD8,
			 long (*)(long, long, long, long, long, long, long,
				  long),
			 k, 1, 2, 3, 4, 5, k + 1,
			 4) != add8(k, 1, 2, 3, 4, 5, k + 1, 4))
			FAIL("thread add8");
	}
	return NULL;
}

/* The table as the tracer writes it (ring.h): the sequence word odd,
 * the entries, the word even. */
static void set_ranges(struct recmap *m, const struct rec_range *r, uint64_t n)
{
	struct rec_range *t = (struct rec_range *)(m->base + m->l.ranges);
	m->sh->range_seq++;
	__asm__ volatile("" ::: "memory");
	memcpy(t, r, n * sizeof(*r));
	m->sh->nrange = n;
	__asm__ volatile("" ::: "memory");
	m->sh->range_seq++;
}

/* The table of this process's plain mappings, as the tracer reads it. */
static void self_ranges(struct recmap *m)
{
	static struct rec_range r[REC_NRANGE];
	FILE *f = fopen("/proc/self/maps", "re");
	long n = f ? readable_ranges(f, r, REC_NRANGE, (uint64_t)m->base,
				     (uint64_t)m->base + m->l.size, NULL, 0) :
		     -1;
	if (f)
		fclose(f);
	CHECK(n > 0);
	set_ranges(m, r, n > 0 ? (uint64_t)n : 0);
}

/* Calls FN(ARG) with rbx, rbp, r12..r15 set to 0x1b, 0x2b, 0x12..0x15. */
uint64_t kept_call(void *fn, const char *arg);
__asm__(".text\n"
	".type kept_call, @function\n"
	"kept_call:\n"
	"	push %rbx; push %rbp; push %r12; push %r13; push %r14\n"
	"	push %r15; sub $8, %rsp\n"
	"	mov $0x1b, %ebx; mov $0x2b, %ebp; mov $0x12, %r12d\n"
	"	mov $0x13, %r13d; mov $0x14, %r14d; mov $0x15, %r15d\n"
	"	mov %rdi, %rax; mov %rsi, %rdi; call *%rax\n"
	"	add $8, %rsp; pop %r15; pop %r14; pop %r13; pop %r12\n"
	"	pop %rbp; pop %rbx; ret\n"
	".size kept_call, . - kept_call\n");

/* -w (REC_OPT_STACK): a return record ends with the caller's kept
 * registers and a copy of its stack, in which the return addresses of
 * the hooked calls still pending are the original ones. */
static void test_stack(struct recmap *m)
{
	cur = m;
	rec_reset(m, RING_MAX);
	self_ranges(m);
	all_functions(m, REC_FN_RETURNS);
	m->sh->options |= REC_OPT_STACK;
	m->sh->stack_copy = 512;
	CHECK(kept_call(got[F_STRLEN], "kept") == 4);
	check_drained("stack: kept");
	const struct rec_stack *k = &seen.stack[F_STRLEN];
	CHECK(k->kept[REC_K_RBX] == 0x1b && k->kept[REC_K_RBP] == 0x2b &&
		      k->kept[REC_K_R12] == 0x12 &&
		      k->kept[REC_K_R13] == 0x13 &&
		      k->kept[REC_K_R14] == 0x14 && k->kept[REC_K_R15] == 0x15,
	      "kept %lx %lx %lx", k->kept[0], k->kept[1], k->kept[2]);
	CHECK(k->len == 512 && k->wanted == 512 && !m->sh->range_misses);
	/* strlen returns while outer is pending. */
	rec_reset(m, RING_MAX);
	self_ranges(m);
	m->sh->options |= REC_OPT_STACK;
	m->sh->stack_copy = 512;
	CHECK(CALL(F_OUTER, long (*)(const char *), "abc") == 4);
	check_drained("stack: nested");
	uint64_t at = seen.call_sp[F_OUTER] - k->sp;
	CHECK(k->len == 512 && seen.call_sp[F_OUTER] > k->sp && at % 8 == 0 &&
		      at < k->len && at / 8 < 64 &&
		      seen.stack_bytes[F_STRLEN][at / 8] ==
			      seen.call_site[F_OUTER],
	      "the copy holds %lx at outer's return address, want %lx",
	      at / 8 < 64 ? seen.stack_bytes[F_STRLEN][at / 8] : 0,
	      seen.call_site[F_OUTER]);
	m->sh->options &= ~(uint64_t)REC_OPT_STACK;
	m->sh->stack_copy = 0;
}

/* Threads at once through a small ring: it fills again and again, the
 * SIGTRAP handler drains it, and no record is lost.  PLAN 2: with the
 * plans, copying directly (the table read once the threads' stacks are
 * mapped). */
static void test_threads(struct recmap *m, int plan)
{
	cur = m;
	rec_reset(m, 16384);
	all_functions(m, REC_FN_RETURNS);
	/* Threads gone before: the tracer freed their shadow stacks, which the
	 * lookups pass and the claims take. */
	for (int i = 0; i < NSHADOW; i += 2)
		((struct rec_shadow *)(m->shadow + i * rec_shadow_size(DEPTH)))
			->owner = REC_SHADOW_FREE;
	if (plan) {
		struct plan_op cstr[] = { { .op = PLAN_ARG, .dst = 0, .a = 0 },
					  { .op = PLAN_CSTR, .src = 0, .a = 64 },
					  { .op = PLAN_END } };
		struct plan_op stack[] = { { .op = PLAN_STACK, .a = 24 },
					   { .op = PLAN_END } };
		rec_plan(m, F_STRLEN, cstr, 3);
		rec_plan(m, F_ADD8, stack, 2);
	}
	pthread_t t[NTHREAD];
	pthread_barrier_init(&threads_go, NULL, NTHREAD + 1);
	for (long i = 0; i < NTHREAD; i++)
		pthread_create(&t[i], NULL, thread_main, (void *)i);
	if (plan == 2)
		self_ranges(m);
	pthread_barrier_wait(&threads_go);
	for (int i = 0; i < NTHREAD; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&threads_go);
	check_drained("threads");
	/* Directly, no copy missed the table; else every copy did. */
	CHECK(plan == 2 ? m->sh->range_misses == 0 :
			  m->sh->range_misses ==
				  (plan ? 2ull * NTHREAD * THREAD_CALLS : 0),
	      "%lu copies missed the table", m->sh->range_misses);
	CHECK(seen.nthread == NTHREAD);
	CHECK(seen.calls[F_STRLEN] == NTHREAD * THREAD_CALLS &&
		      seen.returns[F_STRLEN] == NTHREAD * THREAD_CALLS &&
		      seen.calls[F_ADD8] == NTHREAD * THREAD_CALLS &&
		      seen.returns[F_ADD8] == NTHREAD * THREAD_CALLS,
	      "strlen %lu/%lu add8 %lu/%lu", seen.calls[F_STRLEN],
	      seen.returns[F_STRLEN], seen.calls[F_ADD8], seen.returns[F_ADD8]);
	CHECK(seen.full_traps > 0 && m->sh->unhooked == 0);
	printf("threads%s: %lu records, %lu full-ring traps, %lu pads\n",
	       plan == 2 ? " (plans, direct)" :
	       plan	 ? " (plans)" :
			   "",
	       seen.records, seen.full_traps, seen.pads);
	memset(m->plans, 0, PAGE);
	all_functions(m, REC_FN_RETURNS);
}

/* The tracer's side of a fault in a direct copy (ring.h, "Readable
 * ranges"): the thread goes on at rec_blob_copy_fixup, without the
 * signal. */
static volatile int copy_faults;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
	greg_t *g = ((ucontext_t *)uc)->uc_mcontext.gregs;
	uint64_t insn = (uint64_t)cur->blob + rec_blob_copy_insn;
	if (si->si_code <= 0 || (uint64_t)g[REG_RIP] != insn) {
		FAIL("signal %d at %llx", sig, (unsigned long long)g[REG_RIP]);
		abort();
	}
	g[REG_RIP] = (greg_t)((uint64_t)cur->blob + rec_blob_copy_fixup);
	copy_faults++;
}

/* probe's call, whose plan copies the string at P: its chunk into *C,
 * its first bytes into DATA (64), with the ring emptied and the table
 * set to R[0..N) first (TABLE false: left empty). */
static void probe_chunk(struct recmap *m, const char *p, int table,
			const struct rec_range *r, uint64_t n,
			struct plan_chunk *c, char *data)
{
	rec_reset(m, RING_MAX);
	if (table)
		set_ranges(m, r, n);
	CALL(F_PROBE, uint64_t(*)(const char *), p);
	drain();
	const struct rec_call *rc = (const void *)m->data;
	CHECK(rc->h.type == REC_CALL && rc->func == F_PROBE &&
	      rc->used >= sizeof(*c));
	memcpy(c, rc + 1, sizeof(*c));
	memset(data, 0, 64);
	memcpy(data, (const struct plan_chunk *)(rc + 1) + 1,
	       c->len < 64 ? c->len : 64);
	check_drained("direct");
}

/* Copies the table says can be read are made directly; a fault there
 * (memory gone since the table was read) makes a short chunk, as a
 * system call would; outside the table, and while the tracer writes it,
 * copies go by system call, and those that read something are counted
 * as misses of the table. */
static void test_direct(struct recmap *m)
{
	cur = m;
	rec_reset(m, RING_MAX);
	all_functions(m, REC_FN_RETURNS);
	static const struct plan_op cstr[] = {
		{ .op = PLAN_ARG, .dst = 0, .a = 0 },
		{ .op = PLAN_CSTR, .src = 0, .a = 64 },
		{ .op = PLAN_END },
	};
	char *pg = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (pg == MAP_FAILED || mprotect(pg + 2 * PAGE, PAGE, PROT_NONE)) {
		FAIL("mapping the pages");
		return;
	}
	struct sigaction sa = { .sa_sigaction = on_fault,
				.sa_flags = SA_SIGINFO },
			 old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old);
	strcpy(pg + 100, "in the table");
	memset(pg + 2 * PAGE - 10, 'x', 10);
	strcpy(pg + PAGE - 4, "abcdefgh");
	/* The last page is in the table, but not readable (any more). */
	struct rec_range all = { (uint64_t)pg, (uint64_t)pg + 3 * PAGE };
	struct rec_range first = { (uint64_t)pg, (uint64_t)pg + PAGE };
	struct plan_chunk c;
	char d[64];
	rec_plan(m, F_PROBE, cstr, 3);
	probe_chunk(m, pg + 100, 1, &all, 1, &c, d);
	CHECK(c.len == 13 && c.wanted == 13 && !strcmp(d, "in the table") &&
	      m->sh->range_misses == 0 && copy_faults == 0);
	probe_chunk(m, pg + 2 * PAGE - 10, 1, &all, 1, &c, d);
	CHECK(c.len == 10 && c.wanted == 64 && !memcmp(d, "xxxxxxxxxx", 10) &&
		      m->sh->range_misses == 0 && copy_faults == 1,
	      "len %u wanted %#x misses %lu faults %d", c.len, c.wanted,
	      m->sh->range_misses, copy_faults);
	/* The same by system call: no table, or one being written. */
	probe_chunk(m, pg + 2 * PAGE - 10, 0, NULL, 0, &c, d);
	CHECK(c.len == 10 && c.wanted == 64 && m->sh->range_misses == 1);
	probe_chunk(m, pg + 100, 0, NULL, 0, &c, d);
	CHECK(c.len == 13 && !strcmp(d, "in the table") &&
	      m->sh->range_misses == 1);
	rec_reset(m, RING_MAX);
	set_ranges(m, &all, 1);
	m->sh->range_seq++;
	CALL(F_PROBE, uint64_t(*)(const char *), pg + 100);
	CHECK(m->sh->range_misses == 1 && copy_faults == 1);
	check_drained("direct, table being written");
	/* A string that runs past its range: the rest by system call. */
	probe_chunk(m, pg + PAGE - 4, 1, &first, 1, &c, d);
	CHECK(c.len == 9 && !strcmp(d, "abcdefgh") && m->sh->range_misses == 1);
	/* Nothing to read there: neither a fault nor a miss. */
	probe_chunk(m, (const char *)16, 1, &all, 1, &c, d);
	CHECK(c.len == 0 && c.wanted == 64 && m->sh->range_misses == 0 &&
	      copy_faults == 1);
	sigaction(SIGSEGV, &old, NULL);
	munmap(pg, 3 * PAGE);
	memset(m->plans, 0, PAGE);
	all_functions(m, REC_FN_RETURNS);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static volatile long handler_calls;

static void on_alarm(int sig)
{
	(void)sig;
	if (CALL(F_STRLEN, size_t(*)(const char *), "in handler") != 10 ||
	    CALL(F_OUTER, long (*)(const char *), "in") != 3)
		FAIL("traced calls in the handler");
	handler_calls++;
}

/* A handler that makes traced calls interrupts traced calls anywhere,
 * in the trampolines too, through a ring so small that it is often
 * full: a handler that interrupted its thread's writer between
 * reservation and commit hands its records over synchronously. */
static void test_signals(struct recmap *m)
{
	cur = m;
	rec_reset(m, 4096);
	all_functions(m, REC_FN_RETURNS);
	struct sigaction sa = { .sa_handler = on_alarm };
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, 100 }, { 0, 100 } };
	setitimer(ITIMER_REAL, &it, NULL);
	long n = 0;
	double t0 = now();
	/* Until a synchronous record came, for 10 s at most. */
	for (; n < 30000 || (!m->sh->syncs && now() - t0 < 10); n++)
		if (CALL(F_OUTER, long (*)(const char *), "abcd") != 5)
			FAIL("outer in the loop");
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	check_drained("signals");
	CHECK(handler_calls > 0 && seen.syncs > 0);
	CHECK(seen.calls[F_OUTER] == (uint64_t)(n + handler_calls) &&
	      seen.calls[F_STRLEN] == (uint64_t)(n + 2 * handler_calls) &&
	      seen.returns[F_STRLEN] == seen.calls[F_STRLEN]);
	printf("signals: %ld handler runs during %ld traced calls, "
	       "%lu full-ring traps, %lu synchronous records\n",
	       handler_calls, n, seen.full_traps, seen.syncs);
}

/* The thread's CPU time (user and system, the full-ring traps
 * included): on a loaded machine, the time the thread ran. */
static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ns_per_call with the table of readable ranges set. */
static int direct_runs;

/* CPU ns per strlen call made through GOT slot F, with the recorder's
 * OPTIONS (the median of 5 runs). */
static double ns_per_call(int f, int n, uint64_t options)
{
	double best[5];
	const char *s = "hello, world";
	for (int r = 0; r < 5; r++) {
		rec_reset(cur, 1UL << 20);
		cur->sh->options = options;
		if (direct_runs)
			self_ranges(cur);
		double t0 = cpu_now();
		for (int k = 0; k < n; k++)
			CALL(f, size_t(*)(const char *), s);
		best[r] = (cpu_now() - t0) / n * 1e9;
		drain();
	}
	for (int i = 0; i < 5; i++)
		for (int j = i + 1; j < 5; j++)
			if (best[j] < best[i]) {
				double t = best[i];
				best[i] = best[j];
				best[j] = t;
			}
	return best[2];
}

static void measure(struct recmap *m)
{
	cur = m;
	static void *volatile plain;
	plain = (void *)strlen;
	got[NFUNC - 1] = plain;
	struct plan_op cstr[] = { { .op = PLAN_ARG, .dst = 0, .a = 0 },
				  { .op = PLAN_CSTR, .src = 0, .a = 64 },
				  { .op = PLAN_END } };
	int n = 200000;
	double base = ns_per_call(NFUNC - 1, n, REC_OPT_TSC);
	rec_func(m, F_STRLEN, (void *)strlen, 0);
	double entry = ns_per_call(F_STRLEN, n, REC_OPT_TSC);
	rec_func(m, F_STRLEN, (void *)strlen, REC_FN_RETURNS);
	double both = ns_per_call(F_STRLEN, n, REC_OPT_TSC);
	rec_plan(m, F_STRLEN, cstr, 3);
	double plan = ns_per_call(F_STRLEN, n, REC_OPT_TSC);
	direct_runs = 1;
	double direct = ns_per_call(F_STRLEN, n, REC_OPT_TSC);
	direct_runs = 0;
	printf("strlen, CPU ns per call: untraced %.1f, entry only %.1f, "
	       "entry+return %.1f, entry+return+CSTR plan %.1f (copied "
	       "directly: %.1f)\n",
	       base, entry, both, plan, direct);
	/* The same without time stamps. */
	m->ftab[F_STRLEN].plan = 0;
	rec_func(m, F_STRLEN, (void *)strlen, 0);
	entry = ns_per_call(F_STRLEN, n, 0);
	rec_func(m, F_STRLEN, (void *)strlen, REC_FN_RETURNS);
	both = ns_per_call(F_STRLEN, n, 0);
	printf("strlen, no time stamps, CPU ns per call: entry only %.1f, "
	       "entry+return %.1f\n",
	       entry, both);
	rec_func(m, F_PROBE, (void *)probe, 0);
}

/* The reader takes a record only when its commit word names its
 * position, and rejects one whose size does not fit. */
static void test_reader(void)
{
	static uint64_t ring[64];
	struct rec_hdr *h = (struct rec_hdr *)&ring[8];
	const struct rec_hdr *got = NULL;
	*h = (struct rec_hdr){ rec_commit_word(64), 16, REC_PAD, 0 };
	CHECK(rec_record_at(ring, sizeof(ring), 64, sizeof(ring) - 64, &got) ==
		      1 &&
	      got == h);
	CHECK(rec_record_at(ring, sizeof(ring), 64 + 512, sizeof(ring) - 64,
			    &got) == 0);
	h->size = 24;
	CHECK(rec_record_at(ring, sizeof(ring), 64, sizeof(ring) - 64, &got) ==
	      -EBADMSG);
	*h = (struct rec_hdr){ rec_commit_word(64), 480, REC_PAD, 0 };
	CHECK(rec_record_at(ring, sizeof(ring), 64, sizeof(ring) - 64, &got) ==
	      -EBADMSG);
	*h = (struct rec_hdr){ rec_commit_word(64), 16, REC_CALL, 0 };
	CHECK(rec_record_at(ring, sizeof(ring), 64, sizeof(ring) - 64, &got) ==
	      -EBADMSG);
	*h = (struct rec_hdr){ rec_commit_word(64), 112, 9, 0 };
	CHECK(rec_record_at(ring, sizeof(ring), 64, sizeof(ring) - 64, &got) ==
	      -EBADMSG);
	/* committed, but the copy holds its first 32 bytes only (it was
	 * reserved after the head was read): not yet, not malformed */
	*h = (struct rec_hdr){ rec_commit_word(64), 160, REC_CALL, 1 };
	((struct rec_call *)h)->used = 0xffff;
	CHECK(rec_record_at(ring, sizeof(ring), 64, 32, &got) == 0);
	/* a position no record can have (a fork child's tail taken from
	 * its head, which the program wrote), its commit word right: the
	 * header would be read misaligned, and at the lap's last 8 bytes
	 * past the copy's end (fuzz/regress/drain/misaligned_tail) */
	struct rec_hdr *odd = (struct rec_hdr *)((char *)ring + 72);
	memcpy(odd, &(struct rec_hdr){ rec_commit_word(72), 16, REC_PAD, 0 },
	       sizeof(*odd));
	CHECK(rec_record_at(ring, sizeof(ring), 72, 64, &got) == -EBADMSG);
	uint64_t last = rec_commit_word(sizeof(ring) - 8);
	memcpy((char *)ring + sizeof(ring) - 8, &last, sizeof(last));
	CHECK(rec_record_at(ring, sizeof(ring), sizeof(ring) - 8, 64, &got) ==
	      -EBADMSG);
}

/* A trampoline made to forward (rec_tramp_forward: the detach's, when
 * the program may keep a function's address): a call through it reaches
 * the function its table word names, with its arguments and result, and
 * nothing is recorded. */
static void test_forward(struct recmap *m)
{
	rec_reset(m, RING_MAX);
	uint8_t *at = m->base + m->l.tramp;
	uint8_t far[REC_TRAMP_SIZE];
	CHECK(rec_tramp_forward(far, 0x1000, 0x1000 + (1ull << 40)) == -ERANGE);
	if (mprotect(m->base, m->l.rw, PROT_READ | PROT_WRITE)) {
		FAIL("mprotect");
		return;
	}
	CHECK(rec_tramp_forward(at, (uint64_t)at,
				(uint64_t)&m->ftab[0].target) == 0);
	CHECK(at[0] == 0xf3 && at[4] == 0xff && at[5] == 0x25 &&
	      at[REC_TRAMP_SIZE - 1] == 0xcc);
	m->ftab[0].target = (uint64_t)fill;
	if (mprotect(m->base, m->l.rw, PROT_READ | PROT_EXEC)) {
		FAIL("mprotect");
		return;
	}
	char buf[16];
	char *(*fn)(char *, long) = (char *(*)(char *, long))(uintptr_t)at;
	CHECK(fn(buf, 3) == buf + 1 && strcmp(buf, "xxx") == 0);
	CHECK(m->sh->head == 0 && m->sh->records == 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
#if defined(__SANITIZE_ADDRESS__)
	/* XXX issue 12: under ASan the test's own functions lose their tail
	 * calls and its threaded checks, which read strings after the calls,
	 * fail (308 checks); the blob is never instrumented.  Skipped until
	 * the test records what it checks at the call. */
	printf("test_recorder: skipped under AddressSanitizer\n");
	return 77;
#endif
	CHECK(rec_blob_size > 0 && rec_blob_rw >= rec_blob_size &&
	      rec_blob_rw % PAGE == 0);
	CHECK(rec_blob_entry < rec_blob_size &&
	      rec_blob_return < rec_blob_size &&
	      rec_blob_trap_full < rec_blob_size &&
	      rec_blob_trap_sync < rec_blob_size &&
	      rec_blob_trap_lost < rec_blob_size);
	CHECK(rec_blob[rec_blob_trap_full] == 0xcc &&
	      rec_blob[rec_blob_trap_sync] == 0xcc);
	struct sigaction sa = { .sa_sigaction = on_trap,
				.sa_flags = SA_SIGINFO };
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaction(SIGTRAP, &sa, NULL);
	test_reader();
	struct rec_layout l;
	CHECK(rec_layout_init(&l, 3, 0, 6, 8, 1 << 20) == -EINVAL &&
	      rec_layout_init(&l, 3, 0, 8, 8, 3 << 20) == -EINVAL &&
	      rec_layout_init(&l, 3, 0, 8, 65536, 1 << 20) == -EINVAL);
	CHECK(rec_layout_init(&l, 300, 100, 8, 8, 1 << 20) == 0 &&
	      l.blob == 2 * PAGE && l.rw == l.blob + rec_blob_rw &&
	      l.ftab == l.rw + PAGE && l.plans == l.ftab + 3 * PAGE &&
	      l.shadow == l.plans + PAGE && l.data % PAGE == 0 &&
	      l.size == l.data + (1 << 20));
	struct recmap a, b;
	if (rec_map(&a) || rec_map(&b)) {
		perror("mapping the recorder");
		return 1;
	}
	/* Two copies at two addresses: the blob is position-independent. */
	test_shapes(&a, "first copy");
	test_shapes(&b, "second copy");
	test_forward(&b);
	test_site(&a);
	test_cut(&a);
	test_rplan(&a);
	test_lost(&a);
	test_errno(&a);
	test_longjmp(&a);
	test_direct(&a);
	test_stack(&a);
	test_threads(&a, 0);
	test_threads(&a, 1);
	test_threads(&a, 2);
	test_signals(&a);
	measure(&a);
	return check_exit();
}
