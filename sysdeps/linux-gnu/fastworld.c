/* --fast: the other threads of a process stopped for an entry patch
 * (fastworld.h).  A patch is written while the program runs its other
 * threads only if none of them can be there: each is stopped, its
 * report kept for the loop (tracee_take_report), its IP looked at. */
#include "fastworld.h"

#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "arch.h"
#include "bpt.h"
#include "debug.h"
#include "displace.h"
#include "fastrec.h"
#include "proc.h"
#include "procfs.h"
#include "recpatch.h"
#include "termsig.h"
#include "tracee.h"

/* The most other threads stopped at once: each report is kept, and
 * tracee.c keeps 64. */
#define WORLD_MAX 48
/* How long the threads have to stop: on a loaded machine a thread
 * interrupted waits for a CPU first. */
#define WORLD_WAIT_NS (500 * 1000000ull)
/* Tries before a function keeps its breakpoint for good; the entries
 * let pass between two double, up to 1 << WORLD_MAX_SHIFT. */
#define WORLD_MAX_TRIES 24
#define WORLD_MAX_SHIFT 12

struct world {
	const struct task *self;
	const struct process *p;
	pid_t tid[WORLD_MAX];
	bool stopped[WORLD_MAX];
	size_t n;
	bool over;
};

static void note_other(struct task *t, void *data)
{
	struct world *w = data;
	/* An orphan (proc NULL) is stopped at its first stop, and has run
	 * nothing of the program yet. */
	if (t == w->self || !t->proc || process_mem(t->proc) != w->p)
		return;
	if (w->n == WORLD_MAX) {
		w->over = true;
		return;
	}
	w->tid[w->n] = t->tid;
	w->stopped[w->n] = false;
	w->n++;
}

/* Take the report of each thread of W that has one; how many have
 * none yet. */
static size_t take_reports(struct world *w)
{
	size_t left = 0;
	for (size_t i = 0; i < w->n; i++) {
		if (!w->stopped[i])
			w->stopped[i] = tracee_take_report(w->tid[i]);
		left += !w->stopped[i];
	}
	return left;
}

static bool wait_all(struct world *w)
{
	uint64_t until = fastrec_mono_ns() + WORLD_WAIT_NS;
	long nap = 10000; /* ns, doubled up to 1 ms */
	while (take_reports(w)) {
		if (fastrec_mono_ns() > until || termsig_caught())
			return false;
		struct timespec ts = { 0, nap };
		nanosleep(&ts, NULL);
		if (nap < 1000000)
			nap *= 2;
	}
	return true;
}

/* Whether TID executed the int3 at B (its SIGTRAP being delivered, or
 * still pending): the loop then finds B lifted and sets it back onto
 * what is there now (loop.c, on_trap), the patch's jump. */
static bool trapped_at(pid_t tid)
{
	if (tracee_trapped(tid))
		return true;
	long pnd = procfs_status_field(tid, "SigPnd", 16);
	return pnd != -1 && ((unsigned long)pnd & (1UL << (SIGTRAP - 1)));
}

/* Why TID, stopped, may run half of B's patch: NULL if it cannot. */
static const char *inside(pid_t tid, const struct breakpoint *b)
{
	struct arch_regs r;
	if (tracee_get_regs(tid, &r))
		return NULL; /* gone: its end is reported */
	uint64_t ip = arch_ip(&r);
	if (ip == b->addr + ARCH_DECR_PC_AFTER_BREAK && trapped_at(tid))
		return NULL;
	if (ip > b->addr && ip < b->addr + RECPATCH_JMP_LEN)
		return "a thread is inside the patch's bytes";
	if (b->cell && ip >= b->cell && ip < b->cell + DISPLACE_CELL_SIZE)
		return "a thread runs its displaced instruction";
	return NULL;
}

const char *fastworld_stop(const struct task *self, const struct process *p,
			   const struct breakpoint *b)
{
	struct world w = { .self = self, .p = p };
	task_foreach(note_other, &w);
	if (w.over)
		return "too many threads to stop";
	if (!w.n)
		return NULL;
	/* ESRCH: gone, its end is its report. */
	for (size_t i = 0; i < w.n; i++)
		if (!tracee_take_report(w.tid[i]))
			(void)tracee_interrupt(w.tid[i]);
		else
			w.stopped[i] = true;
	if (!wait_all(&w))
		return "a thread did not stop in time";
	for (size_t i = 0; i < w.n; i++) {
		const char *why = inside(w.tid[i], b);
		if (why)
			return why;
	}
	debug_msg(DEBUG_GENERAL, "--fast: %zu other threads stopped for %s",
		  w.n, b->call.name);
	return NULL;
}

bool fastworld_may_try(struct breakpoint *b)
{
	if (!b->entry.fast_wait)
		return true;
	b->entry.fast_wait--;
	return false;
}

void fastworld_failed(struct breakpoint *b)
{
	unsigned k = b->entry.fast_tries++;
	b->entry.fast_wait = 1u << (k < WORLD_MAX_SHIFT ? k : WORLD_MAX_SHIFT);
	if (b->entry.fast_tries >= WORLD_MAX_TRIES)
		b->entry.fast_refused = true;
}
