/* A SCHED_IDLE thread that keeps a CPU from halting while stops come
 * quickly (cross-CPU wake-ups are expensive on VMs; warm.c says what was
 * measured).  LTRACE_NO_WARM=1 disables it. */
#ifndef LTRACE_WARM_H
#define LTRACE_WARM_H

/* STREAK: how many stops in a row, each less than 2 ms after the one
 * before, wake the thread (0: any stop does). */
void warm_start(unsigned streak);
/* --fast's streak: more than the first-call stops of a start-up. */
#define WARM_FAST_STREAK 64
/* Called at every stop. */
void warm_tick(void);
void warm_stop(void);

#endif
