/* --fast: the tracer's side of the recorder (fast.h; DESIGN.md, "The
 * recorder" and "Fast mode"), turned on, and functions handed over to
 * it.  Per process: one region mapped by injected system calls at the
 * first function handed over, and the function table the tracer fills;
 * the files it is made of are listed in fastrec.h.  This one calls
 * fastdrain.c and fastrec.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch.h"
#include "bpt.h"
#include "debug.h"
#include "errcond.h"
#include "errnoloc.h"
#include "error.h"
#include "fast.h"
#include "fastrec.h"
#include "bptmem.h"
#include "lens.h"
#include "library.h"
#include "mem.h"
#include "options.h"
#include "fetchplan.h"
#include "proc.h"
#include "recorder/recblob.h"
#include "recorder/ring.h"
#include "recregs.h"
#include "rectramp.h"
#include "tracee.h"
#include "xmalloc.h"

/* -s and -A, for the fetch plans. */
static struct lens_limits limits;
/* The options show times: the records carry time stamps (rdtsc, about
 * 20 ns on a virtual machine, twice a call), else none. */
static bool timed;

bool fast_init(const struct options *o)
{
	if (!o->fast)
		return false;
	fastbt_init(o->where);
	timed = o->time_mode || o->relative || o->time_spent || o->summary ||
		o->format != FORMAT_TEXT;
	/* With -S the recorder's own copies stop at syscall-stops: a
	 * writer is often stopped inside its record, and a wait for it at
	 * another thread's stop would last its whole bound. */
	if (!fastdrain_init(timed, !o->syscalls))
		return false;
	limits.strlen = o->strlen;
	limits.arraylen = o->arraylen;
	limits.fds = o->decode_fds;
	fastrec_enabled = true;
	tracee_trace_exits(true);
	tracee_set_fault_hook(fast_fault);
	return true;
}

/* ---- setting up a process ---- */

/* Where P's threads' errno is, into its configuration SH, once libc's
 * offset is known (errnoloc.h): libc is relocated before the program's
 * code makes the calls that are handed over, so nearly always at the
 * region's setup, even after an attach (-p). */
static void errno_setup(struct process *p, struct fastrec *f,
			struct rec_shared *sh)
{
	int64_t off;
	if (!errnoloc_tpoff(p, mem_bind(p->pid, p->procmem), &off))
		return;
	sh->errno_off = off;
	sh->options |= REC_OPT_ERRNO;
	f->errno_set = true;
}

/* The same, at a later hand-over when the setup did not know it: the
 * offset first, then the option that makes the recorder read it. */
static void errno_late(struct process *p, struct fastrec *f)
{
	struct rec_shared sh = { 0 };
	if (f->errno_set || fastrec_read(p->pid, FASTREC_FIELD(f, options),
					 &sh.options, sizeof(sh.options)))
		return;
	errno_setup(p, f, &sh);
	if (f->errno_set && (mem_write(p->procmem, FASTREC_FIELD(f, errno_off),
				       &sh.errno_off, sizeof(sh.errno_off)) ||
			     mem_write(p->procmem, FASTREC_FIELD(f, options),
				       &sh.options, sizeof(sh.options))))
		f->errno_set = false;
}

/* The ring's bytes: FAST_RING, or FAST_RING_BIG when -s or -A let a
 * call's copies pass a record of FAST_RING's (a quarter of it): its
 * records then hold up to 1 MiB, and a call whose copies do not fit is
 * read at a stop (DESIGN.md, "Fetch plans"). */
static uint64_t ring_bytes(void)
{
	return limits.strlen >= FAST_BIG_STRLEN ||
			       limits.arraylen >= FAST_BIG_ARRAYLEN ?
		       FAST_RING_BIG :
		       FAST_RING;
}

/* Map and fill the region: trampolines and blob read and execute, the
 * configuration, the rest zero. */
static int setup(struct task *t, struct fastrec *f,
		 const struct arch_regs *saved)
{
	struct process *p = process_mem(t->proc);
	if (rec_layout_init(&f->l, FAST_NFUNC, FAST_PLAN_BYTES, FAST_NSHADOW,
			    FAST_DEPTH, ring_bytes()))
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
	memset(img, RECREGS_TRAP, code);
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
	if (!timed)
		((struct rec_shared *)(img + code))->options &= ~REC_OPT_TSC;
	errno_setup(p, f, (struct rec_shared *)(img + code));
	fastbt_config(f, (struct rec_shared *)(img + code));
	if (mem_write(p->procmem, f->base, img,
		      code + sizeof(struct rec_shared)))
		goto err_img;
	free(img);
	fastrec_ranges_refresh(p, f);
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

/* The exec family: the ring is drained before the old program goes. */
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
	if (b->kind == BPT_SITE && b->call.got == u->got)
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

struct in_call {
	const struct process *p;
	const struct breakpoint *b;
	bool found;
};

static void find_in_call(struct task *t, void *data)
{
	struct in_call *c = data;
	if (c->found || !t->proc || process_mem(t->proc) != c->p)
		return;
	for (size_t i = 0; i < t->nframes && !c->found; i++)
		c->found = t->frames[i].bpt == c->b && t->frames[i].binding;
}

/* Whether a thread of P is inside a call of B that went through the
 * lazy binding of B's GOT slot (fast_binding): the binding's write,
 * after ours, would point the slot past the recorder again, and B's
 * stub breakpoint is lifted at the hand-over: every later call would go
 * untraced (proc test sig_load in --fast, 1 run in 30; e2e
 * fast_lazy_race, where an IFUNC resolver holds a thread there).  The
 * hand-over waits until no such call is pending: one scan of the
 * frames, at B's calls before it is handed over only. */
static bool in_call(const struct process *p, const struct breakpoint *b)
{
	struct in_call c = { p, b, false };
	task_foreach(find_in_call, &c);
	return c.found;
}

/* A plan's bound for the function table: more than a record holds
 * reserves the record's room all the same. */
static uint32_t bound32(uint64_t b)
{
	return b > UINT32_MAX ? UINT32_MAX : (uint32_t)b;
}

/* Fill function entry I for B: its plans (the entry's, then the
 * return's unless it copies nothing), then its table entry. */
int fastrec_fill(struct process *p, struct fastrec *f, uint32_t i,
		 const struct breakpoint *b, const struct fetch_plan *fp,
		 const struct fetch_plan *rp, uint64_t target)
{
	struct plan_op ops[2 * PLAN_MAX_OPS];
	size_t n = fp->nops, rn = rp->bound ? rp->nops : 0;
	if (f->plans_used + (n + rn) * sizeof(*ops) > FAST_PLAN_BYTES)
		return -ENOSPC;
	memcpy(ops, fp->ops, n * sizeof(*ops));
	memcpy(ops + n, rp->ops, rn * sizeof(*ops));
	uint64_t plan = f->base + f->l.plans + f->plans_used;
	struct rec_func fn = {
		.target = target,
		.plan = plan,
		.bound = bound32(fp->bound),
		.flags = REC_FN_RETURNS |
			 (replaces_image(b->call.name) ? REC_FN_DRAIN : 0) |
			 (errcond_reads(b->call.proto) ? REC_FN_ERRNO : 0) |
			 (errcond_at_entry(b->call.proto) ? REC_FN_ERRNO_ENTRY :
							    0),
		.rplan = rn ? plan + n * sizeof(*ops) : 0,
		.rbound = bound32(rp->bound),
	};
	uint64_t bytes = (n + rn) * sizeof(*ops);
	int rc = mem_write(p->procmem, plan, ops, bytes);
	if (!rc)
		rc = mem_write(p->procmem, f->base + f->l.ftab + i * sizeof(fn),
			       &fn, sizeof(fn));
	if (!rc)
		f->plans_used += (bytes + 15) & ~15ull;
	return rc;
}

bool fast_binding(const struct task *t, const struct breakpoint *b,
		  uint64_t target)
{
	/* A function never handed over needs no mark: no scan of the
	 * objects at each of its calls. */
	return fastrec_enabled && b->kind == BPT_STUB && !b->stub.fast &&
	       !b->stub.fast_refused && t->proc &&
	       !bound_yet(process_mem(t->proc), b, target);
}

bool fast_take(struct task *t, struct breakpoint *b, struct arch_regs *regs,
	       uint64_t target)
{
	struct process *p = process_mem(t->proc);
	if (!fastrec_enabled || b->kind != BPT_STUB || b->stub.fast_refused ||
	    !b->call.got || t->proc->vfork_parent)
		return false;
	if (!bound_yet(p, b, target) || in_call(p, b))
		return false; /* lazy binding: the next call will tell */
	struct fetch_plan fp, rp;
	struct slot_use u = { b->call.got, false };
	bpt_foreach(&p->bpts, find_site, &u);
	const char *why = u.used ? "call sites use its GOT slot" :
				   fastrec_refusal(t, b, regs, &fp, &rp);
	if (why) {
		debug_msg(DEBUG_GENERAL, "--fast: %s stays in ptrace mode: %s",
			  b->call.name, why);
		b->stub.fast_refused = true;
		return false;
	}
	struct fastrec *f = p->fast;
	uint32_t i = f->nfunc;
	if (errcond_reads(b->call.proto))
		errno_late(p, f);
	uint64_t tramp = f->base + f->l.tramp + (uint64_t)i * REC_TRAMP_SIZE;
	target = fastentry_copy(p, target);
	if (fastrec_fill(p, f, i, b, &fp, &rp, target) ||
	    mem_write(p->procmem, b->call.got, &tramp, sizeof(tramp))) {
		b->stub.fast_refused = true;
		return false;
	}
	f->stub[i] = b->addr;
	f->got[i] = b->call.got;
	f->target[i] = target;
	f->nfunc++;
	f->tramp_held |= b->stub.addr_read;
	fastrec_stats.handed_over++;
	bptmem_lift(p, b);
	b->stub.fast = true;
	fast_learn(t, regs);
	arch_set_ip(regs, tramp);
	(void)tracee_set_regs(t->tid, regs);
	return true;
}

const char *fastrec_refusal(struct task *t, const struct breakpoint *b,
			    struct arch_regs *regs, struct fetch_plan *fp,
			    struct fetch_plan *rp)
{
	struct process *p = process_mem(t->proc);
	const char *why = NULL;
	if (never_recorded(b->call.name))
		why = "it returns twice";
	else if (plan_compile(b->call.proto, &limits, fp, rp, &why) < 0)
		;
	else if (!fastrec_mapped(p) &&
		 (fastrec_of(p)->failed || setup(t, p->fast, regs)))
		why = "no recorder in this process";
	else if (p->fast->broken)
		why = "its recorder was given up";
	else if (p->fast->nfunc == FAST_NFUNC)
		why = "the function table is full";
	/* A plan whose bound passes a record's room (-s 9999999) is
	 * handed over: a call whose copies do not fit is read at a stop
	 * (REC_CALL_LIVE). */
	return why;
}
