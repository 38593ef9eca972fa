/* Ptrace primitives on one tracee: the requests, the one decoder of wait
 * statuses, waiting for a trap, pending signals, /proc/PID/mem and
 * injected system calls.
 *
 * Failed ptrace calls.  A request fails with ESRCH when its tracee is
 * gone or not in a ptrace-stop; as requests are made of stopped tracees
 * only (PTRACE_INTERRUPT aside), that means it exited or was killed
 * (SIGKILL, or the exit_group or execve of another thread).  The event
 * loop learns that from waitpid, which reports the end, so ESRCH is
 * never reported: the caller stops working on that task and leaves it
 * to the report of its end.  Any other failure is
 * unexpected (a bug of ours, or a kernel that differs): the request's
 * wrapper here reports it once, with perror_msg naming the request and
 * the tid, and returns -errno as for ESRCH; the caller does not report
 * it again, and leaves the task in a state the loop still handles (known
 * and stopped, or dropped if it was being let go).  A result is ignored
 * only where nothing after depends on it: tracee_resume, tracee_listen
 * and tracee_detach return nothing for that reason, and any other place
 * says why, with a (void) cast.  waitpid is retried on EINTR; its other
 * failure, ECHILD, means no tracee is left.  A wait for one tracee
 * (tracee_wait_trap) that sees its end returns -ESRCH as well; that end
 * is consumed, so the task stays in the table until the tracer detaches
 * or exits. */
#include "tracee.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "arch.h"
#include "error.h"
#include "mem.h"
#include "proc.h"
#include "xmalloc.h"

#define TRACE_OPTIONS                                                       \
	(PTRACE_O_TRACESYSGOOD | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | \
	 PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC)

/* ---- requests ---- */

/* The result RC of ptrace request NAME on TID, with the policy above:
 * 0, or -errno after reporting anything but ESRCH. */
static int checked(long rc, const char *name, pid_t tid)
{
	if (rc != -1)
		return 0;
	int err = errno;
	if (err != ESRCH)
		perror_msg("%s of %d", name, (int)tid);
	return -err;
}

/* One ptrace request, with the policy above. */
static int request(int req, const char *name, pid_t tid, void *addr, void *data)
{
	return checked(ptrace(req, tid, addr, data), name, tid);
}

#define REQUEST(req, tid, addr, data) \
	request(req, #req, tid, (void *)(addr), (void *)(data))

static bool trace_exits;

void tracee_trace_exits(bool on)
{
	trace_exits = on;
}

int tracee_seize(pid_t tid, bool exitkill)
{
	long opts = TRACE_OPTIONS | (exitkill ? PTRACE_O_EXITKILL : 0) |
		    (trace_exits ? PTRACE_O_TRACEEXIT : 0);
	return ptrace(PTRACE_SEIZE, tid, 0, opts) ? -errno : 0;
}

int tracee_interrupt(pid_t tid)
{
	return REQUEST(PTRACE_INTERRUPT, tid, 0, 0);
}

int tracee_cont(pid_t tid, int sig)
{
	return REQUEST(PTRACE_CONT, tid, 0, (long)sig);
}

int tracee_step(pid_t tid)
{
	return REQUEST(PTRACE_SINGLESTEP, tid, 0, 0);
}

static bool trace_syscalls;
static void raise_kept(struct task *t);

void tracee_trace_syscalls(bool on)
{
	trace_syscalls = on;
}

void tracee_resume(struct task *t, int sig)
{
	if (!sig)
		raise_kept(t);
	if (trace_syscalls)
		(void)REQUEST(PTRACE_SYSCALL, t->tid, 0, (long)sig);
	else
		(void)tracee_cont(t->tid, sig);
}

int tracee_syscall_info(pid_t tid, struct __ptrace_syscall_info *info)
{
	/* It returns the bytes it filled, which may be fewer than the
	 * struct (an older kernel's); op says which part is valid. */
	memset(info, 0, sizeof(*info));
	long n = ptrace(PTRACE_GET_SYSCALL_INFO, tid, (void *)sizeof(*info),
			info);
	if (n != -1)
		return 0;
	int err = errno;
	if (err != ESRCH)
		perror_msg("PTRACE_GET_SYSCALL_INFO of %d", (int)tid);
	return -err;
}

void tracee_listen(pid_t tid)
{
	(void)REQUEST(PTRACE_LISTEN, tid, 0, 0);
}

void tracee_detach(pid_t tid, int sig)
{
	(void)REQUEST(PTRACE_DETACH, tid, 0, (long)sig);
}

int tracee_event_msg(pid_t tid, unsigned long *msg)
{
	return REQUEST(PTRACE_GETEVENTMSG, tid, 0, msg);
}

/* Not through request(): in a group-stop PTRACE_GETSIGINFO fails with
 * EINVAL, which answers the question (no trap) and is no error. */
bool tracee_trapped(pid_t tid)
{
	siginfo_t si;
	return ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) != -1 &&
	       si.si_signo == SIGTRAP && si.si_code == ARCH_BREAKPOINT_SI_CODE;
}

bool tracee_takes_signal(pid_t tid)
{
	siginfo_t si;
	/* An event stop's si_code is SIGTRAP or the stop signal, with the
	 * event above it (ptrace_do_notify); a signal's is below 0x100. */
	return ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) != -1 &&
	       si.si_code < 0x100;
}

bool tracee_faulted(pid_t tid, uint64_t *addr)
{
	siginfo_t si;
	if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) == -1 ||
	    (si.si_signo != SIGSEGV && si.si_signo != SIGBUS) ||
	    si.si_code <= 0)
		return false;
	*addr = (uint64_t)(uintptr_t)si.si_addr;
	return true;
}

/* The requests are the architecture's (arch.h). */
int tracee_get_regs(pid_t tid, struct arch_regs *r)
{
	return checked(arch_get_regs(tid, r), ARCH_GETREGS_REQUEST, tid);
}

int tracee_set_regs(pid_t tid, const struct arch_regs *r)
{
	return checked(arch_set_regs(tid, r), ARCH_SETREGS_REQUEST, tid);
}

int tracee_get_fpregs(pid_t tid, struct arch_fpregs *f)
{
	return checked(arch_get_fpregs(tid, f), ARCH_GETFPREGS_REQUEST, tid);
}

/* ---- wait statuses ---- */

static enum tracee_event_kind stop_kind(int event, int sig)
{
	switch (event) {
	case 0:
		return sig == (SIGTRAP | 0x80) ? TRACEE_SYSCALL : TRACEE_SIGNAL;
	case PTRACE_EVENT_CLONE:
		return TRACEE_CLONE;
	case PTRACE_EVENT_FORK:
		return TRACEE_FORK;
	case PTRACE_EVENT_VFORK:
		return TRACEE_VFORK;
	case PTRACE_EVENT_EXEC:
		return TRACEE_EXEC;
	case PTRACE_EVENT_EXIT:
		return TRACEE_EXIT;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU)
			return TRACEE_GROUP_STOP;
		return TRACEE_EVENT_STOP;
	default:
		return TRACEE_OTHER_EVENT;
	}
}

/* A seized tracee's stop status holds the ptrace event in bits 16-23
 * and the signal in bits 8-15 (SIGTRAP | 0x80 for a syscall-stop with
 * PTRACE_O_TRACESYSGOOD). */
struct tracee_event tracee_decode(int status)
{
	struct tracee_event ev = { 0 };
	if (WIFEXITED(status)) {
		ev.kind = TRACEE_EXITED;
		ev.code = WEXITSTATUS(status);
	} else if (WIFSIGNALED(status)) {
		ev.kind = TRACEE_KILLED;
		ev.sig = WTERMSIG(status);
	} else {
		ev.sig = WSTOPSIG(status);
		ev.kind = stop_kind(status >> 16, ev.sig);
	}
	return ev;
}

/* Whether TID's SIGTRAP stop is one a process sent (kill, tgkill,
 * sigqueue: si_code <= 0), not a trap of the CPU (a step, a breakpoint). */
static bool sent_trap(pid_t tid)
{
	siginfo_t si;
	return ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) != -1 &&
	       si.si_code <= 0;
}

/* ---- our own traps and the program's SIGTRAP handler ---- */

/* A trap of the CPU (a breakpoint, a step) in a thread that blocks SIGTRAP
 * makes the kernel reset the program's SIGTRAP handler to SIG_DFL
 * (force_sig_info_to_task, kernel/signal.c), even under ptrace: its next
 * SIGTRAP, a raise() say, would then kill it.  The traps we cause on
 * purpose (steps, the breakpoint after an injected system call: at attach,
 * detach, mapping scratch) are taken with SIGTRAP unblocked, the mask
 * put back after.  One PTRACE_GETSIGMASK per such trap; none per call. */
struct trapmask {
	uint64_t saved;
	bool changed;
};

static void trap_unblock(pid_t tid, struct trapmask *m)
{
	const uint64_t bit = 1ULL << (SIGTRAP - 1);
	m->changed = false;
	if (ptrace(PTRACE_GETSIGMASK, tid, sizeof(m->saved), &m->saved) == -1 ||
	    !(m->saved & bit))
		return;
	uint64_t mask = m->saved & ~bit;
	m->changed = ptrace(PTRACE_SETSIGMASK, tid, sizeof(mask), &mask) == 0;
}

/* Put the mask back; if the task is gone it does not matter. */
static void trap_reblock(pid_t tid, const struct trapmask *m)
{
	if (m->changed)
		(void)ptrace(PTRACE_SETSIGMASK, tid, sizeof(m->saved),
			     &m->saved);
}

static bool (*fault_hook)(struct task *t, int sig);
static bool (*drive_cut)(void);

void tracee_set_fault_hook(bool (*hook)(struct task *t, int sig))
{
	fault_hook = hook;
}

/* The signals a drive leaves as the program has them: those the
 * instructions it runs raise, which no mask can hold back. */
#define DRIVE_SYNC                                       \
	(1ULL << (SIGTRAP - 1) | 1ULL << (SIGSEGV - 1) | \
	 1ULL << (SIGBUS - 1) | 1ULL << (SIGILL - 1) | 1ULL << (SIGFPE - 1))

static pid_t drive_tid;
static uint64_t drive_saved;
static bool drive_masked;

void tracee_drive(pid_t tid, bool (*cut)(void))
{
	if (drive_masked)
		(void)ptrace(PTRACE_SETSIGMASK, drive_tid, sizeof(drive_saved),
			     &drive_saved);
	drive_masked = false;
	drive_cut = cut;
	if (!cut || ptrace(PTRACE_GETSIGMASK, tid, sizeof(drive_saved),
			   &drive_saved) == -1)
		return;
	uint64_t mask = drive_saved | ~DRIVE_SYNC;
	drive_tid = tid;
	drive_masked = ptrace(PTRACE_SETSIGMASK, tid, sizeof(mask), &mask) == 0;
}

/* Whether TID's stop of SIG is a fault of the instruction at its IP
 * (SIGSEGV, SIGBUS, SIGILL or SIGFPE the kernel raised, si_code > 0):
 * resumed without it, the thread runs that instruction again, and it
 * faults again. */
static bool own_fault(pid_t tid, int sig)
{
	siginfo_t si;
	return (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL ||
		sig == SIGFPE) &&
	       ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) != -1 &&
	       si.si_signo == sig && si.si_code > 0;
}

static unsigned (*cut_count)(void);

void tracee_set_cut_count(unsigned (*count)(void))
{
	cut_count = count;
}

static unsigned cut_mark(void)
{
	return cut_count ? cut_count() : 0;
}

/* MARK NULL: no cut. */
static bool cut_since(const unsigned *mark)
{
	return mark && cut_count && cut_count() != *mark;
}

/* Wait for T's SIGTRAP; after any other stop, resume it as it was: by
 * PTRACE_SINGLESTEP when STEP (a continue would run it past the step,
 * into code whose breakpoint traps would then go unhandled), else by
 * PTRACE_CONT.  With a MARK, a termination signal since then
 * (cut_count) ends the wait at T's next stop: a step can last for ever
 * (an instruction a hostile program makes block), and the tracer must
 * still end.  The signal's handler interrupts T (tracee_waiting); one
 * that came before the wait began, this wait does.  Injected system
 * calls are not cut: a cut one would leave its effect unknown. */
static int wait_trap(struct task *t, bool step, const unsigned *mark)
{
	for (;;) {
		struct tracee_event ev;
		if (cut_since(mark))
			(void)tracee_interrupt(t->tid);
		if (tracee_wait(t->tid, 0, &ev) < 0 || tracee_ended(&ev))
			return -ESRCH;
		if (ev.kind == TRACEE_EXIT) {
			/* About to exit (--fast's PTRACE_O_TRACEEXIT): that
			 * stop is the loop's.  Resumed here, a leader would
			 * end, unreported while the other threads of a group
			 * exit wait at theirs, and this wait with it. */
			tracee_put_back(t->tid);
			return -ESRCH;
		}
		/* A SIGTRAP someone sent is the program's: kept, as any
		 * other signal, not taken for the trap waited for. */
		if (ev.kind == TRACEE_SIGNAL && ev.sig == SIGTRAP &&
		    !sent_trap(t->tid))
			return 0;
		bool keep = ev.kind == TRACEE_SIGNAL &&
			    !(fault_hook && fault_hook(t, ev.sig));
		/* A fault would come back at each resume, for ever (a
		 * program that unmapped the recorder): the wait ends at
		 * it.  A drive's is its own: not kept, T at its stop. */
		if (keep && own_fault(t->tid, ev.sig)) {
			if (!drive_cut)
				tracee_set_pending_signal(t, ev.sig);
			return -EFAULT;
		}
		if (keep)
			tracee_set_pending_signal(t, ev.sig);
		if ((drive_cut && drive_cut()) || cut_since(mark))
			return -EINTR;
		int rc = step ? tracee_step(t->tid) : tracee_cont(t->tid, 0);
		if (rc)
			return rc;
	}
}

int tracee_wait_trap(struct task *t)
{
	return wait_trap(t, false, NULL);
}

int tracee_cont_trap(struct task *t)
{
	struct trapmask m;
	trap_unblock(t->tid, &m);
	int rc = tracee_cont(t->tid, 0);
	if (!rc)
		rc = wait_trap(t, false, NULL);
	trap_reblock(t->tid, &m);
	return rc;
}

int tracee_step_trap(struct task *t)
{
	struct trapmask m;
	trap_unblock(t->tid, &m);
	unsigned mark = cut_mark();
	int rc = tracee_step(t->tid);
	if (!rc)
		rc = wait_trap(t, true, &mark);
	trap_reblock(t->tid, &m);
	return rc;
}

/* ---- pending signals ---- */

/* Signals that arrived while a task was being waited for alone (a
 * signal-delivery stop that a step or an injected system call met),
 * with the siginfo they came with, oldest first. */
struct pending {
	pid_t tid;
	struct tracee_kept k;
	struct pending *next;
};

static struct pending *pendings;

/* Signals kept per task at most: more means something loops. */
#define KEPT_MAX 64

/* Whether T's SIG is kept already, as a signal the kernel does not
 * queue twice (below SIGRTMIN: a second one pending merges with the
 * first), or T has KEPT_MAX kept. */
static bool kept_already(const struct task *t, int sig)
{
	unsigned n = 0;
	for (const struct pending *p = pendings; p; p = p->next) {
		if (p->tid != t->tid)
			continue;
		if (++n == KEPT_MAX || (p->k.sig == sig && sig < SIGRTMIN))
			return true;
	}
	return false;
}

void tracee_set_pending_signal(struct task *t, int sig)
{
	if (kept_already(t, sig))
		return;
	struct pending *p = xcalloc(1, sizeof(*p));
	p->tid = t->tid;
	p->k.sig = sig;
	/* T is at that signal's stop (or at the trap it stands for). */
	p->k.have_si = ptrace(PTRACE_GETSIGINFO, t->tid, NULL, &p->k.si) == 0 &&
		       p->k.si.si_signo == sig;
	struct pending **pp = &pendings;
	while (*pp)
		pp = &(*pp)->next;
	*pp = p;
}

/* T's oldest kept signal, unlinked; NULL for none. */
static struct pending *take_kept(struct task *t)
{
	for (struct pending **pp = &pendings; *pp; pp = &(*pp)->next) {
		if ((*pp)->tid == t->tid) {
			struct pending *p = *pp;
			*pp = p->next;
			return p;
		}
	}
	return NULL;
}

int tracee_take_pending_signal(struct task *t)
{
	struct pending *p = take_kept(t);
	int sig = p ? p->k.sig : 0;
	free(p);
	return sig;
}

bool tracee_blocks(pid_t tid, int sig)
{
	uint64_t mask;
	return ptrace(PTRACE_GETSIGMASK, tid, sizeof(mask), &mask) == 0 &&
	       (mask & (1ULL << (sig - 1)));
}

int tracee_take_kept(struct task *t, struct tracee_kept *k)
{
	struct pending *p = take_kept(t);
	if (!p)
		return 0;
	*k = p->k;
	free(p);
	return k->sig;
}

void tracee_resume_kept(struct task *t, const struct tracee_kept *k)
{
	/* With the siginfo it came with, a handler sees its sender as it
	 * would untraced (ptrace_signal keeps an info whose si_signo is
	 * the signal resumed with). */
	if (k->have_si)
		(void)ptrace(PTRACE_SETSIGINFO, t->tid, NULL, &k->si);
	tracee_resume(t, k->sig);
}

/* At a stop that is not a signal-delivery stop, a signal injected may
 * be dropped (a ptrace-event stop ignores it) or queued anew (a
 * syscall-stop): T's oldest kept signal is queued again instead, with
 * its siginfo where the kernel lets a tracer send it (a negative
 * si_code other than SI_TKILL), else by tgkill.  Its own
 * signal-delivery stop shows it, once. */
static void raise_kept(struct task *t)
{
	struct pending *p = take_kept(t);
	if (!p)
		return;
	pid_t tgid = t->proc ? t->proc->pid : t->tid;
	const struct tracee_kept *k = &p->k;
	if (!k->have_si || k->si.si_code >= 0 || k->si.si_code == SI_TKILL ||
	    syscall(SYS_rt_tgsigqueueinfo, tgid, t->tid, k->sig, &k->si))
		(void)syscall(SYS_tgkill, tgid, t->tid, k->sig); /* ESRCH */
	free(p);
}

/* ---- memory and injected system calls ---- */

int tracee_open_procmem(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	return open(path, O_RDWR | O_CLOEXEC);
}

/* Resume T until it traps with its IP at WANT (where the breakpoint
 * instruction that ends ARCH_SYSCALL_INSN leaves it).  A trap elsewhere
 * is a SIGTRAP that was pending before (taken before any instruction
 * runs): the program's own breakpoint instruction, just run, since callers
 * inject only at a stop of ours or after the detach has taken any trap
 * of ours still pending.  It is kept for the program, as any signal
 * met on the way.  Leaves the registers in *R. */
static int run_to(struct task *t, uint64_t want, struct arch_regs *r)
{
	for (int tries = 0; tries < 4; tries++) {
		int rc = tracee_cont(t->tid, 0);
		if (!rc)
			rc = tracee_wait_trap(t);
		if (!rc)
			rc = tracee_get_regs(t->tid, r);
		if (rc)
			return rc;
		if (arch_ip(r) == want)
			return 0;
		tracee_set_pending_signal(t, SIGTRAP);
	}
	return -EIO;
}

/* run_to, its trap taken with SIGTRAP unblocked (trap_unblock). */
static int run_to_trap(struct task *t, uint64_t want, struct arch_regs *r)
{
	struct trapmask m;
	trap_unblock(t->tid, &m);
	int rc = run_to(t, want, r);
	trap_reblock(t->tid, &m);
	return rc;
}

/* Where the trap of the breakpoint instruction that ends
 * ARCH_SYSCALL_INSN at IP leaves the IP. */
static uint64_t syscall_trap_ip(uint64_t ip)
{
	return ip + ARCH_SYSCALL_INSN_LEN - ARCH_BREAKPOINT_LEN +
	       ARCH_DECR_PC_AFTER_BREAK;
}

/* Before there is scratch memory (right after exec, with one thread),
 * the syscall instruction borrows the bytes at the stopped IP; ORIG
 * receives them. */
static int borrow_ip(struct process *p, uint64_t ip, uint8_t *orig)
{
	static const uint8_t insn[] = ARCH_SYSCALL_INSN;
	ssize_t n = pread(p->procmem, orig, sizeof(insn), (off_t)ip);
	if (n != sizeof(insn))
		return n < 0 ? -errno : -EIO;
	return mem_write(p->procmem, ip, insn, sizeof(insn));
}

int tracee_inject_syscall(struct task *t, const struct arch_regs *saved,
			  long nr, const long args[6], long *ret)
{
	struct process *p = process_mem(t->proc);
	uint64_t ip = p->syscall_insn;
	uint8_t orig[ARCH_SYSCALL_INSN_LEN];
	if (!ip) {
		ip = arch_ip(saved);
		int rc = borrow_ip(p, ip, orig);
		if (rc)
			return rc;
	}
	struct arch_regs r = *saved;
	arch_setup_syscall(&r, ip, nr, args);
	int rc = tracee_set_regs(t->tid, &r);
	if (!rc)
		rc = run_to_trap(t, syscall_trap_ip(ip), &r);
	if (!rc)
		*ret = (long)arch_retval(&r);
	/* Put the borrowed bytes back; if the task is gone it does not
	 * matter that this fails. */
	if (!p->syscall_insn)
		(void)mem_write(p->procmem, ip, orig, sizeof(orig));
	return rc;
}

uint64_t tracee_inject_mmap(struct task *t, const struct arch_regs *saved,
			    uint64_t hint, uint64_t size, int prot, int flags)
{
	long args[6] = { (long)hint, (long)size,
			 prot,	     MAP_PRIVATE | MAP_ANONYMOUS | flags,
			 -1,	     0 };
	long ret;
	if (tracee_inject_syscall(t, saved, SYS_mmap, args, &ret) ||
	    (unsigned long)ret > -4096UL)
		return 0;
	return (uint64_t)ret;
}
