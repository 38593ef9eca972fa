/* --fast: where the recorder's hooks are undone, for a thread or for
 * a process (DESIGN.md, "The recorder": fork, exec, exit; Detach).  A
 * thread's shadow stack (ring.h) holds the return addresses its
 * hooked calls replaced: freed at its exit, put back on the stacks when
 * the C++ unwinder is entered (it cannot step over the recorder's
 * return) and at the detach.  A fork child's copy of the region is made
 * its own, or, when the child is let go, its GOT slots put back.  Calls
 * fasttrap.c, fastdrain.c and fastrec.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>

#include "arch.h"
#include "bpt.h"
#include "debug.h"
#include "elfscan.h"
#include "fast.h"
#include "fastrec.h"
#include "library.h"
#include "mem.h"
#include "proc.h"
#include "recorder/recblob.h"
#include "recorder/ring.h"
#include "recregs.h"
#include "rectramp.h"
#include "retbp.h"
#include "tracee.h"
#include "xmalloc.h"

/* ---- shadow stacks ---- */

/* The owners of F's shadow stacks, into OWNERS (FAST_NSHADOW of them), in one
 * gathered read: 0 or -EFAULT. */
static int read_owners(const struct fastrec *f, pid_t pid, uint64_t *owners)
{
	struct iovec l[FAST_NSHADOW], r[FAST_NSHADOW];
	uint64_t size = rec_shadow_size(f->l.depth);
	uint32_t n = f->l.nshadow < FAST_NSHADOW ? f->l.nshadow : FAST_NSHADOW;
	for (uint32_t i = 0; i < n; i++) {
		l[i] = (struct iovec){ &owners[i], sizeof(owners[i]) };
		r[i] = (struct iovec){
			(void *)(uintptr_t)(f->base + f->l.shadow + i * size),
			sizeof(owners[i])
		};
	}
	ssize_t want = (ssize_t)(n * sizeof(*owners));
	return fastrec_gather(pid, l, n, r, n) == want ? 0 : -EFAULT;
}

/* The address of the shadow stack of thread TCB, or 0.  Threads
 * probe from a hash of their TCB: every shadow stack is looked at. */
static uint64_t shadow_of(const struct fastrec *f, pid_t pid, uint64_t tcb)
{
	uint64_t owners[FAST_NSHADOW];
	if (!tcb || tcb == REC_SHADOW_FREE || read_owners(f, pid, owners))
		return 0;
	for (uint32_t i = 0; i < f->l.nshadow && i < FAST_NSHADOW; i++)
		if (owners[i] == tcb)
			return f->base + f->l.shadow +
			       i * rec_shadow_size(f->l.depth);
	return 0;
}

/* Free the shadow stack at AT in the process at PROCMEM: its state
 * and pending words zeroed, then its owner REC_SHADOW_FREE (not 0, which
 * would end other threads' probes). */
static void release_shadow(int procmem, uint64_t at)
{
	uint64_t zero[2] = { 0, 0 }, freed = REC_SHADOW_FREE;
	(void)mem_write(procmem, at + offsetof(struct rec_shadow, state), zero,
			sizeof(zero));
	(void)mem_write(procmem, at, &freed, sizeof(freed));
}

/* Free every used shadow stack but thread KEEP's. */
static void free_shadows(const struct fastrec *f, pid_t pid, int procmem,
			 uint64_t keep)
{
	uint64_t size = rec_shadow_size(f->l.depth);
	for (uint32_t i = 0; i < f->l.nshadow; i++) {
		uint64_t at = f->base + f->l.shadow + i * size;
		uint64_t owner;
		if (fastrec_read(pid, at, &owner, sizeof(owner)) ||
		    owner == 0 || owner == REC_SHADOW_FREE || owner == keep)
			continue;
		release_shadow(procmem, at);
	}
}

static void free_shadow_of(const struct fastrec *f, pid_t pid, int procmem,
			   uint64_t tcb)
{
	uint64_t at = shadow_of(f, pid, tcb);
	if (at)
		release_shadow(procmem, at);
}

/* Put back the return addresses that the hooked calls of shadow stack AT still
 * have on their stacks, and free it. */
static void unhook_shadow(struct process *p, const struct fastrec *f,
			  uint64_t at, uint64_t ret_tramp)
{
	struct rec_shadow sh;
	if (fastrec_read(p->pid, at, &sh, sizeof(sh)) || sh.owner == 0 ||
	    sh.owner == REC_SHADOW_FREE)
		return;
	uint64_t depth = sh.state & 0xffff;
	if (depth > f->l.depth)
		depth = f->l.depth;
	for (uint64_t k = 0; k < depth; k++) {
		struct rec_shadow_entry e;
		uint64_t word;
		if (fastrec_read(p->pid, at + sizeof(sh) + k * sizeof(e), &e,
				 sizeof(e)) ||
		    fastrec_read(p->pid, e.sp, &word, sizeof(word)))
			continue;
		if (word == ret_tramp)
			(void)mem_write(p->procmem, e.sp, &e.ret,
					sizeof(e.ret));
	}
	release_shadow(p->procmem, at);
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
	if (!fastrec_enabled || !l->soname ||
	    strncmp(l->soname, "libgcc_s.so", 11) ||
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
		b->call.name = xstrdup("_Unwind");
		b->call.label = xstrdup(b->call.name);
		b->entry.resumed = xstrdup(b->call.name);
		b->entry.fast_unwind = true;
		add(b, ctx);
	}
}

void fast_unwinding(struct task *t, struct memsrc *m,
		    const struct arch_regs *regs)
{
	struct process *p = process_mem(t->proc);
	struct fastrec *f = fastrec_mapped(p);
	if (!f || t->proc->vfork_parent)
		return;
	fastdrain_drain(p);
	uint64_t at = shadow_of(f, p->pid, recregs_thread(regs));
	debug_msg(DEBUG_GENERAL, "--fast: %d unwinds, shadow stack %#llx",
		  (int)t->tid, (unsigned long long)at);
	if (at)
		unhook_shadow(p, f, at, f->base + f->l.blob + rec_blob_return);
	for (size_t k = 0; k < t->nframes; k++) {
		if (!t->frames[k].recorded)
			continue;
		t->frames[k].recorded = false;
		retbp_ensure(t, m, regs, t->frames[k].ret);
	}
	fasttrap_want_returns(t, m, regs);
}

/* ---- thread exit, fork, detach ---- */

void fast_exit(struct task *t)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = fastrec_mapped(p);
	if (!f || t->proc->vfork_parent)
		return;
	fastdrain_settled(p, t, 2000);
	struct arch_regs r;
	if (tracee_get_regs(t->tid, &r))
		return;
	uint64_t tcb = recregs_thread(&r);
	free_shadow_of(f, p->pid, p->procmem, tcb);
	for (size_t i = 0; i < f->nthreads; i++)
		if (f->threads[i].tid == t->tid)
			f->threads[i].tcb = 0;
}

/* A fork child's ring: its own pid for the copies, the parent's records
 * left to the parent (tail = head). */
static void child_ring(const struct fastrec *f, pid_t pid, int procmem)
{
	uint64_t head, cfg = pid;
	uint64_t shared = f->base + f->l.rw;
	if (fastrec_read(pid, shared + offsetof(struct rec_shared, head), &head,
			 sizeof(head)))
		return;
	(void)mem_write(procmem, shared + offsetof(struct rec_shared, tail),
			&head, sizeof(head));
	(void)mem_write(procmem, shared + offsetof(struct rec_shared, pid),
			&cfg, sizeof(cfg));
}

void fast_fork(struct process *child, const struct process *parent)
{
	struct fastrec *pf = fastrec_mapped(parent);
	if (!pf || child->procmem < 0)
		return;
	/* The parent's ring pages are shared copy-on-write now: none is
	 * its own until written again, from its head on (copy_ring). */
	uint64_t phead;
	if (fastrec_read(parent->pid, FASTREC_FIELD(pf, head), &phead,
			 sizeof(phead)) == 0 &&
	    phead - pf->tail <= pf->l.ring)
		pf->written_lo = pf->written_hi = phead;
	else
		pf->written_lo = pf->written_hi = pf->tail + 2 * pf->l.ring;
	struct fastrec *f = xmalloc(sizeof(*f));
	memcpy(f, pf, sizeof(*f));
	child->fast = f;
	struct arch_regs r;
	uint64_t keep = 0;
	if (tracee_get_regs(child->pid, &r) == 0)
		keep = recregs_thread(&r);
	free_shadows(f, child->pid, child->procmem, keep);
	child_ring(f, child->pid, child->procmem);
	fasttrap_exits_restore(child->procmem, f);
	/* The parent's records, reserved before the fork, are the
	 * parent's: the child's count starts from the recorder's. */
	uint64_t w[3]; /* head, range_misses, records */
	if (fastrec_read(child->pid, FASTREC_FIELD(f, head), w, sizeof(w)) ==
	    0) {
		f->tail = w[0];
		f->counted = w[2];
	}
	f->written_lo = f->written_hi = f->tail; /* as the parent's */
	f->lost_room = 0;
	f->wait_last = 0;
	f->nthreads = 0;
	struct task *t = task_lookup(child->pid);
	if (t && keep)
		fast_learn(t, &r);
	/* Mappings made MADV_DONTFORK are not the child's. */
	fastrec_ranges_refresh(child, f);
}

/* The trampolines of F's functions, in the process of PROCMEM, made to
 * forward each call, with no recorder, to where the function's slot
 * went before the hand-over (the target word of its table entry, set
 * so): a program that read a slot while it held the trampoline (a
 * function's address, kept as a callback; the slot a GLOB_DAT one, see
 * struct plt_entry) calls that after the tracer has gone.  The
 * trampolines, the blob and the table stay mapped then (fast_unmap). */
static void forward_tramps(int procmem, const struct fastrec *f)
{
	for (uint32_t i = 0; i < f->nfunc && i < FAST_NFUNC; i++) {
		if (!f->got[i])
			continue;
		uint8_t code[REC_TRAMP_SIZE];
		uint64_t at =
			f->base + f->l.tramp + (uint64_t)i * REC_TRAMP_SIZE;
		uint64_t word = f->base + f->l.ftab +
				(uint64_t)i * sizeof(struct rec_func) +
				offsetof(struct rec_func, target);
		uint64_t target = fastentry_slot_value(f, i);
		if (!rec_tramp_forward(code, at, word) &&
		    !mem_write(procmem, word, &target, sizeof(target)))
			(void)mem_write(procmem, at, code, sizeof(code));
	}
}

void fast_release_child(int procmem, pid_t pid, const struct process *parent)
{
	const struct fastrec *f = fastrec_mapped(parent);
	if (!f)
		return;
	bool held = fastentry_slots_back(procmem, pid, f) || f->tramp_held;
	fastentry_restore(procmem, f);
	if (held)
		forward_tramps(procmem, f);
	child_ring(f, pid, procmem);
	fasttrap_exits_restore(procmem, f);
	/* No tracer will fix a fault of the child's copies (its hooked
	 * returns still run the recorder): an odd sequence word for good,
	 * so that they all go by system call. */
	uint64_t seq = f->range_seq | 1;
	(void)mem_write(procmem, FASTREC_FIELD(f, range_seq), &seq,
			sizeof(seq));
}
/* Step a stopped thread of process DATA out of the recorder's code (it
 * finishes its record first: the ring has room after the drain), then
 * out of an entry cell (scratch, which the detach unmaps): one a
 * record's way out leads to, or one the detach's rewind stepped into. */
static void step_out(struct task *t, void *data)
{
	struct arch_regs r;
	if (t->proc && process_mem(t->proc) == data && t->stopped &&
	    !tracee_get_regs(t->tid, &r) && fast_leave(t, NULL, &r))
		(void)fastentry_leave_cell(t, fastrec_mapped(data), &r);
}

void fast_unmap(struct task *t, const struct arch_regs *saved)
{
	struct process *p = process_mem(t->proc);
	struct fastrec *f = fastrec_mapped(p);
	long ret;
	if (!f || p->vfork_parent)
		return;
	/* The trampolines stay, forwarding, if the program may hold one's
	 * address; the shadow stacks, ring and the rest go. */
	uint64_t keep = 0;
	if (f->tramp_held)
		forward_tramps(p->procmem, f);
	if (f->signalled_inside)
		return;
	if (f->tramp_held) {
		keep = f->l.plans;
		debug_msg(DEBUG_GENERAL,
			  "--fast: process %d keeps %#llx bytes at %#llx: "
			  "forwarding trampolines",
			  (int)p->pid, (unsigned long long)keep,
			  (unsigned long long)f->base);
	}
	long args[6] = { (long)(f->base + keep), (long)(f->l.size - keep) };
	/* A failure leaves the region mapped, unreachable. */
	if (tracee_inject_syscall(t, saved, SYS_munmap, args, &ret) == 0 &&
	    ret == 0)
		f->base = 0;
}

void fast_detach(struct process *p)
{
	struct fastrec *f = fastrec_mapped(p);
	if (!f || p->vfork_parent || p->procmem < 0)
		return;
	fastdrain_drain(p);
	if (fastentry_slots_back(p->procmem, p->pid, f))
		f->tramp_held = true;
	fastentry_restore(p->procmem, f);
	task_foreach(step_out, p);
	fastdrain_drain(p);
	uint64_t size = rec_shadow_size(f->l.depth);
	uint64_t ret_tramp = f->base + f->l.blob + rec_blob_return;
	for (uint32_t i = 0; i < f->l.nshadow; i++)
		unhook_shadow(p, f, f->base + f->l.shadow + i * size,
			      ret_tramp);
}
