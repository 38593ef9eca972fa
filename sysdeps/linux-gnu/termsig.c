/* The signals sent to the tracer (DESIGN.md, "Signals").
 *
 * The termination signals make the tracer detach cleanly.  Their
 * handler only notes the signal: waitpid, never restarted (no
 * SA_RESTART), returns EINTR and the loop ends.  It never jumps out of
 * the wait, since a report waitpid had just consumed would be lost with
 * it: a signal-delivery stop of the very signal that the whole process
 * group got would then be dropped, and the program would never see it.
 * A signal that comes between the loop's test of what the handler
 * noted and its waitpid interrupts the last task that stopped
 * (PTRACE_INTERRUPT): its stop ends the wait.
 *
 * The terminal sends SIGINT, SIGQUIT and SIGTSTP to its whole
 * foreground process group with si_code SI_KERNEL (the tty layer's
 * kill_pgrp of a privileged signal); kill(2), sigqueue and tgkill say
 * SI_USER, SI_QUEUE, SI_TKILL.  When the tracer started the program and
 * the program is still in the tracer's process group, the terminal's
 * signal reached the program too and is the program's: the tracer goes
 * on tracing, and its exit status is the program's.  A program that
 * moved to another group (setsid, setpgid) got nothing: the tracer's
 * copy then detaches, as a signal sent to the tracer alone does, and as
 * every signal does under -p.  Two of the terminal's SIGINT or SIGQUIT
 * within a second, while the program ignores or blocks it, detach: the
 * user can always get out. */
#include "termsig.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "output.h"
#include "proc.h"
#include "procfs.h"
#include "tracee.h"

/* Written by the handler, read and cleared by the loop. */
static volatile sig_atomic_t in_wait, stop_sig, repeat_sig, tstp_self, tty_stop;
/* The task the handler interrupts to end the wait; the program whose
 * terminal signals are its own (0 once it has ended). */
static volatile pid_t wake_tid, program;

/* A thread the tracer drives alone (termsig_drive), interrupted to end
 * the drive's wait when a termination signal comes (STOPS counts them). */
static volatile pid_t drive_tid;
static volatile sig_atomic_t stops, drive_stops;

static void wake_loop(void)
{
	/* ESRCH (it ended: its report ends the wait) is not reported. */
	if (in_wait && wake_tid > 0)
		(void)tracee_interrupt(wake_tid);
	if (drive_tid > 0)
		(void)tracee_interrupt(drive_tid);
	pid_t w = tracee_waiting();
	if (w > 0)
		(void)tracee_interrupt(w);
}

/* Whether a signal of the terminal to the tracer's group reached the
 * program too: it is in that group. */
static bool reached_program(void)
{
	pid_t p = program;
	return p > 0 && getpgid(p) == getpgrp();
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The terminal's signal, the program's.  Ctrl-Z: the tracer stops when
 * the program does.  A second SIGINT or SIGQUIT within a second: the
 * loop asks whether the program ignores it. */
static void on_terminal(int sig)
{
	static int last_sig;
	static long long last_ms;
	if (sig == SIGTSTP) {
		tty_stop = 1;
		return;
	}
	long long now = now_ms();
	if (sig == last_sig && now - last_ms < 1000) {
		repeat_sig = sig;
		wake_loop();
	}
	last_sig = sig;
	last_ms = now;
}

/* All the caught signals are blocked while it runs (catch_signals):
 * on_terminal's statics are never written twice at once. */
static void on_tracer_signal(int sig, siginfo_t *si, void *ctx)
{
	int saved = errno;
	(void)ctx;
	bool tty = sig == SIGINT || sig == SIGQUIT || sig == SIGTSTP;
	if (tty && si->si_code == SI_KERNEL && reached_program()) {
		on_terminal(sig);
	} else if (sig == SIGTSTP) {
		tstp_self = 1;
		wake_loop();
	} else {
		stop_sig = sig;
		stops++;
		wake_loop();
	}
	errno = saved;
}

void termsig_drive(pid_t tid)
{
	if (tid)
		drive_stops = stops;
	drive_tid = tid;
}

bool termsig_drive_cut(void)
{
	return stops != drive_stops;
}

static unsigned count_stops(void)
{
	return (unsigned)stops;
}

/* SIGTSTP only when the program's own may come: else the tracer's
 * stops it at once, the default. */
static void catch_signals(bool tstp)
{
	static const int sigs[] = { SIGINT,  SIGTERM, SIGHUP,
				    SIGQUIT, SIGPIPE, SIGTSTP };
	size_t n = sizeof(sigs) / sizeof(sigs[0]) - (tstp ? 0 : 1);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_tracer_signal;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (size_t i = 0; i < n; i++)
		sigaction(sigs[i], &sa, NULL);
}

void termsig_init(pid_t prog)
{
	program = prog;
	wake_tid = attach_launched_pid();
	tracee_set_cut_count(count_stops);
	catch_signals(prog > 0);
}

int termsig_caught(void)
{
	return stop_sig;
}

/* Stop the tracer with SIG at its default action, as the program
 * stopped or as the tracer would untraced, until a SIGCONT; the trace
 * so far written out first.  (In an orphaned process group the kernel
 * discards SIGTSTP, SIGTTIN and SIGTTOU: then it goes on at once.) */
static void stop_self(int sig)
{
	struct sigaction dfl, old;
	output_flush();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	bool swap = sig != SIGSTOP && sigaction(sig, &dfl, &old) == 0;
	raise(sig);
	if (swap)
		sigaction(sig, &old, NULL);
}

struct deaf {
	pid_t pid;
	unsigned long bit;
	bool seen, blocked;
};

static void note_blocked(struct task *t, void *data)
{
	struct deaf *d = data;
	if (!t->proc || t->proc->pid != d->pid)
		return;
	/* Never all ones: SIGKILL and SIGSTOP cannot be blocked. */
	long blk = procfs_status_field(t->tid, "SigBlk", 16);
	d->seen = true;
	if (blk == -1 || !((unsigned long)blk & d->bit))
		d->blocked = false;
}

/* Whether process PID ignores SIG (SigIgn of /proc/PID/status) or
 * blocks it in each of its threads (SigBlk of each): the terminal's
 * signal changes nothing there. */
static bool deaf_to(pid_t pid, int sig)
{
	struct deaf d = { pid, 1UL << (sig - 1), false, true };
	long ign = procfs_status_field(pid, "SigIgn", 16);
	if (ign != -1 && ((unsigned long)ign & d.bit))
		return true;
	task_foreach(note_blocked, &d);
	return d.seen && d.blocked;
}

/* What the handler noted, acted on; whether the loop must end. */
static bool settle(void)
{
	int sig = repeat_sig;
	if (sig) {
		repeat_sig = 0;
		pid_t p = program;
		if (p > 0 && deaf_to(p, sig))
			stop_sig = sig;
	}
	if (tstp_self && !stop_sig) {
		tstp_self = 0;
		stop_self(SIGTSTP);
	}
	return stop_sig;
}

pid_t termsig_wait(struct tracee_event *ev, bool many)
{
	pid_t tid = -EINTR;
	in_wait = 1;
	while (tid == -EINTR && !settle())
		tid = tracee_wait_intr(ev, many);
	in_wait = 0;
	if (tid > 0 && !tracee_ended(ev))
		wake_tid = tid;
	return tid > 0 ? tid : -1;
}

static void pick_wake(struct task *t, void *data)
{
	(void)data;
	if (!wake_tid && t->proc && !t->orphan)
		wake_tid = t->tid;
}

/* When the task the handler would interrupt has ended, any other known
 * task will do (not an orphan: it is stopped already, and an interrupt
 * would give no report). */
static void after_end(pid_t tid)
{
	if (tid == program) {
		program = 0;
		tty_stop = 0;
	}
	if (tid != wake_tid)
		return;
	wake_tid = 0;
	task_foreach(pick_wake, NULL);
}

/* Whether TID is a thread of the program. */
static bool of_program(pid_t tid)
{
	const struct task *t = task_lookup(tid);
	return t && t->proc && t->proc->pid == program;
}

void termsig_after(pid_t tid, const struct tracee_event *ev)
{
	if (tracee_ended(ev)) {
		after_end(tid);
	} else if (ev->kind == TRACEE_GROUP_STOP && tty_stop &&
		   of_program(tid)) {
		/* Ctrl-Z stopped the program: the tracer, its shell's job,
		 * stops with it, and the shell's fg (SIGCONT to the group)
		 * continues both. */
		tty_stop = 0;
		stop_self(ev->sig);
	}
}
