/* The event loop, on top of the Linux backend: wait for a report, decode
 * it (tracee_decode) and act on it: breakpoint hits, signals, new tasks,
 * execs, exits; at a termination signal (termsig.c), the detach.  It
 * implements backend_init and backend_run of backend.h.
 *
 * The per-call budget (DESIGN.md, "The per-call budget"): a traced call
 * costs two stops.  At the call stub: GETREGS, one gathered read, SETREGS
 * (the stub's jump through its GOT slot emulated), CONT.  At the return: GETREGS, SETREGS
 * (into the displaced copy), CONT.  A call site without a stub costs the
 * same: at its entry, GETREGS, one gathered read, SETREGS (into the
 * displaced copy of its call), CONT; so does a function's entry (-x),
 * its first instruction run displaced.  With -S only, syscall-stops too:
 * two per system call (syscalls.c). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#include "adopt.h"
#include "arch.h"
#include "attach.h"
#include "backend.h"
#include "bpt.h"
#include "bptproto.h"
#include "callsite.h"
#include "calls.h"
#include "debug.h"
#include "dwarfproto.h"
#include "entry.h"
#include "errnoloc.h"
#include "error.h"
#include "fast.h"
#include "bptmem.h"
#include "mem.h"
#include "memsrc.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "procfs.h"
#include "retbp.h"
#include "rtld.h"
#include "scratch.h"
#include "syscalls.h"
#include "termsig.h"
#include "tracee.h"
#include "unwind.h"
#include "warm.h"

static const struct options *opts;
static struct dwarf_protos *dwarf;
static int main_status = -1; /* tracer exit status once known */
static bool fast_on;	     /* --fast (fast.h) */

/* ---- the stop context: registers, lazily the FP registers ---- */

struct bpt_stop {
	struct callsite cs;
	struct arch_regs regs;
	struct arch_fpregs fp;
	int fp_state;  /* 0 not read, 1 read, -1 failed */
	int err_state; /* errno: 0 not read, 1 read, -1 unknown */
	int err;
	struct task *task;
	pid_t tid;
};

static const void *stop_fpregs(struct callsite *cs)
{
	struct bpt_stop *s = (struct bpt_stop *)cs;
	if (!s->fp_state)
		s->fp_state = tracee_get_fpregs(s->tid, &s->fp) ? -1 : 1;
	return s->fp_state > 0 ? &s->fp.f : NULL;
}

static bool stop_errno(struct callsite *cs, int *out)
{
	struct bpt_stop *s = (struct bpt_stop *)cs;
	if (!s->err_state)
		s->err_state =
			errnoloc_read(s->task, &s->regs, cs->mem, &s->err) ? 1 :
									     -1;
	*out = s->err;
	return s->err_state > 0;
}

static void stop_init(struct bpt_stop *s, struct task *t, bool at_entry)
{
	struct process *p = process_mem(t->proc);
	s->cs.mem = mem_bind(p->pid, p->procmem);
	s->cs.regs = &s->regs.r;
	s->cs.fpregs = stop_fpregs;
	s->cs.at_entry = at_entry;
	s->cs.error = 0;
	s->cs.target = 0;
	s->cs.thread_errno = stop_errno;
	s->cs.tid = t->tid;
	s->fp_state = 0;
	s->err_state = 0;
	s->task = t;
	s->tid = t->tid;
}

/* ---- breakpoint hits ---- */

/* The memory word to prefetch for the return address of a call whose
 * callee's first instruction sees REGS: where it is, or 0 when a
 * register holds it (arch_return_addr). */
static uint64_t ret_word(const struct arch_regs *regs)
{
	uint64_t ret = 0, word = 0;
	return arch_return_addr(regs, &ret, &word) ? 0 : word;
}

/* That return address into *RET, from the register or read through M;
 * false if it cannot be read. */
static bool read_ret(struct memsrc *m, const struct arch_regs *regs,
		     uint64_t *ret)
{
	uint64_t word = 0;
	return arch_return_addr(regs, ret, &word) ||
	       memsrc_read(m, word, ret, sizeof(*ret)) == sizeof(*ret);
}

/* A new call returning to RET with the stack pointer at RET_SP: the
 * pending calls it shows unwound never returned; if one did not because
 * its return breakpoint is gone (the program mapped its page anew), put
 * it back for the next call that returns there.  A tail call leaves
 * the innermost call pending, unless its breakpoint was gone: its
 * return was lost then, as before the tail calls were told apart. */
static void recheck_unwound(struct task *t, struct bpt_stop *s, uint64_t ret,
			    uint64_t ret_sp)
{
	if (call_tail(t, ret, ret_sp)) {
		/* Before call_unwound, which would walk every frame of a
		 * chain of tail calls at each one. */
		if (retbp_recheck(t, s->cs.mem, &s->regs, ret))
			call_abandon(t, call_unwound(t, ret_sp));
		return;
	}
	size_t n = call_unwound(t, ret_sp);
	for (size_t k = n; k < t->nframes; k++)
		retbp_recheck(t, s->cs.mem, &s->regs, t->frames[k].ret);
}

/* T entered B's function, its registers CALLEE as the function's first
 * instruction sees them, to return to RET: the call is shown, its return
 * breakpoint ensured.  With --fast, RET in the recorder's code is its
 * return trampoline: a tail call from a recorded call whose return it
 * hooked, the innermost pending call if that one returns with the same
 * stack pointer.  Its return is then that call's, which the recorder
 * records: no breakpoint goes into the recorder's code. */
static void entered(struct task *t, struct breakpoint *b, struct bpt_stop *s,
		    struct arch_regs *callee, uint64_t ret)
{
	uint64_t sp = arch_sp_after_return(callee);
	const struct frame *top = t->nframes ? &t->frames[t->nframes - 1] :
					       NULL;
	bool hooked = fast_on && fast_owns_ip(t, ret);
	if (hooked && top && top->ret_sp == sp)
		ret = top->ret;
	recheck_unwound(t, s, ret, sp);
	s->cs.regs = &callee->r;
	call_entry(t, b, &s->cs, ret, sp, task_prints(t));
	s->cs.regs = &s->regs.r;
	if (!hooked)
		retbp_ensure(t, s->cs.mem, &s->regs, ret);
}

static void on_stub(struct task *t, struct breakpoint *b, struct bpt_stop *s)
{
	uint64_t ret = 0;
	uint64_t target = 0;
	uint64_t pf[3 + ARCH_INT_ARGS] = { ret_word(&s->regs), b->call.got,
					   b->addr + ARCH_BREAKPOINT_LEN };
	unsigned n = 3 + arch_int_args(&s->regs, pf + 3);
	mem_prefetch(pf, n);
	if (bptmem_stub_changed(b, s->cs.mem)) {
		/* The program rewrote the stub: run it as it now is.  A
		 * failure is reported (unless the task is gone); the loop
		 * resumes the task either way. */
		bptmem_lift(process_mem(t->proc), b);
		(void)tracee_set_regs(t->tid, &s->regs);
		return;
	}
	if (!read_ret(s->cs.mem, &s->regs, &ret) ||
	    memsrc_read(s->cs.mem, b->call.got, &target, sizeof(target)) !=
		    sizeof(target)) {
		/* Cannot emulate the jump: run the stub itself. */
		retbp_step_in_place(t, b, &s->regs);
		return;
	}
	bptproto_resolve(t, b);
	if (fast_take(t, b, &s->regs, target))
		return;
	entered(t, b, s, &s->regs, ret);
	t->frames[t->nframes - 1].binding = fast_binding(t, b, target);
	/* Emulate the stub's jump through its GOT slot (and what it leaves
	 * in registers for lazy binding: arch_stub_jump), past the entry
	 * breakpoint of a function -x traces too: one line per call. */
	arch_stub_jump(&s->regs, b->call.got, target);
	retbp_jump(t, s->cs.mem, &s->regs, target);
}

/* T's pending call I returned: its line, then with -w the stack it
 * returned into (ltrace shows it after the return line). */
static void show_return(struct task *t, size_t i, struct bpt_stop *s)
{
	if (call_return(t, i, &s->cs, task_prints(t)) && opts->where)
		unwind_show(t, &s->regs, s->cs.mem, opts->where);
}

/* T's pending call I returned, the registers as the return left them,
 * and so did the calls that tail-called it: each is shown, innermost
 * first.  An IFUNC resolver's return value is the implementation it
 * chose. */
static void returned(struct task *t, long i, struct bpt_stop *s)
{
	uint64_t ret = t->frames[i].ret, sp = t->frames[i].ret_sp;
	s->cs.at_entry = false;
	for (; i >= 0; i = call_tail_caller(t, (size_t)i, ret, sp)) {
		const struct breakpoint *called = t->frames[i].bpt;
		show_return(t, (size_t)i, s);
		if (called->ops && called->ops->returned)
			called->ops->returned(t, called, s);
	}
}

static void on_return(struct task *t, struct breakpoint *b, struct bpt_stop *s)
{
	long i = call_match(t, b->addr, arch_sp(&s->regs));
	if (i >= 0)
		returned(t, i, s);
	else if (fast_on)
		retbp_lift_unneeded(t, b); /* a recorded call's return */
	retbp_run_displaced(t, b, &s->regs);
}

/* Whether the entry of B, with return address RET, is the call that T's
 * innermost pending call F made through a stub (or call site) whose GOT
 * slot now holds B's address: the stub jumped to lazy binding, which
 * bound the slot and came here.  The stub showed the call already. */
static bool same_call(const struct frame *f, const struct breakpoint *b,
		      struct bpt_stop *s, uint64_t ret)
{
	uint64_t bound = 0;
	return f && f->bpt->kind != BPT_ENTRY && f->bpt->call.got &&
	       f->ret == ret && f->ret_sp == arch_sp_after_return(&s->regs) &&
	       memsrc_read(s->cs.mem, f->bpt->call.got, &bound,
			   sizeof(bound)) == sizeof(bound) &&
	       bound == b->addr;
}

/* A function's entry (-x): the registers are as at a stub's stop; its
 * first instruction runs displaced.  The address may also be where a
 * traced call returns (RETURNS), and the call may have been shown by a
 * stub already (same_call). */
static void on_entry(struct task *t, struct breakpoint *b, struct bpt_stop *s)
{
	struct process *p = process_mem(t->proc);
	if (b->entry.fast_unwind) {
		fast_unwinding(t, s->cs.mem, &s->regs);
		retbp_run_entry(t, s->cs.mem, &s->regs, b);
		return;
	}
	long i = b->entry.returns ? call_match(t, b->addr, arch_sp(&s->regs)) :
				    -1;
	if (i >= 0) {
		returned(t, i, s);
		retbp_run_entry(t, s->cs.mem, &s->regs, b);
		return;
	}
	const struct frame *top = t->nframes ? &t->frames[t->nframes - 1] :
					       NULL;
	uint64_t pf[2 + ARCH_INT_ARGS] = { ret_word(&s->regs),
					   top ? top->bpt->call.got : 0 };
	mem_prefetch(pf, 2 + arch_int_args(&s->regs, pf + 2));
	uint64_t ret = 0;
	if (!read_ret(s->cs.mem, &s->regs, &ret) || same_call(top, b, s, ret)) {
		retbp_run_entry(t, s->cs.mem, &s->regs, b);
		return;
	}
	/* A tail call out of a recorded call returns through the
	 * recorder: shown when that call is the top frame, whose return
	 * entered takes for it (the recorded return ends both). */
	bool hooked = fast_on && fast_tail_entry(p, ret, b->addr);
	if (hooked || bpt_lookup(&p->bpts, ret) ||
	    entry_return_ok(p, s->cs.mem, ret)) {
		bptproto_resolve(t, b);
		if (fast_on && fast_take_entry(t, b, &s->regs))
			return;
		if (!hooked ||
		    (top && top->ret_sp == arch_sp_after_return(&s->regs)))
			entered(t, b, s, &s->regs, ret);
	}
	retbp_run_entry(t, s->cs.mem, &s->regs, b);
}

/* A call through the GOT with no stub (-fno-plt), about to run: report
 * its entry with the registers the callee will see at its first
 * instruction (arch_site_callee: for a call, the return address counts
 * as pushed, on x86_64 the stack arguments at the site's [sp] are at the
 * callee's [sp + 8]) and ensure its return breakpoint; the caller then
 * runs the instruction displaced, so nothing is written.  A tail call
 * (a jump) returns where the caller's return address says, as a call
 * through a stub. */
static void site_entry(struct task *t, struct breakpoint *b, struct bpt_stop *s)
{
	struct arch_regs callee = s->regs;
	uint64_t ret = b->addr + b->site.len;
	arch_site_callee(&callee, b->site.jump, ret);
	uint64_t pf[1 + ARCH_INT_ARGS] = { ret_word(&callee) };
	unsigned n = 1 + arch_int_args(&callee, pf + 1);
	mem_prefetch(pf, n);
	if (b->site.jump && !read_ret(s->cs.mem, &callee, &ret))
		return; /* no return to wait for: run it untraced */
	bptproto_resolve(t, b);
	entered(t, b, s, &callee, ret);
}

/* A site breakpoint: first the return of a call that returns onto it
 * (back-to-back calls), then the site's own call. */
static void on_site(struct task *t, struct breakpoint *b, struct bpt_stop *s)
{
	long i = call_match(t, b->addr, arch_sp(&s->regs));
	if (i >= 0) {
		returned(t, i, s);
		s->cs.at_entry = true;
	}
	if (!b->disp_ready) {
		retbp_displace(t, s->cs.mem, &s->regs, b);
		b->disp_ready = true;
	}
	site_entry(t, b, s);
	retbp_run_displaced(t, b, &s->regs);
}

/* The return of a call that started at entry B: an IFUNC resolver's
 * return value is the implementation it chose. */
static void entry_returned(struct task *t, const struct breakpoint *b,
			   struct bpt_stop *s)
{
	if (b->entry.ifunc)
		entry_ifunc_returned(process_mem(t->proc), b,
				     arch_retval(&s->regs));
}

static void on_rendezvous(struct task *t, struct breakpoint *b,
			  struct bpt_stop *s)
{
	rtld_hit(t, b, &s->regs, s->cs.mem);
}

/* The kinds' handlers (bpt.h); BPT_SYSCALL's descriptors are in no
 * table and never hit. */
static const struct bpt_ops stub_ops = { .hit = on_stub };
static const struct bpt_ops return_ops = { .hit = on_return };
static const struct bpt_ops rendezvous_ops = { .hit = on_rendezvous };
static const struct bpt_ops entry_ops = { .hit = on_entry,
					  .returned = entry_returned };
static const struct bpt_ops site_ops = { .hit = on_site };
static const struct bpt_ops *const kind_ops[BPT_SYSCALL + 1] = {
	[BPT_STUB] = &stub_ops,
	[BPT_RETURN] = &return_ops,
	[BPT_RENDEZVOUS] = &rendezvous_ops,
	[BPT_ENTRY] = &entry_ops,
	[BPT_SITE] = &site_ops,
};

/* A SIGTRAP stop: ours if the IP is where one of our breakpoints' trap
 * leaves it (ARCH_DECR_PC_AFTER_BREAK past it).  Where a thread can
 * also be there otherwise (retbp_ip_ambiguous: on x86_64 past a
 * breakpoint whose displaced instruction is one byte long, where the
 * copy came back to), only siginfo tells a breakpoint's trap
 * (ARCH_BREAKPOINT_SI_CODE) from a SIGTRAP sent by kill, raise or
 * tgkill, which is the program's (one GETSIGINFO, at those breakpoints
 * only). */
static bool on_trap(struct task *t)
{
	struct bpt_stop s;
	stop_init(&s, t, true);
	if (tracee_get_regs(t->tid, &s.regs))
		return true;
	fast_learn(t, &s.regs);
	uint64_t at = arch_ip(&s.regs) - ARCH_DECR_PC_AFTER_BREAK;
	struct breakpoint *b = bpt_lookup(&process_mem(t->proc)->bpts, at);
	if (fast_on && b && bptmem_lifted(b) && tracee_trapped(t->tid)) {
		/* It hit a breakpoint of ours that another thread's stop
		 * lifted since: run what is there now (the original bytes,
		 * put back if the breakpoint is still there, as in a fork child whose
		 * copy missed the lift: else it would stop there for
		 * ever). */
		bptmem_unlift_one(process_mem(t->proc), b);
		arch_set_ip(&s.regs, at);
		(void)tracee_set_regs(t->tid, &s.regs);
		return true;
	}
	if (!b || !b->inserted)
		return fast_trap(t, s.cs.mem, &s.regs);
	if (retbp_ip_ambiguous(b) && !tracee_trapped(t->tid))
		return false;
	arch_set_ip(&s.regs, at);
	b->ops->hit(t, b, &s);
	return true;
}

/* ---- signals and status lines ---- */

/* -i on a line that is not a call: the address T stopped at (one
 * GETREGS, only with -i). */
static void note_ip(struct task *t)
{
	struct arch_regs regs;
	if (opts->show_ip && tracee_get_regs(t->tid, &regs) == 0)
		output_set_ip(arch_ip(&regs));
}

/* Step T out of a displaced copy in scratch memory, back into its own
 * code, before signal SIG is delivered to it: the signal frame saves the
 * IP, and a handler returning into scratch after the tracer has gone
 * (and unmapped it) would crash.  One GETREGS per signal; a step or two
 * when the signal came in the middle of a displaced instruction.  Out of
 * the --fast recorder's code too (fast_signal). */
static bool leave_scratch(struct task *t, int sig)
{
	struct process *p = process_mem(t->proc);
	struct arch_regs r;
	bool again;
	if (tracee_get_regs(t->tid, &r))
		return true;
	fast_signal(t, sig, &r);
	for (int i = 0; i < 64 && scratch_contains(p, arch_ip(&r)); i++) {
		if (retbp_syscall_home(p, &r, &again) && again) {
			/* A step would run a displaced system call, which
			 * may block for ever (pause, a restarted read): the
			 * signal is delivered here, and the scratch stays
			 * for its handler to return to. */
			if (procfs_caught(t->tid, sig))
				p->scratch_kept = true;
			return true;
		}
		int rc = tracee_step_trap(t);
		if (rc == -EINTR)
			return false;
		if (rc || tracee_get_regs(t->tid, &r))
			return true;
	}
	return true;
}

/* A job-control stop signal that will stop the program (no handler).
 * Between its signal-delivery stop and its delivery the kernel forgets
 * it if a SIGCONT comes (kernel/signal.c: SIGCONT clears
 * JOBCTL_STOP_DEQUEUED, which do_signal_stop asks for); but every
 * signal stop re-arms that mark (ptrace_signal), so a step of ours in
 * between would make it stop the program after all, for good: its
 * SIGCONT is spent.  No step then (no handler frame will save the IP),
 * and a stop signal held across a step of ours (tracee_step_trap) is
 * dropped if a SIGCONT is pending, as the SIGCONT would have cancelled
 * it untraced. */
static bool default_stop(struct task *t, int sig)
{
	if (sig == SIGSTOP)
		return true;
	return (sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) &&
	       !procfs_caught(t->tid, sig);
}

static bool cont_pending(struct task *t)
{
	unsigned long bit = 1UL << (SIGCONT - 1);
	long thread = procfs_status_field(t->tid, "SigPnd", 16);
	long shared = procfs_status_field(t->tid, "ShdPnd", 16);
	return thread != -1 && shared != -1 &&
	       (((unsigned long)thread | (unsigned long)shared) & bit);
}

/* T at a signal-delivery stop of SIG, or at a trap of ours with SIG
 * kept for it (K): shown, and delivered once T is out of scratch. */
static void on_signal(struct task *t, int sig, const struct tracee_kept *k)
{
	bool stop = default_stop(t, sig);
	if (!stop && !leave_scratch(t, sig)) {
		/* A termination signal cut the step: T is at another
		 * stop, where a resume could not deliver SIG, and the
		 * detach comes next.  SIG is kept, for the detach to send. */
		tracee_set_pending_signal(t, sig);
		return;
	}
	note_ip(t);
	if (task_prints(t) && !opts->no_signals)
		output_signal(t->proc->pid, t->tid, sig);
	if (k)
		tracee_resume_kept(t, k);
	else
		tracee_resume(t, sig);
}

/* After one of our traps: a signal kept for T while it was handled (one
 * that came during a step, or the SIGTRAP of the program's own
 * breakpoint instruction under ours) is shown and delivered as any other, but for two cases.
 * A stop signal that a SIGCONT has overtaken meanwhile is not
 * delivered.  A signal that T blocks now is not shown: the kernel
 * queues it again and its own stop shows it, so that each delivery is
 * one line. */
static void after_trap(struct task *t)
{
	struct tracee_kept k;
	int sig = tracee_take_kept(t, &k);
	if (!sig) {
		tracee_resume(t, 0);
	} else if (default_stop(t, sig) && cont_pending(t)) {
		note_ip(t);
		if (task_prints(t) && !opts->no_signals)
			output_signal(t->proc->pid, t->tid, sig);
		tracee_resume(t, 0);
	} else if (tracee_blocks(t->tid, sig)) {
		tracee_resume_kept(t, &k);
	} else {
		on_signal(t, sig, &k);
	}
}

static void on_exit_status(struct task *t, const struct tracee_event *ev)
{
	bool leader = t->proc && t->tid == t->proc->pid;
	output_set_ip(UINT64_MAX); /* ltrace's -i shows -1 */
	if (t->proc)
		call_abandon(t, 0);
	if ((leader || opts->follow) && t->proc && task_prints(t)) {
		if (ev->kind == TRACEE_EXITED)
			output_exited(t->proc->pid, t->tid, ev->code);
		else
			output_killed(t->proc->pid, t->tid, ev->sig);
	}
	if (t->tid == attach_launched_pid())
		main_status = ev->kind == TRACEE_EXITED ? ev->code :
							  128 + ev->sig;
	task_drop(t);
}

/* ---- decode and dispatch ---- */

static void on_stop(struct task *t, const struct tracee_event *ev)
{
	switch (ev->kind) {
	case TRACEE_SIGNAL:
		if (ev->sig == SIGTRAP && on_trap(t))
			after_trap(t);
		else if (fast_fault(t, ev->sig))
			tracee_resume(t, 0);
		else
			on_signal(t, ev->sig, NULL);
		break;
	case TRACEE_CLONE:
	case TRACEE_FORK:
	case TRACEE_VFORK:
		adopt_child(t, ev->kind, opts);
		tracee_resume(t, 0);
		break;
	case TRACEE_EXEC:
		note_ip(t);
		adopt_exec(t, opts);
		break;
	case TRACEE_GROUP_STOP:
		tracee_listen(t->tid);
		break;
	case TRACEE_EXIT: /* only with --fast */
		fast_exit(t);
		tracee_resume(t, 0);
		break;
	case TRACEE_SYSCALL: /* only with -S */
		syscalls_stop(t);
		tracee_resume(t, 0);
		break;
	default:
		tracee_resume(t, 0);
	}
}

/* A stop from a tid we do not know yet: a new clone whose parent's event
 * has not been seen.  It waits, stopped, for the parent's report. */
static void on_orphan(pid_t tid)
{
	struct task *t = task_new(tid, NULL);
	t->orphan = true;
}

/* -D 10: every report, decoded. */
static void debug_event(pid_t tid, const struct tracee_event *ev)
{
	static const char *const names[] = {
		[TRACEE_EXITED] = "exited",
		[TRACEE_KILLED] = "killed",
		[TRACEE_SIGNAL] = "signal",
		[TRACEE_SYSCALL] = "syscall",
		[TRACEE_GROUP_STOP] = "group-stop",
		[TRACEE_EVENT_STOP] = "event-stop",
		[TRACEE_CLONE] = "clone",
		[TRACEE_FORK] = "fork",
		[TRACEE_VFORK] = "vfork",
		[TRACEE_EXEC] = "exec",
		[TRACEE_EXIT] = "exit",
		[TRACEE_OTHER_EVENT] = "other-event",
	};
	const char *n = (size_t)ev->kind < sizeof(names) / sizeof(names[0]) ?
				names[ev->kind] :
				NULL;
	debug_msg(DEBUG_EVENTS, "event: tid %d %s sig %d code %d", (int)tid,
		  n ? n : "?", ev->sig, ev->code);
}

static void dispatch(pid_t tid, const struct tracee_event *ev)
{
	if (debug_on(DEBUG_EVENTS))
		debug_event(tid, ev);
	struct task *t = task_lookup(tid);
	if (!t) {
		if (!tracee_ended(ev))
			on_orphan(tid);
		return;
	}
	if (tracee_ended(ev)) {
		on_exit_status(t, ev);
		return;
	}
	if (!t->proc)
		return;
	mem_reset();
	on_stop(t, ev);
}

void backend_init(const struct options *o, struct protoset *ps)
{
	opts = o;
	bpt_set_ops(kind_ops);
	bptmem_init(o);
	fast_on = fast_init(o);
	dwarf = dwarf_protos_new();
	bptproto_init(ps, dwarf);
	calls_init(o);
	if (o->syscalls)
		syscalls_init(ps);
}

/* ---- the loop ---- */

int backend_run(void)
{
	/* A program started alone gets its terminal's signals. */
	termsig_init(opts->npids ? 0 : attach_launched_pid());
	/* With --fast too, for the functions left in ptrace mode; but
	 * only once they stop often. */
	warm_start(fast_on ? WARM_FAST_STREAK : 0);
	fast_start();
	while (task_count() > 0 && !termsig_caught()) {
		output_sync();
		struct tracee_event ev;
		fast_unlock();
		pid_t tid = termsig_wait(&ev, task_count() > 1);
		fast_lock();
		if (tid < 0)
			break;
		/* What the recorder holds happened before this stop: shown
		 * first, with times before the stop's.  If a stopped writer
		 * holds it back, that writer's stop first (once). */
		fast_drain_all();
		if (fast_settle(tid, tracee_may_defer(tid)) &&
		    tracee_defer(tid))
			continue;
		output_clock();
		warm_tick();
		dispatch(tid, &ev);
		termsig_after(tid, &ev);
	}
	warm_stop();
	int stop_sig = termsig_caught();
	if (stop_sig)
		attach_detach_all();
	fast_stop();
	output_flush();
	dwarf_protos_free(dwarf);
	dwarf = NULL;
	unwind_free_all();
	syscalls_free();
	if (retbp_singlesteps() && getenv("LTRACE_DEBUG_STEPS"))
		error_msg("%lu single steps", retbp_singlesteps());
	debug_msg(DEBUG_GENERAL, "loop ended: %s, %lu single steps",
		  stop_sig ? "termination signal" : "no tracee left",
		  retbp_singlesteps());
	if (stop_sig)
		return 128 + stop_sig;
	return main_status < 0 ? 0 : main_status;
}
