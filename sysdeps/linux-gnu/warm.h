/* A SCHED_IDLE thread that keeps a CPU from halting while stops come
 * quickly (cross-CPU wake-ups are expensive on VMs; warm.c says what was
 * measured).  LTRACE_NO_WARM=1 disables it. */
#ifndef LTRACE_WARM_H
#define LTRACE_WARM_H

void warm_start(void);
/* Called at every stop. */
void warm_tick(void);
void warm_stop(void);

#endif
