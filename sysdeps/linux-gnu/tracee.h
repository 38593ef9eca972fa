/* Ptrace primitives on one tracee: the bottom layer of the Linux backend.
 * Every other backend file may use it; it uses none of them (only the
 * memory layer, mem.c, which uses nothing of the backend).  Requests
 * follow the policy for failed ptrace calls written at the top of
 * tracee.c: they return 0 or -errno, and report an error themselves
 * unless it is ESRCH (the tracee is gone). */
#ifndef LTRACE_TRACEE_H
#define LTRACE_TRACEE_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"

struct arch_regs;
struct arch_fpregs;
struct __ptrace_syscall_info;

/* What a waitpid status of a tracee says.  Ends first, then stops. */
enum tracee_event_kind {
	TRACEE_EXITED, /* it exited: code is its exit status */
	TRACEE_KILLED, /* a signal killed it: sig */
	/* signal-delivery stop of sig; SIGTRAP is one of our breakpoints or
	 * a finished step */
	TRACEE_SIGNAL,
	/* syscall-stop (PTRACE_O_TRACESYSGOOD): only once
	 * tracee_trace_syscalls(true) made resumes PTRACE_SYSCALL (-S);
	 * tracee_syscall_info says whether it is an entry or an exit */
	TRACEE_SYSCALL,
	/* PTRACE_EVENT_STOP for a stopping signal sig (SIGSTOP, SIGTSTP,
	 * SIGTTIN, SIGTTOU) */
	TRACEE_GROUP_STOP,
	/* any other PTRACE_EVENT_STOP: after PTRACE_INTERRUPT, or a new task's
	 * first stop */
	TRACEE_EVENT_STOP,
	/* PTRACE_EVENT_CLONE: the event message is the new tid */
	TRACEE_CLONE,
	TRACEE_FORK,  /* PTRACE_EVENT_FORK: likewise */
	TRACEE_VFORK, /* PTRACE_EVENT_VFORK: likewise */
	/* PTRACE_EVENT_EXEC: the event message is the tid that called execve */
	TRACEE_EXEC,
	/* PTRACE_EVENT_EXIT, only after tracee_trace_exits(true) (--fast):
	 * the task is about to exit, its memory still there */
	TRACEE_EXIT,
	TRACEE_OTHER_EVENT, /* another PTRACE_EVENT (never requested) */
};

struct tracee_event {
	enum tracee_event_kind kind;
	int sig;  /* KILLED: the signal; stops: WSTOPSIG */
	int code; /* EXITED: the exit status */
};

/* Decode STATUS, as waitpid(__WALL) returned it for a tracee seized with
 * the options of tracee_seize. */
struct tracee_event tracee_decode(int status);

static inline bool tracee_ended(const struct tracee_event *ev)
{
	return ev->kind == TRACEE_EXITED || ev->kind == TRACEE_KILLED;
}

/* waitpid(TID, __WALL | FLAGS) (TID -1: any tracee; FLAGS 0 or
 * WNOHANG), again after EINTR, decoded into *EV.  Returns the tid
 * reported, 0 if WNOHANG found none, or -errno (-ECHILD: none left); *EV
 * means something only when a tid is returned.  A blocking wait for one
 * TID takes the reports of the others that come first, to be handed out
 * later in order (a leader's end is reported only once the others' have
 * been taken). */
pid_t tracee_wait(pid_t tid, int flags, struct tracee_event *ev);
/* The report tracee_wait just handed out for TID, queued again, to be
 * handed out after those taken early. */
void tracee_put_back(pid_t tid);
/* The task a blocking tracee_wait for one task waits for, 0 if none:
 * a termination signal's handler interrupts it (wait_trap's cut). */
pid_t tracee_waiting(void);
/* waitpid(-1, __WALL) once, as tracee_wait, but a signal handler that
 * runs during it makes it return -EINTR, with no report consumed.  With
 * MANY tracees, at every 16th report the other reports pending are
 * taken early too, so that tracees that stop again at once cannot
 * starve the others. */
pid_t tracee_wait_intr(struct tracee_event *ev, bool many);
/* Whether reports taken early (tracee_take_report) wait to be handed
 * out. */
bool tracee_has_early(void);
/* Whether tracee_defer(TID) would put TID's report back. */
bool tracee_may_defer(pid_t tid);
/* The report tracee_wait_intr just handed out for TID, put back behind
 * those taken early, to be handed out again after them: false when it
 * cannot be (not the last one handed out, put back once already: two
 * stops that wait on a third thread would take turns for ever; or no
 * room). */
bool tracee_defer(pid_t tid);
/* Take TID's report now if it has one (waitpid WNOHANG), to be handed
 * out by the next tracee_wait or tracee_wait_intr that asks for any
 * tracee or for TID, before any other: for a task whose stop must be
 * handled soon, but whose report waitpid(-1) would give only after those
 * of tasks that stop again at once.  Whether TID has a report waiting,
 * taken now or before (TID is stopped then). */
bool tracee_take_report(pid_t tid);
/* Seize TID with our options (plus PTRACE_O_EXITKILL if EXITKILL).
 * Returns 0 or -errno and reports nothing: the caller explains. */
int tracee_seize(pid_t tid, bool exitkill);
/* Whether tasks seized from now on stop at their exit too
 * (PTRACE_O_TRACEEXIT, --fast), before anything is seized. */
void tracee_trace_exits(bool on);
int tracee_interrupt(pid_t tid);
/* PTRACE_CONT with signal SIG. */
int tracee_cont(pid_t tid, int sig);
/* PTRACE_SINGLESTEP (tracee_step_trap steps and waits). */
int tracee_step(pid_t tid);
/* These three return nothing because a caller has nothing to do about a
 * failure: it is reported unless the task is gone, and the next waitpid
 * report of the task says what became of it. */
/* Resume T with SIG: by PTRACE_CONT, or by PTRACE_SYSCALL once
 * tracee_trace_syscalls(true).  With SIG 0, T's oldest kept signal (see
 * below) is sent to it again first, to stop it anew and be shown then. */
void tracee_resume(struct task *t, int sig);
/* Leave a group-stop to the kernel (PTRACE_LISTEN). */
void tracee_listen(pid_t tid);
/* Let TID go with signal SIG (the caller forgets it, gone or not). */
void tracee_detach(pid_t tid, int sig);
/* Whether TID is in the signal-delivery stop of the SIGTRAP that a
 * breakpoint instruction raises (PTRACE_GETSIGINFO: si_code
 * ARCH_BREAKPOINT_SI_CODE), not in the stop of an interrupt, a step or
 * another signal. */
bool tracee_trapped(pid_t tid);
/* Whether a resume of TID with a signal delivers it: TID is at a
 * signal-delivery stop (or a syscall-stop), not at a ptrace event stop
 * (PTRACE_EVENT_STOP of an interrupt or a group-stop, a clone, an exit),
 * where the kernel drops the signal. */
bool tracee_takes_signal(pid_t tid);
/* Whether TID is in the signal-delivery stop of a fault of its own
 * (SIGSEGV or SIGBUS the kernel raised: si_code > 0, not a kill); its
 * address into *ADDR. */
bool tracee_faulted(pid_t tid, uint64_t *addr);
/* HOOK(T, SIG), at a signal-delivery stop that tracee_wait_trap meets:
 * true when it made the signal go away (the IP moved past a fault of
 * the tracer's own making, --fast's), which is then not kept. */
void tracee_set_fault_hook(bool (*hook)(struct task *t, int sig));
/* While CUT is set (NULL: never), the waits below drive thread TID,
 * stopped, for the tracer alone (fasttrap.c, a thread run out of the
 * recorder): a fault of its own ends them with -EFAULT, not kept (the
 * stop it came from is still to be resumed by the caller), and after
 * each report CUT() true ends them with -EINTR, T stopped.  For that
 * time TID blocks every signal but the CPU's faults and traps: a signal
 * that came at each resume (a 50 us timer) stopped it before it got
 * anywhere, for ever.  They wait, pending in the kernel, until the mask
 * is put back as the drive ends (CUT NULL, TID stopped). */
void tracee_drive(pid_t tid, bool (*cut)(void));
/* COUNT() counts the tracer's termination signals (termsig.c): one that
 * comes during tracee_step_trap ends it with -EINTR at T's next stop (T
 * interrupted for it), T stopped.  NULL: no cut (the detach's steps must
 * finish). */
void tracee_set_cut_count(unsigned (*count)(void));
/* ON (-S): tracee_resume stops the tracee at each system call's entry
 * and exit (PTRACE_SYSCALL).  Off by default: without -S no resume asks
 * for syscall-stops, so none happens.  The other resumes here (steps,
 * injected syscalls, the waits of attach and detach) stay PTRACE_CONT:
 * their syscalls are the tracer's, or not worth a line. */
void tracee_trace_syscalls(bool on);
/* At a syscall-stop of TID: PTRACE_GET_SYSCALL_INFO into *INFO (struct
 * __ptrace_syscall_info of <sys/ptrace.h>: op ENTRY with nr and args,
 * or EXIT with rval and is_error).  Returns 0 or -errno. */
int tracee_syscall_info(pid_t tid, struct __ptrace_syscall_info *info);
/* PTRACE_GETEVENTMSG after a ptrace-event stop. */
int tracee_event_msg(pid_t tid, unsigned long *msg);
int tracee_get_regs(pid_t tid, struct arch_regs *r);
int tracee_set_regs(pid_t tid, const struct arch_regs *r);
int tracee_get_fpregs(pid_t tid, struct arch_fpregs *f);

/* Wait for T alone until it stops with SIGTRAP (after an injected
 * syscall or a step).  A signal that arrives first is kept for delivery
 * at the next resume, unless the fault hook took it.  Returns 0, -ESRCH
 * if T ended (that end is then not reported again) or is about to (its
 * PTRACE_EVENT_EXIT stop is put back for the loop), -EFAULT at a fault
 * of T's own (SIGSEGV, SIGBUS, SIGILL, SIGFPE from the kernel: it would
 * fault again at each resume; kept as any signal), -EINTR as
 * tracee_drive says, or the error of a resume that failed. */
int tracee_wait_trap(struct task *t);
/* Single-step T and wait until the step's SIGTRAP.  A signal that stops
 * it first is kept for delivery at the next resume, and the step is
 * made again: T executes one instruction, never more.  Returns as
 * tracee_wait_trap, and -EINTR as tracee_set_cut_count says. */
int tracee_step_trap(struct task *t);
/* Continue T and wait until it stops with a trap of the CPU (a
 * breakpoint),
 * other signals kept as tracee_step_trap keeps them. */
int tracee_cont_trap(struct task *t);

/* Signals kept for T: a signal-delivery stop of SIG that a wait of T
 * alone met is kept (tracee_set_pending_signal, at that stop: its
 * siginfo with it), oldest first, to be delivered at a later stop;
 * not a second one below SIGRTMIN (the kernel merges those too), nor
 * more than 64 per task.  tracee_take_pending_signal takes the oldest
 * (0 for none). */
int tracee_take_pending_signal(struct task *t);
void tracee_set_pending_signal(struct task *t, int sig);
/* At a signal-delivery stop of T (one of our traps): T's oldest kept
 * signal, taken into *K; returns it, 0 for none.  tracee_resume_kept
 * resumes T with it and its siginfo.  A signal that T blocks then
 * (tracee_blocks: PTRACE_GETSIGMASK) is not delivered by that resume:
 * the kernel queues it again, to stop T anew once it is unblocked. */
struct tracee_kept {
	int sig;
	bool have_si;
	siginfo_t si;
};
int tracee_take_kept(struct task *t, struct tracee_kept *k);
void tracee_resume_kept(struct task *t, const struct tracee_kept *k);
bool tracee_blocks(pid_t tid, int sig);

/* /proc/PID/mem opened read-write, or -1 with errno set (as open). */
int tracee_open_procmem(pid_t pid);

/* Run system call NR(ARGS) in task T, whose registers are SAVED (the
 * caller restores them afterwards with its next tracee_set_regs).
 * Returns 0 and the result in *RET, or -errno (-ESRCH: T died). */
int tracee_inject_syscall(struct task *t, const struct arch_regs *saved,
			  long nr, const long args[6], long *ret);
/* An anonymous private mapping of SIZE bytes with PROT, at HINT (0: the
 * kernel's choice) and with the extra FLAGS, mapped by an injected mmap
 * in T as tracee_inject_syscall does: its address, or 0. */
uint64_t tracee_inject_mmap(struct task *t, const struct arch_regs *saved,
			    uint64_t hint, uint64_t size, int prot, int flags);

#endif
