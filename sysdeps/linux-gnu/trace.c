/* The ptrace event loop: launching, decoding wait statuses into events,
 * and acting on them (breakpoints, signals, clone/fork/vfork/exec, exit).
 *
 * Budget (DESIGN.md): a traced call costs two stops.  At the call stub:
 * GETREGS, one gathered read, SETREGS (the stub's GOT jump emulated),
 * CONT.  At the return: GETREGS, SETREGS (into the displaced copy), CONT. */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "bpt.h"
#include "callsite.h"
#include "calls.h"
#include "displace.h"
#include "dwarfproto.h"
#include "elfscan.h"
#include "error.h"
#include "linux.h"
#include "mem.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "protoset.h"
#include "xmalloc.h"

static const struct options *opts;
static struct protoset *protos;
static struct dwarf_protos *dwarf;
pid_t trace_main_pid;
static int main_status = -1;	/* tracer exit status once known */
static unsigned long singlesteps;

/* Signals that arrived while a task was being waited for alone. */
struct pending {
	pid_t tid;
	int sig;
	struct pending *next;
};
static struct pending *pendings;

void task_set_pending_signal(struct task *t, int sig)
{
	struct pending *p = xmalloc(sizeof(*p));
	p->tid = t->tid;
	p->sig = sig;
	p->next = pendings;
	pendings = p;
}

int task_take_pending_signal(struct task *t)
{
	for (struct pending **pp = &pendings; *pp; pp = &(*pp)->next) {
		if ((*pp)->tid == t->tid) {
			struct pending *p = *pp;
			int sig = p->sig;
			*pp = p->next;
			free(p);
			return sig;
		}
	}
	return 0;
}

int trace_get_regs(pid_t tid, struct arch_regs *r)
{
	return ptrace(PTRACE_GETREGS, tid, 0, &r->r) ? -1 : 0;
}

int trace_set_regs(pid_t tid, const struct arch_regs *r)
{
	return ptrace(PTRACE_SETREGS, tid, 0, &r->r) ? -1 : 0;
}

int trace_wait_trap(struct task *t)
{
	for (;;) {
		int st;
		pid_t r = waitpid(t->tid, &st, __WALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || !WIFSTOPPED(st))
			return -1;
		int sig = WSTOPSIG(st);
		if (sig == SIGTRAP && (st >> 16) == 0)
			return 0;
		if ((st >> 16) == 0 && sig != (SIGTRAP | 0x80))
			task_set_pending_signal(t, sig);
		ptrace(PTRACE_CONT, t->tid, 0, 0);
	}
}

void trace_resume(struct task *t, int sig)
{
	if (!sig)
		sig = task_take_pending_signal(t);
	if (ptrace(PTRACE_CONT, t->tid, 0, sig) && errno != ESRCH)
		perror_msg("PTRACE_CONT of %d", (int)t->tid);
}

/* ---- the stop context: registers, lazily the FP registers ---- */

struct stop {
	struct callsite cs;
	struct arch_regs regs;
	struct arch_fpregs fp;
	int fp_state;		/* 0 not read, 1 read, -1 failed */
	pid_t tid;
};

static const void *stop_fpregs(struct callsite *cs)
{
	struct stop *s = (struct stop *)cs;
	if (!s->fp_state)
		s->fp_state = ptrace(PTRACE_GETFPREGS, s->tid, 0, &s->fp.f) ?
			-1 : 1;
	return s->fp_state > 0 ? &s->fp.f : NULL;
}

static void stop_init(struct stop *s, struct task *t, bool at_entry)
{
	struct process *p = process_mem(t->proc);
	s->cs.mem = mem_bind(p->pid, p->memfd);
	s->cs.regs = &s->regs.r;
	s->cs.fpregs = stop_fpregs;
	s->cs.at_entry = at_entry;
	s->fp_state = 0;
	s->tid = t->tid;
}

/* ---- image setup: breakpoints on every call stub ---- */

static uint64_t read_at_entry(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	Elf64_auxv_t av[64];
	ssize_t n = read(fd, av, sizeof(av));
	close(fd);
	for (ssize_t i = 0; i < n / (ssize_t)sizeof(av[0]); i++)
		if (av[i].a_type == AT_ENTRY)
			return av[i].a_un.a_val;
	return 0;
}

/* Write int3 over every stub at once: read the span of the stubs, patch
 * it, write it back in one pwrite (at exec time only one thread runs). */
static void insert_plt_breakpoints(struct process *p)
{
	struct elf_image *img = &p->image;
	if (!img->nplt)
		return;
	uint64_t lo = img->plt[0].addr + p->bias;
	uint64_t hi = img->plt[img->nplt - 1].addr + p->bias + 1;
	uint8_t *buf = xmalloc(hi - lo);
	if (pread(p->memfd, buf, hi - lo, lo) != (ssize_t)(hi - lo)) {
		perror_msg("reading the call stubs of pid %d", (int)p->pid);
		free(buf);
		return;
	}
	for (size_t i = 0; i < img->nplt; i++) {
		uint64_t a = img->plt[i].addr + p->bias;
		if (bpt_lookup(&p->bpts, a))
			continue;
		struct breakpoint *b = bpt_add(&p->bpts, a, BPT_PLT);
		b->name = xstrdup(img->plt[i].name);
		b->got = img->plt[i].got + p->bias;
		b->orig = buf[a - lo];
		b->inserted = true;
		buf[a - lo] = ARCH_BREAKPOINT;
	}
	if (mem_write(p->memfd, lo, buf, hi - lo))
		perror_msg("inserting breakpoints in pid %d", (int)p->pid);
	free(buf);
}

int trace_open_memfd(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	return open(path, O_RDWR | O_CLOEXEC);
}

/* The process has just exec'd (or was just started): read its image,
 * map scratch memory near it, put breakpoints on its call stubs. */
void trace_setup_image(struct task *t)
{
	struct process *p = t->proc;
	char path[64], err[256];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->pid);
	p->memfd = trace_open_memfd(p->pid);
	if (p->memfd < 0) {
		perror_msg("opening /proc/%d/mem", (int)p->pid);
		return;
	}
	if (elf_image_read(&p->image, path, err, sizeof(err)) < 0) {
		error_msg("%s: %s", path, err);
		return;
	}
	p->bias = p->image.is_dyn ? read_at_entry(p->pid) - p->image.entry
				  : 0;
	if (!p->image.nplt)
		return;
	struct arch_regs regs;
	if (trace_get_regs(t->tid, &regs))
		return;
	scratch_slot(t, &regs, p->image.plt[0].addr + p->bias);
	trace_set_regs(t->tid, &regs);
	insert_plt_breakpoints(p);
}

/* ---- return breakpoints ---- */

/* Read the original bytes at ADDR, undoing our own int3s in them. */
static void read_code(struct process *p, struct memsrc *m, uint64_t addr,
		      uint8_t *buf, size_t len)
{
	size_t n = memsrc_read(m, addr, buf, len);
	memset(buf + n, 0, len - n);
	for (size_t i = 0; i < n; i++) {
		struct breakpoint *b = bpt_lookup(&p->bpts, addr + i);
		if (b && b->inserted)
			buf[i] = b->orig;
	}
}

static void ensure_return_bp(struct task *t, struct stop *s, uint64_t ret)
{
	struct process *p = process_mem(t->proc);
	if (bpt_lookup(&p->bpts, ret))
		return;
	uint8_t code[ARCH_MAX_INSN + 1];
	read_code(p, s->cs.mem, ret, code, sizeof(code));
	uint64_t slot = scratch_slot(t, &s->regs, ret);
	struct breakpoint *b = bpt_add(&p->bpts, ret, BPT_RETURN);
	if (!slot || displace_plan(code, sizeof(code), ret, slot, &b->plan))
		b->plan.kind = DISPLACE_STEP;
	if (b->plan.kind == DISPLACE_COPY) {
		b->slot = slot;
		if (mem_write(p->memfd, slot, b->plan.code, b->plan.code_len))
			b->plan.kind = DISPLACE_STEP;
	}
	static const uint8_t int3 = ARCH_BREAKPOINT;
	b->orig = code[0];
	b->inserted = mem_write(p->memfd, ret, &int3, 1) == 0;
}

/* Single-step the original instruction in place: the counted fallback
 * for an instruction that cannot run displaced. */
static void step_in_place(struct task *t, struct breakpoint *b,
			  struct stop *s)
{
	struct process *p = process_mem(t->proc);
	static const uint8_t int3 = ARCH_BREAKPOINT;
	singlesteps++;
	mem_write(p->memfd, b->addr, &b->orig, 1);
	arch_set_ip(&s->regs, b->addr);
	trace_set_regs(t->tid, &s->regs);
	if (ptrace(PTRACE_SINGLESTEP, t->tid, 0, 0) == 0)
		trace_wait_trap(t);
	mem_write(p->memfd, b->addr, &int3, 1);
}

/* Move the task past the instruction under return breakpoint B. */
static void run_displaced(struct task *t, struct breakpoint *b,
			  struct stop *s)
{
	struct process *p = process_mem(t->proc);
	switch (b->plan.kind) {
	case DISPLACE_COPY:
		arch_set_ip(&s->regs, b->slot);
		break;
	case DISPLACE_JUMP:
		arch_set_ip(&s->regs, b->plan.target);
		break;
	case DISPLACE_CALL: {
		uint64_t slot = arch_push_return(&s->regs);
		mem_write(p->memfd, slot, &b->plan.ret_addr,
			  sizeof(b->plan.ret_addr));
		arch_set_ip(&s->regs, b->plan.target);
		break;
	}
	case DISPLACE_STEP:
		step_in_place(t, b, s);
		return;
	}
	trace_set_regs(t->tid, &s->regs);
}

/* ---- breakpoint hits ---- */

/* Prototype files first; then the DWARF of the mapped objects: the
 * libraries, which define what the program calls, before the program,
 * whose DWARF only declares it. */
static const struct prototype *lookup_in(struct process *p, const char *name)
{
	const struct prototype *pr = protoset_lookup(
		protos, name, (const char *const *)p->lib_names, p->nlibs);
	for (size_t i = 1; i <= p->nlibs && !pr; i++)
		pr = dwarf_lookup(dwarf, p->lib_paths[i % p->nlibs], name);
	return pr;
}

/* The prototype of B's function, looked up at its first call, when the
 * libraries are mapped.  A miss reads the mappings again (a dlopen may
 * have brought the library that describes it). */
static const struct prototype *resolve_proto(struct task *t,
					     struct breakpoint *b)
{
	if (b->proto_done)
		return b->proto;
	struct process *p = process_mem(t->proc);
	size_t known = p->nlibs;
	if (!known)
		process_read_libs(p);
	b->proto = lookup_in(p, b->name);
	if (!b->proto && known) {
		process_read_libs(p);
		if (p->nlibs != known)
			b->proto = lookup_in(p, b->name);
	}
	b->proto_done = true;
	return b->proto;
}

static void on_plt(struct task *t, struct breakpoint *b, struct stop *s)
{
	uint64_t slot = arch_return_slot(&s->regs);
	uint64_t ret = 0;
	uint64_t target = 0;
	uint64_t pf[2 + 6] = { slot, b->got };
	unsigned n = 2 + arch_int_args(&s->regs, pf + 2);
	mem_prefetch(pf, n);
	if (memsrc_read(s->cs.mem, slot, &ret, sizeof(ret)) != sizeof(ret) ||
	    memsrc_read(s->cs.mem, b->got, &target, sizeof(target)) !=
		    sizeof(target)) {
		/* Cannot emulate the jump: run the stub itself. */
		step_in_place(t, b, s);
		return;
	}
	resolve_proto(t, b);
	call_entry(t, b, &s->cs, ret, arch_sp_after_return(&s->regs),
		   task_prints(t));
	ensure_return_bp(t, s, ret);
	/* Emulate the stub's "jmp *GOT(%rip)". */
	arch_set_ip(&s->regs, target);
	trace_set_regs(t->tid, &s->regs);
}

static void on_return(struct task *t, struct breakpoint *b, struct stop *s)
{
	long i = call_match(t, b->addr, arch_sp(&s->regs));
	if (i >= 0) {
		s->cs.at_entry = false;
		call_return(t, i, &s->cs, task_prints(t));
	}
	run_displaced(t, b, s);
}

/* A SIGTRAP stop: ours if the IP is just past one of our int3s. */
static bool on_trap(struct task *t)
{
	struct stop s;
	stop_init(&s, t, true);
	if (trace_get_regs(t->tid, &s.regs))
		return true;
	uint64_t at = arch_ip(&s.regs) - ARCH_DECR_PC_AFTER_BREAK;
	struct breakpoint *b = bpt_lookup(&process_mem(t->proc)->bpts, at);
	if (!b || !b->inserted)
		return false;
	arch_set_ip(&s.regs, at);
	if (b->kind == BPT_PLT)
		on_plt(t, b, &s);
	else
		on_return(t, b, &s);
	return true;
}

/* ---- signals and status lines ---- */

static const char *signame(int sig)
{
	static char buf[16];
	const char *n = sigabbrev_np(sig);
	if (n) {
		snprintf(buf, sizeof(buf), "SIG%s", n);
		return buf;
	}
	snprintf(buf, sizeof(buf), "SIG%d", sig);
	return buf;
}

static void on_signal(struct task *t, int sig)
{
	if (task_prints(t) && !opts->no_signals)
		output_line(t->tid, "--- %s (%s) ---", signame(sig),
			 strsignal(sig));
	trace_resume(t, sig);
}

static void on_exit_status(struct task *t, int st)
{
	bool leader = t->proc && t->tid == t->proc->pid;
	if ((leader || opts->follow) && t->proc && task_prints(t)) {
		if (WIFEXITED(st))
			output_line(t->tid, "+++ exited (status %d) +++",
				 WEXITSTATUS(st));
		else
			output_line(t->tid, "+++ killed by %s +++",
				 signame(WTERMSIG(st)));
	}
	if (t->tid == trace_main_pid)
		main_status = WIFEXITED(st) ? WEXITSTATUS(st)
					    : 128 + WTERMSIG(st);
	task_drop(t);
}

/* ---- new tasks: threads, forks, vforks ---- */

static void restore_byte(struct breakpoint *b, void *data)
{
	int fd = *(int *)data;
	if (b->inserted)
		mem_write(fd, b->addr, &b->orig, 1);
}

void trace_restore_bytes(const struct bpt_table *bpts, int memfd)
{
	bpt_foreach(bpts, restore_byte, &memfd);
}

/* A forked child that is not followed: take our int3s out of its copy of
 * the address space and let it go. */
void trace_release_fork_child(pid_t pid, struct process *parent)
{
	int fd = trace_open_memfd(pid);
	if (fd >= 0) {
		trace_restore_bytes(&parent->bpts, fd);
		close(fd);
	}
	if (ptrace(PTRACE_DETACH, pid, 0, 0) && errno != ESRCH)
		perror_msg("detaching from %d", (int)pid);
}

/* Give the new task TID (ORPHAN if it has already stopped) to P. */
static struct task *claim(struct task *orphan, pid_t tid, struct process *p)
{
	if (!orphan)
		return task_new(tid, p);
	orphan->proc = p;
	orphan->orphan = false;
	p->ntasks++;
	return orphan;
}

/* A followed fork child: a copy of the parent's address space, so a
 * copy of its breakpoints and scratch memory. */
static struct process *fork_process(struct process *pp, pid_t child)
{
	struct process *np = process_new(child);
	np->memfd = trace_open_memfd(child);
	bpt_table_destroy(&np->bpts);
	bpt_table_clone(&np->bpts, &pp->bpts);
	np->bias = pp->bias;
	np->syscall_insn = pp->syscall_insn;
	np->nscratch = pp->nscratch;
	np->scratch = xmalloc(pp->nscratch * sizeof(*np->scratch) + 1);
	memcpy(np->scratch, pp->scratch, pp->nscratch * sizeof(*np->scratch));
	return np;
}

/* Our task PARENT created CHILD (EVENT says how).  A thread joins the
 * process; a vfork child borrows its memory until it execs; a fork child
 * gets a copy of everything with -f, and is let go without. */
static void adopt(struct task *parent, pid_t child, int event)
{
	struct process *pp = parent->proc;
	struct task *c = task_lookup(child);
	bool stopped = c != NULL;
	if (event == PTRACE_EVENT_CLONE &&
	    proc_status_field(child, "Tgid", 10) == pp->pid) {
		c = claim(c, child, pp);
		c->silent = !opts->follow;
	} else if (event == PTRACE_EVENT_VFORK) {
		struct process *np = process_new(child);
		np->silent = !opts->follow;
		np->vfork_parent = process_mem(pp);
		c = claim(c, child, np);
		call_inherit(c, parent, &process_mem(pp)->bpts);
	} else if (opts->follow) {
		if (!stopped)
			waitpid(child, NULL, __WALL);
		struct process *np = fork_process(process_mem(pp), child);
		c = claim(c, child, np);
		call_inherit(c, parent, &np->bpts);
		stopped = true;
	} else {
		if (c)
			task_free(c);
		/* Wait for its first stop before writing its memory. */
		if (!stopped)
			waitpid(child, NULL, __WALL);
		trace_release_fork_child(child, process_mem(pp));
		return;
	}
	if (stopped)
		trace_resume(c, 0);
}

static void on_exec(struct task *t)
{
	struct process *p = t->proc;
	unsigned long former;
	ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &former);
	/* A thread other than the leader exec'd: it now has the leader's
	 * id, and its old id is gone without an exit report. */
	struct task *old = (pid_t)former != t->tid ? task_lookup(former) : NULL;
	if (old && old->proc == p)
		task_drop(old);
	if (p->vfork_parent) {
		/* The vfork child has its own memory now. */
		if (!opts->follow) {
			ptrace(PTRACE_DETACH, t->tid, 0, 0);
			task_drop(t);
			return;
		}
		p->vfork_parent = NULL;
	}
	if (task_prints(t))
		output_line(t->tid, "--- Called exec() ---");
	task_pop_frames(t, 0);
	process_reset_image(p);
	mem_reset();
	trace_setup_image(t);
	trace_resume(t, 0);
}

static void on_event_stop(struct task *t, int st)
{
	int event = st >> 16, sig = WSTOPSIG(st);
	unsigned long msg = 0;
	switch (event) {
	case PTRACE_EVENT_CLONE:
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
		ptrace(PTRACE_GETEVENTMSG, t->tid, 0, &msg);
		adopt(t, (pid_t)msg, event);
		trace_resume(t, 0);
		break;
	case PTRACE_EVENT_EXEC:
		on_exec(t);
		break;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			ptrace(PTRACE_LISTEN, t->tid, 0, 0);	/* group-stop */
		else
			trace_resume(t, 0);
		break;
	default:
		trace_resume(t, 0);
	}
}

static void on_stop(struct task *t, int st)
{
	int sig = WSTOPSIG(st);
	if (st >> 16) {
		on_event_stop(t, st);
		return;
	}
	if (sig == SIGTRAP && on_trap(t)) {
		trace_resume(t, 0);
		return;
	}
	on_signal(t, sig);
}

/* A stop from a tid we do not know yet: a new clone whose parent's event
 * has not been seen.  It waits, stopped, for the parent's report. */
static void on_orphan(pid_t tid)
{
	struct task *t = task_new(tid, NULL);
	t->orphan = true;
}

static void dispatch(pid_t tid, int st)
{
	struct task *t = task_lookup(tid);
	if (!t) {
		if (WIFSTOPPED(st))
			on_orphan(tid);
		return;
	}
	if (WIFEXITED(st) || WIFSIGNALED(st)) {
		on_exit_status(t, st);
		return;
	}
	if (!t->proc)
		return;
	mem_reset();
	on_stop(t, st);
}

void backend_init(const struct options *o, struct protoset *ps)
{
	opts = o;
	protos = ps;
	dwarf = dwarf_protos_new();
	calls_init(o);
}

/* The termination signals: detach cleanly (DESIGN.md).  The handler
 * jumps out of a blocked waitpid (it runs in the main thread: the warm
 * thread blocks every signal); a report waitpid consumed just before
 * the jump is recovered by trace_detach_all from /proc. */
static sigjmp_buf wait_env;
static volatile sig_atomic_t in_wait, stop_sig;

static void on_term_signal(int sig)
{
	stop_sig = sig;
	if (in_wait) {
		in_wait = 0;
		siglongjmp(wait_env, 1);
	}
}

static void catch_term_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGPIPE };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

static pid_t wait_any(int *st)
{
	pid_t tid = -1;
	if (sigsetjmp(wait_env, 0) == 0) {
		in_wait = 1;
		if (!stop_sig)
			tid = waitpid(-1, st, __WALL);
		in_wait = 0;
	}
	return tid;
}

int backend_run(void)
{
	catch_term_signals();
	warm_start();
	while (task_count() > 0 && !stop_sig) {
		output_sync();
		int st;
		pid_t tid = wait_any(&st);
		if (tid < 0) {
			if (errno == EINTR || stop_sig)
				continue;
			break;
		}
		warm_tick();
		dispatch(tid, st);
	}
	warm_stop();
	if (stop_sig)
		trace_detach_all();
	output_flush();
	dwarf_protos_free(dwarf);
	dwarf = NULL;
	if (singlesteps && getenv("LTRACE_DEBUG_STEPS"))
		error_msg("%lu single steps", singlesteps);
	if (stop_sig)
		return 128 + stop_sig;
	return main_status < 0 ? 0 : main_status;
}

