/* -w in --fast (DESIGN.md, "Fast mode"): a return record's backtrace,
 * unwound by the tracer from what the recorder kept at the return (the
 * caller's registers and a copy of its stack, ring.h's struct
 * rec_stack), with the unwinder of ptrace mode (unwind.h).  Reads
 * outside the copy (the objects' unwind tables, code, a stack deeper
 * than the copy) go to the program's memory, read now: text and
 * read-only data do not change.
 *
 * The copy's size adapts: it starts at FASTBT_START bytes; a backtrace
 * that read the stack past the end of a full copy doubles it (up to
 * FASTBT_MAX: that backtrace's outer frames came from the stack as it
 * is now, most often the same, as the frames of callers still
 * running do not change).  The process's configuration is written
 * then, at the next return record. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <sys/uio.h>

#include "calls.h"
#include "debug.h"
#include "fastrec.h"
#include "memsrc.h"
#include "mem.h"
#include "proc.h"
#include "recorder/ring.h"
#include "recregs.h"
#include "unwind.h"

#define FASTBT_START 4096
#define FASTBT_MAX (64 * 1024)
/* A read this far past a full copy is of the stack the copy was cut
 * from. */
#define FASTBT_NEAR (1024 * 1024)
#define FASTBT_PAGE 4096
#define FASTBT_PAGES 8

/* -w's depth, 0 without -w. */
static unsigned depth;
/* The stack copy's size that the recorders are to make. */
static uint64_t copy_size = FASTBT_START;

/* The memory one backtrace reads: the copy of its stack, then the
 * program's, read by whole pages kept for this backtrace. */
struct btmem {
	struct memsrc mem; /* first */
	pid_t pid;
	const unsigned char *copy;
	uint64_t lo, len;
	bool full;   /* the copy was not cut at the stack's end */
	bool short_; /* a read ran past it within FASTBT_NEAR */
	struct {
		uint64_t addr;
		bool ok;
		unsigned char data[FASTBT_PAGE];
	} page[FASTBT_PAGES];
	unsigned npage;
};

static const unsigned char *live_page(struct btmem *m, uint64_t pa)
{
	for (unsigned i = 0; i < m->npage; i++)
		if (m->page[i].addr == pa)
			return m->page[i].ok ? m->page[i].data : NULL;
	unsigned i = m->npage < FASTBT_PAGES ? m->npage++ :
					       pa / FASTBT_PAGE % FASTBT_PAGES;
	struct iovec l = { m->page[i].data, FASTBT_PAGE };
	struct iovec r = { (void *)pa, FASTBT_PAGE };
	m->page[i].addr = pa;
	m->page[i].ok = fastrec_gather(m->pid, &l, 1, &r, 1) == FASTBT_PAGE;
	return m->page[i].ok ? m->page[i].data : NULL;
}

/* Up to LEN bytes at A from the program (not past the copy's start). */
static size_t live_read(struct btmem *m, uint64_t a, void *buf, size_t len)
{
	if (m->full && a >= m->lo + m->len && a - m->lo < FASTBT_NEAR)
		m->short_ = true;
	if (a < m->lo && m->lo - a < len)
		len = m->lo - a;
	const unsigned char *p = live_page(m, a & ~(uint64_t)(FASTBT_PAGE - 1));
	if (!p)
		return 0;
	size_t off = a & (FASTBT_PAGE - 1);
	size_t n = FASTBT_PAGE - off < len ? FASTBT_PAGE - off : len;
	memcpy(buf, p + off, n);
	return n;
}

static size_t bt_read(struct memsrc *ms, uint64_t addr, void *buf, size_t len)
{
	struct btmem *m = (struct btmem *)ms;
	size_t done = 0;
	while (done < len && addr + done >= addr) {
		uint64_t a = addr + done;
		size_t n;
		if (a >= m->lo && a - m->lo < m->len) {
			n = m->lo + m->len - a;
			if (n > len - done)
				n = len - done;
			memcpy((char *)buf + done, m->copy + (a - m->lo), n);
		} else if (!(n = live_read(m, a, (char *)buf + done,
					   len - done))) {
			break;
		}
		done += n;
	}
	return done;
}

/* R's struct rec_stack, when it has a well-formed one. */
static const struct rec_stack *stack_of(const struct rec_return *r)
{
	uint64_t off = rec_align(sizeof(*r) + r->used);
	if (!(r->h.flags & REC_RETURN_STACK) ||
	    off + sizeof(struct rec_stack) > r->h.size)
		return NULL;
	const struct rec_stack *k =
		(const struct rec_stack *)((const char *)r + off);
	if (k->len > r->h.size - off - sizeof(*k) || k->len > k->wanted)
		return NULL;
	return k;
}

/* A backtrace that found the copy too short: a larger one from now on,
 * for every process (written into each at its next return record). */
static void grow(void)
{
	if (copy_size >= FASTBT_MAX)
		return;
	copy_size *= 2;
	debug_msg(DEBUG_GENERAL, "--fast: -w: stack copies of %llu bytes",
		  (unsigned long long)copy_size);
}

/* P's recorder asks for the current copy size. */
static void configure(struct process *p)
{
	struct fastrec *f = fastrec_mapped(p);
	if (!f || f->stack_copy == copy_size)
		return;
	if (!mem_write(p->procmem, FASTREC_FIELD(f, stack_copy), &copy_size,
		       sizeof(copy_size)))
		f->stack_copy = copy_size;
}

/* The backtrace of T after the return R, shown. */
static void show(struct task *t, const struct rec_return *r)
{
	static struct btmem m;
	struct process *p = process_mem(t->proc);
	const struct rec_stack *k = stack_of(r);
	struct arch_regs regs;

	recregs_return(&regs, r);
	memset(&m, 0, offsetof(struct btmem, page));
	m.mem.read = bt_read;
	m.pid = p->pid;
	if (k) {
		recregs_stack(&regs, k);
		m.copy = (const unsigned char *)(k + 1);
		m.lo = k->sp;
		m.len = k->len;
		m.full = k->len && k->len == k->wanted;
	}
	unwind_show(t, &regs, &m.mem, depth);
	if (m.short_ && k && k->wanted >= copy_size)
		grow();
	configure(p);
}

void fastbt_init(unsigned where)
{
	depth = where;
}

void fastbt_config(struct fastrec *f, struct rec_shared *sh)
{
	if (!depth)
		return;
	sh->options |= REC_OPT_STACK;
	sh->stack_copy = copy_size;
	f->stack_copy = copy_size;
}

void fastbt_return(struct task *t, size_t i, struct callsite *cs,
		   const struct rec_return *r)
{
	bool print = task_prints(t);
	if (!depth) {
		call_return_tail(t, i, cs, print);
		return;
	}
	uint64_t ret = t->frames[i].ret, sp = t->frames[i].ret_sp;
	for (long k = (long)i; k >= 0; k = call_tail_caller(t, k, ret, sp))
		if (call_return(t, (size_t)k, cs, print))
			show(t, r);
}
