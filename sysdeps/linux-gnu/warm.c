/* Keeping a second CPU out of deep idle while stops come quickly.
 *
 * Measured on 2-vCPU VMs: a ptrace stop round trip costs 11-12 us when
 * tracer and tracee share a CPU and 29-45 us when they do not, because
 * every stop and every resume then wakes a halted vCPU (an IPI and a
 * hypervisor exit, each way).  The scheduler keeps placing the resumed
 * tracee on the idle CPU, since the tracer is still running when it wakes
 * it.  Pinning either side changes what the tracee sees; instead one
 * thread of the tracer, at SCHED_IDLE priority, spins while stops arrive
 * less than WARM_NS apart.  A SCHED_IDLE task yields to anything else at
 * once, so it only uses cycles that would be idle, and the CPU it keeps
 * awake takes the wake-ups cheaply.  After WARM_NS without a stop it
 * sleeps on a futex until the next stop.
 *
 * It is not started when the tracer may run on one CPU only (taskset):
 * there it only took slices from the tracer and the tracee (reverse-lines
 * 35.7 against 30.7 ms, pinned).  With --fast, where most functions never
 * stop, it wakes only after a streak of stops each less than WARM_NS
 * apart: the few stops of a start-up (first calls, libraries) made it
 * spin for nothing, and that cost reverse-lines 2 ms of its 17. */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "arch.h"
#include "warm.h"

#define WARM_NS 2000000ULL

static struct {
	pthread_t thread;
	bool started;
	atomic_uint_fast64_t last; /* time of the last stop */
	atomic_int sleeping;	   /* the futex word */
	atomic_bool quit;
	unsigned streak_min; /* stops in a row before it spins */
	/* the loop's thread only: */
	unsigned streak;
	uint64_t prev; /* time of the last stop */
} warm;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void futex(atomic_int *word, int op, int val)
{
	syscall(SYS_futex, word, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

static void *spin(void *arg)
{
	(void)arg;
	struct sched_param sp = { 0 };
	sched_setscheduler(0, SCHED_IDLE, &sp);
	while (!atomic_load_explicit(&warm.quit, memory_order_relaxed)) {
		uint64_t last =
			atomic_load_explicit(&warm.last, memory_order_relaxed);
		if (now_ns() - last < WARM_NS) {
			for (int i = 0; i < 256; i++)
				arch_spin_pause();
			continue;
		}
		atomic_store(&warm.sleeping, 1);
		/* quit is read after sleeping is set: warm_stop sets quit,
		 * then clears sleeping, so either this sees quit, or the wait
		 * sees 0 and returns at once. */
		if (!atomic_load(&warm.quit) &&
		    now_ns() - atomic_load(&warm.last) >= WARM_NS)
			futex(&warm.sleeping, FUTEX_WAIT, 1);
		atomic_store(&warm.sleeping, 0);
	}
	return NULL;
}

/* Whether this thread may run on more than one CPU. */
static bool several_cpus(void)
{
	cpu_set_t set;
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return sysconf(_SC_NPROCESSORS_ONLN) >= 2;
	return CPU_COUNT(&set) >= 2;
}

void warm_start(unsigned streak)
{
	const char *env = getenv("LTRACE_NO_WARM");
	if ((env && *env) || !several_cpus())
		return;
	warm.streak_min = streak;
	warm.streak = 0;
	warm.prev = 0;
	/* With a streak to wait for, it sleeps from the start. */
	atomic_store(&warm.last, streak ? now_ns() - WARM_NS : now_ns());
	/* The thread takes no signals: the termination handler must run
	 * in the main thread, whose waitpid it interrupts (termsig.c). */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	warm.started = pthread_create(&warm.thread, NULL, spin, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void warm_tick(void)
{
	if (!warm.started)
		return;
	uint64_t t = now_ns();
	if (warm.streak_min) {
		warm.streak = t - warm.prev < WARM_NS ? warm.streak + 1 : 0;
		warm.prev = t;
		if (warm.streak < warm.streak_min)
			return;
	}
	atomic_store_explicit(&warm.last, t, memory_order_relaxed);
	if (atomic_load_explicit(&warm.sleeping, memory_order_relaxed) &&
	    atomic_exchange(&warm.sleeping, 0))
		futex(&warm.sleeping, FUTEX_WAKE, 1);
}

void warm_stop(void)
{
	if (!warm.started)
		return;
	atomic_store(&warm.quit, true);
	atomic_store(&warm.sleeping, 0);
	futex(&warm.sleeping, FUTEX_WAKE, 1);
	/* At SCHED_IDLE it would see the flag only once both CPUs are
	 * idle: on a busy machine the join waited 0.4 s and more at every
	 * exit.  (Unprivileged, with RLIMIT_NICE 0, this may be refused.) */
	struct sched_param sp = { 0 };
	(void)pthread_setschedparam(warm.thread, SCHED_OTHER, &sp);
	pthread_join(warm.thread, NULL);
	warm.started = false;
}
