/* --fast: a ring given up (DESIGN.md, "Fast mode", Giving a ring up).
 * The ring is the program's memory: a record reserved and never
 * committed (one atomic add on its head), a head moved more than a lap
 * on, a malformed record would stop the drains, lose every later record
 * without a word and leave the writers trapped on a full ring.  The
 * tracer then stops handing calls to the recorder in that process: its
 * GOT slots point at their stubs again, the stubs' breakpoints go back
 * in, so do those of the -x entries patched (fastentry.c), and its
 * calls stop as in ptrace mode.  The region stays mapped
 * and its ring read: threads inside the recorder's code, and hooked
 * returns, still write there.  The records lost are counted, never
 * dropped without a line.  Called by fastdrain.c; calls fastrec.c. */
#include "arch.h"
#include "bpt.h"
#include "error.h"
#include "fastrec.h"
#include "bptmem.h"
#include "mem.h"
#include "output.h"
#include "proc.h"
#include "recorder/ring.h"

/* The least size of a record in the ring, but a pad's. */
#define FAST_MIN_RECORD                                                 \
	rec_align(sizeof(struct rec_call) < sizeof(struct rec_return) ? \
			  sizeof(struct rec_call) :                     \
			  sizeof(struct rec_return))

/* Stub B of P, handed over, back in ptrace mode: its trap back in
 * place (unless the program changed the byte since), never handed over
 * again. */
static void stub_back(struct process *p, struct breakpoint *b)
{
	unsigned char c[ARCH_BREAKPOINT_LEN];
	b->stub.fast = false;
	b->stub.fast_refused = true;
	if (b->inserted || fastrec_read(p->pid, b->addr, c, sizeof(c)) ||
	    memcmp(c, b->orig, sizeof(c)) ||
	    bptmem_write_bpt(p->procmem, b->addr))
		return;
	b->inserted = true;
}

void fastpoison_handback(struct process *p, const struct fastrec *f)
{
	/* The slots first: a stub's breakpoint hit while its slot still held the
	 * trampoline would send the call to the recorder too. */
	fastentry_slots_back(p->procmem, p->pid, f);
	for (uint32_t i = 0; i < f->nfunc && i < FAST_NFUNC; i++) {
		struct breakpoint *b = bpt_lookup(&p->bpts, f->stub[i]);
		if (b && b->kind == BPT_STUB && b->stub.fast)
			stub_back(p, b);
	}
	fastentry_handback(p, f);
}

void fastpoison(struct process *p, struct fastrec *f, const char *why)
{
	if (f->broken)
		return;
	f->broken = true;
	f->uncommitted = false;
	error_msg("--fast: process %d: %s; its calls are traced in ptrace "
		  "mode from now on",
		  (int)p->pid, why);
	fastpoison_handback(p, f);
}

uint64_t fastpoison_drop(struct process *p, struct fastrec *f, uint64_t head,
			 uint64_t recs)
{
	uint64_t n = head - f->tail;
	if (!n)
		return 0;
	if (n > f->l.ring)
		n = f->l.ring;
	/* The recorder's count is the program's to write: what it says is
	 * believed only as far as the bytes dropped could hold records. */
	uint64_t room = n / FAST_MIN_RECORD;
	f->lost_room = f->lost_room + room < room ? UINT64_MAX :
						    f->lost_room + room;
	uint64_t lost = recs > f->counted ? recs - f->counted : 0;
	if (lost > f->lost_room)
		lost = f->lost_room;
	f->lost_room -= lost;
	f->counted += lost;
	f->tail = head;
	(void)mem_write(p->procmem, FASTREC_FIELD(f, tail), &head,
			sizeof(head));
	fastpoison_lost(p, lost);
	return n;
}

void fastpoison_lost(struct process *p, uint64_t n)
{
	if (n)
		output_line(p->pid, "--- %llu %s not recorded ---",
			    (unsigned long long)n, n == 1 ? "call" : "calls");
}
