/* --fast: -x functions recorded in the process by entry patching
 * (DESIGN.md, "Fast mode").  At a -x function's first entry stop, its
 * first instructions become a jump to an entry cell in scratch memory
 * (<arch>/recpatch.h), which records the call through rec_xentry and
 * goes on at their relocated copy; the return is hooked as a stub's.
 * What cannot be patched safely keeps its breakpoint, the reason under
 * -D.  The breakpoint's int3 is byte 0: bytes 1..4 go first, then byte
 * 0, with every other thread of the process stopped (fastworld.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "bpt.h"
#include "bptmem.h"
#include "debug.h"
#include "errcond.h"
#include "fast.h"
#include "fastrec.h"
#include "fastworld.h"
#include "fetchplan.h"
#include "mem.h"
#include "proc.h"
#include "recorder/recblob.h"
#include "recorder/ring.h"
#include "recpatch.h"
#include "recregs.h"
#include "rectramp.h"
#include "scratch.h"
#include "tracee.h"
#include "xmalloc.h"

/* The most bytes of a function read for its linear decode: a larger
 * one keeps its breakpoint. */
#define XENTRY_MAX_SIZE (1u << 20)

struct scan {
	const struct process *p;
	const struct breakpoint *b;
	const char *why;
	uint8_t *bytes;
};

/* A breakpoint of ours inside the function: its original bytes into the
 * copy read for the decode; inside the patched bytes, a refusal.  A
 * -fno-plt call site whose slot holds the entry: a refusal (the call
 * would show twice). */
static void scan_bpt(struct breakpoint *o, void *data)
{
	struct scan *s = data;
	uint64_t a = s->b->addr, size = s->b->entry.size;
	if (o->kind == BPT_SITE) {
		uint64_t slot = 0;
		if (o->call.got &&
		    !fastrec_read(s->p->pid, o->call.got, &slot,
				  sizeof(slot)) &&
		    slot == a)
			s->why = "a call site's GOT slot holds it";
		return;
	}
	if (o == s->b || o->addr < a || o->addr >= a + size)
		return;
	if (o->addr < a + RECPATCH_JMP_LEN)
		s->why = "another breakpoint is inside the patch";
	if (o->inserted)
		memcpy(s->bytes + (o->addr - a), o->orig,
		       o->addr + ARCH_BREAKPOINT_LEN <= a + size ?
			       ARCH_BREAKPOINT_LEN :
			       a + size - o->addr);
}

/* Why B cannot be patched, before its plans are looked at. */
static const char *early_refusal(const struct breakpoint *b,
				 const struct arch_regs *regs)
{
	if (b->entry.ifunc)
		return "an IFUNC resolver";
	if (b->entry.returns)
		return "calls return there";
	if (b->entry.size < RECPATCH_JMP_LEN)
		return "its size is unknown or smaller than the patch";
	if (b->entry.size > XENTRY_MAX_SIZE)
		return "it is too large to decode";
	if (!recregs_thread(regs))
		return "the thread has no TCB";
	return NULL;
}

/* The function's bytes as the program has them (our breakpoints
 * undone) into a new buffer *OUT; the refusal scan's result. */
static const char *read_function(struct process *p, const struct breakpoint *b,
				 uint8_t **out)
{
	uint8_t *bytes = xmalloc(b->entry.size);
	struct scan s = { p, b, NULL, bytes };
	if (fastrec_read(p->pid, b->addr, bytes, b->entry.size)) {
		free(bytes);
		return "its bytes cannot be read";
	}
	memcpy(bytes, b->orig, ARCH_BREAKPOINT_LEN);
	bpt_foreach(&p->bpts, scan_bpt, &s);
	*out = bytes;
	return s.why;
}

/* Write the cell, then the patch over the int3 at byte 0: bytes 1..4
 * first, so that no thread ever runs half of it. */
static int write_patch(struct process *p, const struct breakpoint *b,
		       uint64_t cell, const struct recpatch *rp)
{
	if (mem_write(p->procmem, cell, rp->cell, sizeof(rp->cell)) ||
	    mem_write(p->procmem, b->addr + 1, rp->jmp + 1,
		      RECPATCH_JMP_LEN - 1))
		return -1;
	return mem_write(p->procmem, b->addr, rp->jmp, 1);
}

static bool refuse(struct breakpoint *b, const char *why)
{
	debug_msg(DEBUG_GENERAL, "--fast: %s stays in ptrace mode: %s",
		  b->call.name, why);
	b->entry.fast_refused = true;
	return false;
}

/* Patch B (recpatch.h) as function I of F; false if it keeps its
 * breakpoint. */
static bool patch(struct task *t, struct process *p, struct fastrec *f,
		  struct breakpoint *b, struct arch_regs *regs, uint64_t *cellp)
{
	uint8_t *bytes = NULL;
	const char *why = read_function(p, b, &bytes);
	uint64_t cell = why ? 0 : scratch_cell(t, regs, b->addr);
	struct recpatch rp;
	if (!why && !cell)
		why = "no scratch memory within reach";
	if (!why)
		(void)recpatch_plan(bytes, b->entry.size, b->addr, cell,
				    f->nfunc,
				    f->base + f->l.blob + rec_blob_xentry, &rp,
				    &why);
	free(bytes);
	if (why)
		return refuse(b, why);
	uint32_t i = f->nfunc;
	memcpy(f->xorig[i], b->orig, ARCH_BREAKPOINT_LEN);
	if (fastrec_read(p->pid, b->addr + ARCH_BREAKPOINT_LEN,
			 f->xorig[i] + ARCH_BREAKPOINT_LEN,
			 rp.len - ARCH_BREAKPOINT_LEN))
		return refuse(b, "its bytes cannot be read");
	f->xlen[i] = (uint8_t)rp.len;
	f->target[i] = cell + rp.copy;
	*cellp = cell;
	return write_patch(p, b, cell, &rp) == 0 ||
	       refuse(b, "its patch could not be written");
}

/* The stubs handed over whose calls go to B's entry go to its copy
 * from now on: one call, one line. */
static void retarget_stubs(struct process *p, struct fastrec *f,
			   const struct breakpoint *b, uint64_t copy)
{
	for (uint32_t j = 0; j < f->nfunc; j++) {
		if (!f->got[j] || f->target[j] != b->addr)
			continue;
		uint64_t at = f->base + f->l.ftab +
			      j * sizeof(struct rec_func) +
			      offsetof(struct rec_func, target);
		if (!mem_write(p->procmem, at, &copy, sizeof(copy)))
			f->target[j] = copy;
	}
}

bool fast_take_entry(struct task *t, struct breakpoint *b,
		     struct arch_regs *regs)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	if (!fastrec_enabled || !p || b->kind != BPT_ENTRY ||
	    b->entry.fast_refused || !b->inserted || p->vfork_parent)
		return false;
	if (!fastworld_may_try(b))
		return false;
	struct fetch_plan fp, rp;
	const char *why = early_refusal(b, regs);
	if (!why)
		why = fastrec_refusal(t, b, regs, &fp, &rp);
	if (why)
		return refuse(b, why);
	/* The other threads stay stopped until the loop has their reports:
	 * none runs while the patch is written. */
	why = fastworld_stop(t, p, b);
	if (why) {
		debug_msg(DEBUG_GENERAL, "--fast: %s not patched yet: %s",
			  b->call.name, why);
		fastworld_failed(b);
		return false;
	}
	struct fastrec *f = p->fast;
	uint32_t i = f->nfunc;
	uint64_t cell;
	if (!patch(t, p, f, b, regs, &cell))
		return false;
	if (fastrec_fill(p, f, i, b, &fp, &rp, f->target[i])) {
		(void)mem_write(p->procmem, b->addr, f->xorig[i], f->xlen[i]);
		return refuse(b, "its table entry could not be written");
	}
	retarget_stubs(p, f, b, f->target[i]);
	f->stub[i] = b->addr;
	f->got[i] = 0;
	f->nfunc++;
	fastrec_stats.handed_over++;
	b->inserted = false;
	fast_learn(t, regs);
	arch_set_ip(regs, cell);
	(void)tracee_set_regs(t->tid, regs);
	return true;
}

bool fast_tail_entry(const struct process *p, uint64_t ret, uint64_t addr)
{
	const struct fastrec *f = fastrec_mapped(p);
	if (!f || ret != f->base + f->l.blob + rec_blob_return)
		return false;
	for (uint32_t j = 0; j < f->nfunc; j++)
		if (f->got[j] && f->target[j] == addr)
			return false;
	return true;
}

uint64_t fastentry_copy(const struct process *p, uint64_t addr)
{
	const struct fastrec *f = fastrec_mapped(p);
	for (uint32_t i = 0; f && i < f->nfunc; i++)
		if (f->xlen[i] && f->stub[i] == addr)
			return f->target[i];
	return addr;
}

uint64_t fastentry_slot_value(const struct fastrec *f, uint32_t j)
{
	for (uint32_t i = 0; i < f->nfunc; i++)
		if (f->xlen[i] && f->target[i] == f->target[j])
			return f->stub[i];
	return f->target[j];
}

bool fastentry_slots_back(int procmem, pid_t pid, const struct fastrec *f)
{
	bool written = false;
	for (uint32_t i = 0; i < f->nfunc && i < FAST_NFUNC; i++) {
		uint64_t tramp =
			f->base + f->l.tramp + (uint64_t)i * REC_TRAMP_SIZE;
		uint64_t slot = 0, v;
		if (!f->got[i])
			continue;
		v = fastentry_slot_value(f, i);
		if (fastrec_read(pid, f->got[i], &slot, sizeof(slot)))
			written = true;
		else if (slot == tramp)
			(void)mem_write(procmem, f->got[i], &v, sizeof(v));
		else if (slot != v) /* (a ring given up put V back) */
			written = true;
	}
	return written;
}

/* Whether entry I of F is patched and our jump is still there: the
 * object may have gone (dlclose), and another be mapped there. */
static bool jump_there(int procmem, const struct fastrec *f, uint32_t i)
{
	uint8_t now[RECPATCH_JMP_LEN];
	int32_t rel;
	if (!f->xlen[i] ||
	    pread(procmem, now, sizeof(now), (off_t)f->stub[i]) != sizeof(now))
		return false;
	memcpy(&rel, now + 1, sizeof(rel));
	return now[0] == 0xe9 &&
	       f->stub[i] + RECPATCH_JMP_LEN + (uint64_t)(int64_t)rel ==
		       f->target[i] - RECPATCH_COPY;
}

void fastentry_restore(int procmem, const struct fastrec *f)
{
	for (uint32_t i = 0; i < f->nfunc; i++)
		if (jump_there(procmem, f, i))
			(void)mem_write(procmem, f->stub[i], f->xorig[i],
					f->xlen[i]);
}

/* While the other threads run: the int3 over byte 0 first (one byte,
 * whole for any thread), then the rest of the bytes, which no thread
 * reaches but through byte 0 (a thread in the cell comes back past
 * them all). */
void fastentry_handback(struct process *p, const struct fastrec *f)
{
	for (uint32_t i = 0; i < f->nfunc && i < FAST_NFUNC; i++) {
		struct breakpoint *b = bpt_lookup(&p->bpts, f->stub[i]);
		if (!b || b->kind != BPT_ENTRY || b->inserted ||
		    !jump_there(p->procmem, f, i))
			continue;
		b->entry.fast_refused = true;
		if (bptmem_write_bpt(p->procmem, b->addr) ||
		    mem_write(p->procmem, b->addr + ARCH_BREAKPOINT_LEN,
			      f->xorig[i] + ARCH_BREAKPOINT_LEN,
			      f->xlen[i] - ARCH_BREAKPOINT_LEN))
			continue;
		b->inserted = true;
	}
}

/* The index of the patched entry of F whose cell holds IP, or -1. */
static int cell_of(const struct fastrec *f, uint64_t ip)
{
	for (uint32_t i = 0; i < f->nfunc; i++)
		if (f->xlen[i] &&
		    ip - (f->target[i] - RECPATCH_COPY) < RECPATCH_CELL_SIZE)
			return (int)i;
	return -1;
}

bool fastentry_leave_head(struct task *t, const struct fastrec *f,
			  struct arch_regs *r)
{
	int i = f ? cell_of(f, arch_ip(r)) : -1;
	if (i < 0 ||
	    !recpatch_head_undo(arch_ip(r) - (f->target[i] - RECPATCH_COPY),
				f->stub[i], r))
		return false;
	return tracee_set_regs(t->tid, r) == 0;
}

bool fastentry_leave_cell(struct task *t, const struct fastrec *f,
			  struct arch_regs *r)
{
	if (fastentry_leave_head(t, f, r))
		return true;
	/* In the relocated prologue: a few instructions, then the jump
	 * back into the function. */
	for (int k = 0;
	     k < RECPATCH_CELL_SIZE && f && cell_of(f, arch_ip(r)) >= 0; k++)
		if (tracee_step_trap(t) || tracee_get_regs(t->tid, r))
			return false;
	return true;
}
