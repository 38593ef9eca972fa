/* Waiting for the tracees' reports (tracee.h): waitpid, and the queue
 * of reports taken early (stop-the-world, a stop put back behind
 * others, the fairness sweep), handed out first and in order. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "tracee.h"

/* Reports taken early (tracee_take_report), handed out first and in
 * order by the waits below, to the wait for any tracee or for their own
 * tid; DEFERRED, put back once already (tracee_defer). */
struct early {
	pid_t tid;
	int status;
	bool deferred;
};

static struct early early[64];
static size_t nearly;

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
	if (nearly == sizeof(early) / sizeof(early[0]) ||
	    waitpid(tid, &st, __WALL | WNOHANG) != tid)
		return false;
	early[nearly] = (struct early){ tid, st, false };
	nearly++;
	return true;
}

pid_t tracee_wait(pid_t tid, int flags, struct tracee_event *ev)
{
	int st = 0;
	bool deferred;
	pid_t r = take_early(tid, &st, &deferred);
	if (r) {
		*ev = tracee_decode(st);
		return r;
	}
	do
		r = waitpid(tid, &st, __WALL | flags);
	while (r < 0 && errno == EINTR);
	/* Without a report, *EV is still defined (and says nothing). */
	*ev = tracee_decode(r > 0 ? st : 0);
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
	while (nearly < sizeof(early) / sizeof(early[0]) / 2 &&
	       (r = waitpid(-1, &st, __WALL | WNOHANG)) > 0) {
		early[nearly] = (struct early){ r, st, false };
		nearly++;
	}
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
	return tid == last_tid && !last_deferred &&
	       nearly < sizeof(early) / sizeof(early[0]);
}

bool tracee_defer(pid_t tid)
{
	if (!tracee_may_defer(tid))
		return false;
	early[nearly] = (struct early){ tid, last_status, true };
	nearly++;
	last_tid = 0;
	return true;
}
