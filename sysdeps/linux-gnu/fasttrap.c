/* --fast: the recorder's traps, and threads run out of its code
 * (DESIGN.md, "The recorder": Signals, Detach).  The blob's traps stop a
 * writer at a full ring, a record built on its stack, a lost return;
 * a thread that must not be in the recorder's code (a signal's handler
 * about to run, the detach) is run to one of its two ways out, a trap
 * on each for the time.  Calls fastdrain.c and fastrec.c. */
#include <signal.h>
#include <string.h>

#include "arch.h"
#include "bpt.h"
#include "debug.h"
#include "error.h"
#include "fast.h"
#include "fastrec.h"
#include "mem.h"
#include "proc.h"
#include "procfs.h"
#include "recorder/recblob.h"
#include "recregs.h"
#include "rectramp.h"
#include "retbp.h"
#include "termsig.h"
#include "tracee.h"

/* Steps given a thread to leave the recorder's code before a signal is
 * delivered to it, or before the detach, when its ways out cannot take
 * a trap: a record takes a few thousand instructions at most, its
 * copies none (copy_by_call).  With the traps, the blob's traps it may
 * meet on the way (a full ring, say). */
#define FAST_LEAVE_STEPS 100000
#define FAST_LEAVE_TRAPS 1000
/* And the time it is given, all told, checked between its steps and
 * runs: a tracer's own termination signal ends it sooner, and ends a
 * wait for the thread too (termsig_drive). */
#define FAST_LEAVE_NS 1000000000ull

/* ---- traps ---- */

static bool in_blob(const struct fastrec *f, uint64_t ip, uint64_t off)
{
	return ip == f->base + f->l.blob + off + RECREGS_TRAP_LEN;
}

/* A hooked return with no shadow entry: SP is its call's stack pointer
 * at entry.  The thread goes on where that call returns. */
static bool on_lost(struct task *t, struct arch_regs *regs, uint64_t sp)
{
	struct process *p = process_mem(t->proc);
	fastdrain_drain(p);
	for (size_t k = t->nframes; k-- > 0;) {
		if (t->frames[k].ret_sp != recregs_sp_after_return(sp))
			continue;
		uint64_t saved[2];
		if (fastrec_read(p->pid, recregs_lost_saved(sp), saved,
				 sizeof(saved)))
			return false;
		recregs_lost_return(regs, saved, sp, t->frames[k].ret);
		return tracee_set_regs(t->tid, regs) == 0;
	}
	return false;
}

/* The calls of T recorded with no hook on their return get a return
 * breakpoint: from here on their returns stop T as in ptrace mode.  They
 * are the innermost (T traps after each such record). */
void fasttrap_want_returns(struct task *t, struct memsrc *m,
			   const struct arch_regs *regs)
{
	for (size_t k = t->nframes; k-- > 0 && t->frames[k].unhooked;) {
		t->frames[k].unhooked = false;
		retbp_ensure(t, m, regs, t->frames[k].ret);
	}
}

/* Whether IP is just past one of the recorder's ways out, where
 * fast_leave puts a trap for a moment. */
static bool past_exit(const struct fastrec *f, uint64_t ip)
{
	return in_blob(f, ip, rec_blob_entry_exit) ||
	       in_blob(f, ip, rec_blob_return_exit);
}

/* Write the recorder's ways out as the blob has them, through PROCMEM:
 * after a trap of fast_leave's that a fork copied into a child (any
 * thread of the program may fork while those are in place). */
void fasttrap_exits_restore(int procmem, const struct fastrec *f)
{
	(void)mem_write(procmem, f->base + f->l.blob + rec_blob_entry_exit,
			&rec_blob[rec_blob_entry_exit], 1);
	(void)mem_write(procmem, f->base + f->l.blob + rec_blob_return_exit,
			&rec_blob[rec_blob_return_exit], 1);
}

bool fast_trap_stop(struct task *t)
{
	struct process *p = fastrec_enabled && t->proc ? process_mem(t->proc) :
							 NULL;
	struct fastrec *f = fastrec_mapped(p);
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
		/* Another thread's fast_leave had a trap there, gone now
		 * (or copied into this process by a fork: put back): back
		 * onto the jump. */
		fasttrap_exits_restore(p->procmem, f);
		arch_set_ip(regs, ip - RECREGS_TRAP_LEN);
		return tracee_set_regs(t->tid, regs) == 0;
	}
	if (in_blob(f, ip, rec_blob_trap_full)) {
		fastdrain_full(t, p);
		if (m)
			fasttrap_want_returns(t, m, regs);
		return true;
	}
	if (in_blob(f, ip, rec_blob_trap_sync)) {
		fastdrain_sync(p, f, recregs_trap_arg(regs), m);
		return true;
	}
	if (in_blob(f, ip, rec_blob_trap_lost))
		return on_lost(t, regs, recregs_trap_arg(regs));
	return false;
}

bool fast_trap(struct task *t, struct memsrc *m, struct arch_regs *regs)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = fastrec_mapped(p);
	if (!fastrec_enabled || !f)
		return false;
	return blob_trap(t, p, f, m, regs);
}

/* ---- leaving the recorder's code ---- */

/* Whether fast_leave drives a thread: a fault of the recorder's memory
 * then ends the drive, and is no sign of its being gone (below); and
 * when the drive must end. */
static bool driving;
static uint64_t drive_end;

/* Whether the drive must stop: a termination signal of the tracer's
 * came, or its time is up. */
static bool drive_over(void)
{
	return termsig_drive_cut() || fastrec_mono_ns() > drive_end;
}

/* Whether IP is in the recorder's code: its trampolines and blob. */
static bool in_code(const struct fastrec *f, uint64_t ip)
{
	return ip - f->base < f->l.rw;
}

/* T stopped on rec_copy's copy instruction (recregs.h), registers R:
 * make the copy by system calls and put T past the instruction, its
 * registers as the instruction leaves them, instead of a step per byte.  Where the bytes
 * cannot be read, T stays on the instruction with the copy made so far
 * (R says how far): a step there faults as the copy would, and
 * fast_fault ends it.  True when T is past it. */
static bool copy_by_call(struct task *t, struct process *p,
			 const struct fastrec *f, struct arch_regs *r)
{
	const unsigned char *insn = recregs_copy_insn;
	const size_t len = sizeof(recregs_copy_insn);
	uint64_t at = f->base + f->l.blob + rec_blob_copy_insn;
	unsigned char buf[4096];
	struct recregs_copy c;
	recregs_copy_get(r, &c);
	/* No copy of the recorder's is longer than a record: a longer
	 * one is the program's doing, and is stepped (bounded). */
	if (arch_ip(r) != at || c.len > rec_max_record(&f->l) ||
	    fastrec_read(p->pid, at, buf, len) || memcmp(buf, insn, len))
		return false;
	while (c.len && !drive_over()) {
		size_t n = c.len < sizeof(buf) ? c.len : sizeof(buf);
		if (fastrec_read(p->pid, c.src, buf, n) ||
		    mem_write(p->procmem, c.dst, buf, n))
			break;
		c.src += n;
		c.dst += n;
		c.len -= n;
	}
	recregs_copy_set(r, &c);
	if (!c.len)
		arch_set_ip(r, at + len);
	return tracee_set_regs(t->tid, r) == 0 && !c.len;
}

/* fast_leave by single steps, where its traps cannot be written: slow
 * (a record is some hundreds of instructions), and bounded. */
static bool step_leave(struct task *t, struct process *p, struct fastrec *f,
		       struct memsrc *m, struct arch_regs *r)
{
	for (int i = 0;
	     i < FAST_LEAVE_STEPS && in_code(f, arch_ip(r)) && !drive_over();
	     i++) {
		if (copy_by_call(t, p, f, r))
			continue;
		if (tracee_step_trap(t) || tracee_get_regs(t->tid, r))
			return false;
		fastrec_stats.leave_steps++;
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

/* T trapped past one of the ways out, registers R: the jump's work. */
static bool exit_jump(struct process *p, const struct fastrec *f,
		      struct task *t, struct arch_regs *r)
{
	uint64_t to = recregs_exit_target(r);
	if (in_blob(f, arch_ip(r), rec_blob_return_exit) &&
	    fastrec_read(p->pid, recregs_exit_word(r), &to, sizeof(to)))
		return false;
	arch_set_ip(r, to);
	return tracee_set_regs(t->tid, r) == 0;
}

/* T run to one of the recorder's ways out, through a trap on each
 * (fast_leave).  False when T is still inside. */
static bool run_leave(struct task *t, struct process *p, struct fastrec *f,
		      struct memsrc *m, struct arch_regs *r)
{
	/* Every way out of the recorder's code is one of two indirect
	 * jumps: a trap on each for the time T runs to one.  Another thread that
	 * meets one stops, and the loop puts it back on the jmp later
	 * (blob_trap). */
	const uint64_t exits[2] = { f->base + f->l.blob + rec_blob_entry_exit,
				    f->base + f->l.blob +
					    rec_blob_return_exit };
	const unsigned char trap = RECREGS_TRAP;
	if (mem_write(p->procmem, exits[0], &trap, 1) ||
	    mem_write(p->procmem, exits[1], &trap, 1)) {
		fasttrap_exits_restore(p->procmem, f);
		return step_leave(t, p, f, m, r);
	}
	bool out = false;
	for (int i = 0; i < FAST_LEAVE_TRAPS && !drive_over(); i++) {
		if (tracee_cont_trap(t) || tracee_get_regs(t->tid, r))
			break;
		fastrec_stats.leave_runs++;
		if (past_exit(f, arch_ip(r))) {
			out = exit_jump(p, f, t, r);
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
	fasttrap_exits_restore(p->procmem, f);
	return out;
}

/* T driven alone out of the recorder's code, within FAST_LEAVE_NS and
 * until a termination signal of the tracer's: a fault on the way (the
 * program broke the recorder) or a thread that never gets out cannot
 * hold the tracer (issue 25: it resumed the faulting thread for ever). */
static void drive(const struct task *t, bool on)
{
	driving = on;
	drive_end = fastrec_mono_ns() + FAST_LEAVE_NS;
	termsig_drive(on ? t->tid : 0);
	tracee_drive(t->tid, on ? termsig_drive_cut : NULL);
}

bool fast_leave(struct task *t, struct memsrc *m, struct arch_regs *r)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = fastrec_mapped(p);
	if (!f || !in_code(f, arch_ip(r)))
		return true;
	/* Stopped just past one of the blob's traps (a stop the detach
	 * collected, or a signal that came right after the loop handled
	 * the trap): that trap first; handled twice, a drain is only made
	 * again.  Past a lost return's trap still, no call of T's has
	 * that stack pointer: the program jumped there, and the next
	 * instruction is a ud2, no way out. */
	(void)blob_trap(t, p, f, m, r);
	if (!in_code(f, arch_ip(r)))
		return true;
	if (in_blob(f, arch_ip(r), rec_blob_trap_lost))
		return false;
	drive(t, true);
	bool out = run_leave(t, p, f, m, r);
	drive(t, false);
	return out;
}

void fast_signal(struct task *t, int sig, struct arch_regs *regs)
{
	struct process *p = t->proc ? process_mem(t->proc) : NULL;
	struct fastrec *f = fastrec_mapped(p);
	if (fastentry_leave_head(t, f, regs))
		return;
	if (!f || !in_code(f, arch_ip(regs)) || !procfs_caught(t->tid, sig))
		return;
	if (!fast_leave(t, mem_bind(p->pid, p->procmem), regs))
		f->signalled_inside = true;
}

/* ---- a recorder the program destroyed ---- */

/* T of P (recorder F, registers R) faulted at ADDR, not in a copy: if
 * ADDR is F's region, the program unmapped or protected it, and the
 * recorder is given up, said once on stderr: each function handed over
 * goes back to its stub (GOT slot, trap), the records that can still
 * be read are shown, and P has no recorder from then on.  True when the
 * fault was the call of a trampoline, which then goes on through its
 * stub's breakpoint (T's IP moved): T is resumed without the signal;
 * false, the program gets it (its handler runs, or it dies of it, as
 * without the recorder).  Never while fast_leave drives a thread. */
static bool gone(struct task *t, struct process *p, struct fastrec *f,
		 struct arch_regs *r, uint64_t addr)
{
	if (driving || addr - f->base >= f->l.size)
		return false;
	error_msg("--fast: process %d unmapped or protected the recorder's "
		  "memory: its calls are traced in ptrace mode from now on",
		  (int)p->pid);
	(void)fastdrain_drain(p);
	fastpoison_handback(p, f);
	uint64_t off = arch_ip(r) - (f->base + f->l.tramp);
	uint32_t i = (uint32_t)(off / REC_TRAMP_SIZE);
	bool entry = off % REC_TRAMP_SIZE == 0 &&
		     off / REC_TRAMP_SIZE < f->nfunc;
	/* No recorder in this process from now on (fastrec_mapped). */
	f->base = 0;
	f->failed = true;
	if (!entry)
		return false;
	/* At a trampoline's first instruction the call is where its stub
	 * would have it: it goes on through the stub's breakpoint. */
	arch_set_ip(r, f->stub[i]);
	return tracee_set_regs(t->tid, r) == 0;
}

bool fast_fault(struct task *t, int sig)
{
	struct process *p = fastrec_enabled && t->proc ? process_mem(t->proc) :
							 NULL;
	struct fastrec *f = fastrec_mapped(p);
	struct arch_regs r;
	uint64_t addr;
	if (!f || (sig != SIGSEGV && sig != SIGBUS) ||
	    tracee_get_regs(t->tid, &r) || !tracee_faulted(t->tid, &addr))
		return false;
	if (arch_ip(&r) != f->base + f->l.blob + rec_blob_copy_insn)
		return gone(t, p, f, &r, addr);
	arch_set_ip(&r, f->base + f->l.blob + rec_blob_copy_fixup);
	if (tracee_set_regs(t->tid, &r))
		return false;
	fastrec_stats.copy_faults++;
	f->bad[f->nbad++ % FAST_BAD] = addr & ~4095ull;
	debug_msg(DEBUG_GENERAL,
		  "--fast: thread %d: a direct copy faulted at %#llx (%s)",
		  (int)t->tid, (unsigned long long)addr,
		  sig == SIGSEGV ? "SIGSEGV" : "SIGBUS");
	fastrec_ranges_refresh(p, f);
	return true;
}
