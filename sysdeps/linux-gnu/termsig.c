/* The termination signals sent to the tracer (DESIGN.md, "Signals").
 *
 * They make the tracer detach cleanly.  Their handler only notes the
 * signal: waitpid, never restarted (no SA_RESTART), returns EINTR and
 * the loop ends.  It never jumps out of the wait, since a report
 * waitpid had just consumed would be lost with it: a signal-delivery
 * stop of the very signal that the whole process group got (Ctrl-C)
 * would then be dropped, and the program would never see its SIGINT.
 * A signal that comes between the loop's test of stop_sig and its
 * waitpid interrupts the last task that stopped (PTRACE_INTERRUPT): its
 * stop ends the wait. */
#include "termsig.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

#include "attach.h"
#include "proc.h"
#include "tracee.h"

static volatile sig_atomic_t in_wait, stop_sig;
static volatile pid_t wake_tid;

static void on_term_signal(int sig)
{
	int saved = errno;
	stop_sig = sig;
	/* ESRCH (it ended: its report ends the wait) is not reported. */
	if (in_wait && wake_tid > 0)
		(void)tracee_interrupt(wake_tid);
	errno = saved;
}

void termsig_init(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	wake_tid = attach_launched_pid();
}

int termsig_caught(void)
{
	return stop_sig;
}

pid_t termsig_wait(struct tracee_event *ev)
{
	pid_t tid = -EINTR;
	in_wait = 1;
	while (tid == -EINTR && !stop_sig)
		tid = tracee_wait_intr(ev);
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
void termsig_after(pid_t tid, const struct tracee_event *ev)
{
	if (tid != wake_tid || !tracee_ended(ev))
		return;
	wake_tid = 0;
	task_foreach(pick_wake, NULL);
}
