/* Waiting for the tracees' reports (tracee.h): waitpid, and the queue
 * of reports taken early (stop-the-world, a stop put back behind
 * others, the fairness sweep, the others' reports met by a wait for one
 * task), handed out first and in order. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tracee.h"
#include "xmalloc.h"

/* Reports taken early (tracee_take_report), handed out first and in
 * order by the waits below, to the wait for any tracee or for their own
 * tid; DEFERRED, put back once already (tracee_defer). */
struct early {
	pid_t tid;
	int status;
	bool deferred;
};

static struct early *early;
static size_t nearly, early_cap;

/* The fixed part of the queue: what the sweep, tracee_take_report and
 * tracee_defer may fill.  The waits for one task grow it past that: the
 * reports they meet must all be kept. */
#define EARLY_BOUND 64

static void push_early(pid_t tid, int status, bool deferred)
{
	if (nearly == early_cap) {
		early_cap = early_cap ? 2 * early_cap : EARLY_BOUND;
		early = xreallocarray(early, early_cap, sizeof(early[0]));
	}
	early[nearly] = (struct early){ tid, status, deferred };
	nearly++;
}

static pid_t take_early(pid_t tid, int *st, bool *deferred)
{
	for (size_t i = 0; i < nearly; i++) {
		if (tid != -1 && early[i].tid != tid)
			continue;
		pid_t r = early[i].tid;
		*st = early[i].status;
		*deferred = early[i].deferred;
		memmove(&early[i], &early[i + 1],
			(nearly - i - 1) * sizeof(early[0]));
		nearly--;
		return r;
	}
	return 0;
}

bool tracee_take_report(pid_t tid)
{
	int st = 0;
	for (size_t i = 0; i < nearly; i++)
		if (early[i].tid == tid)
			return true; /* taken before: still stopped */
	if (nearly >= EARLY_BOUND || waitpid(tid, &st, __WALL | WNOHANG) != tid)
		return false;
	push_early(tid, st, false);
	return true;
}

static volatile pid_t waiting;

pid_t tracee_waiting(void)
{
	return waiting;
}

/* The wait for TID alone, blocking.  waitpid(TID) would never return
 * for a thread-group leader that has exited while other threads of its
 * group are zombies the tracer has not reaped yet (a group exit that
 * came while the tracer waited for the leader's step): so every report
 * is taken, those of the others queued.  After one of theirs TID is
 * asked for on its own too: gone without a report (a thread an execve
 * of another thread ended), it has none to wait for. */
static pid_t wait_one(pid_t tid, int *st)
{
	pid_t r;
	waiting = tid;
	for (;;) {
		r = waitpid(-1, st, __WALL);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || r == tid)
			break;
		push_early(r, *st, false);
		r = waitpid(tid, st, __WALL | WNOHANG);
		if (r != 0)
			break;
	}
	waiting = 0;
	return r;
}

/* The last report tracee_wait handed out (tracee_put_back). */
static pid_t given_tid;
static int given_status;

void tracee_put_back(pid_t tid)
{
	if (tid == given_tid)
		push_early(tid, given_status, false);
	given_tid = 0;
}

pid_t tracee_wait(pid_t tid, int flags, struct tracee_event *ev)
{
	int st = 0;
	bool deferred;
	pid_t r = take_early(tid, &st, &deferred);
	if (r) {
		*ev = tracee_decode(st);
		given_tid = r;
		given_status = st;
		return r;
	}
	if (tid > 0 && !(flags & WNOHANG))
		r = wait_one(tid, &st);
	else
		do
			r = waitpid(tid, &st, __WALL | flags);
		while (r < 0 && errno == EINTR);
	/* Without a report, *EV is still defined (and says nothing). */
	*ev = tracee_decode(r > 0 ? st : 0);
	given_tid = r > 0 ? r : 0;
	given_status = st;
	return r < 0 ? -errno : r;
}

/* The last report tracee_wait_intr handed out (tracee_defer), and
 * whether it was put back once already. */
static pid_t last_tid;
static int last_status;
static bool last_deferred;

/* waitpid(-1) hands out the first stopped tracee in the kernel's list:
 * threads that stop again before the tracer waits (calls back to back,
 * a tracer slower than they are, as under emulation) would be served
 * forever and the others never resumed.  Every FAIR_EVERY reports the
 * others' reports pending then are taken too (up to half the queue),
 * and served in order before the next wait. */
#define FAIR_EVERY 16

static void take_pending(void)
{
	int st;
	pid_t r;
	while (nearly < EARLY_BOUND / 2 &&
	       (r = waitpid(-1, &st, __WALL | WNOHANG)) > 0)
		push_early(r, st, false);
}

pid_t tracee_wait_intr(struct tracee_event *ev, bool many)
{
	static unsigned since_fair;
	int st = 0;
	bool deferred = false;
	pid_t r = take_early(-1, &st, &deferred);
	if (!r) {
		r = waitpid(-1, &st, __WALL);
		if (r > 0 && many && ++since_fair >= FAIR_EVERY) {
			since_fair = 0;
			take_pending();
		}
	}
	*ev = tracee_decode(r > 0 ? st : 0);
	last_tid = r > 0 ? r : 0;
	last_status = st;
	last_deferred = deferred;
	return r < 0 ? -errno : r;
}

bool tracee_has_early(void)
{
	return nearly > 0;
}

bool tracee_may_defer(pid_t tid)
{
	return tid == last_tid && !last_deferred && nearly < EARLY_BOUND;
}

bool tracee_defer(pid_t tid)
{
	if (!tracee_may_defer(tid))
		return false;
	push_early(tid, last_status, true);
	last_tid = 0;
	return true;
}
