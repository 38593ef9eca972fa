/* Internal interfaces of the Linux backend (sysdeps/linux-gnu). */
#ifndef LTRACE_LINUX_H
#define LTRACE_LINUX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "arch.h"
#include "forward.h"

/* trace.c: the event loop's shared pieces. */
extern pid_t trace_main_pid;
void trace_resume(struct task *t, int sig);
int trace_open_memfd(pid_t pid);
/* Read the image of T's process, map scratch memory, insert breakpoints
 * on its call stubs. */
void trace_setup_image(struct task *t);
/* Write back the original byte of every inserted breakpoint of BPTS
 * through MEMFD (the table itself is not changed). */
void trace_restore_bytes(const struct bpt_table *bpts, int memfd);
/* Take our breakpoints out of a fork child's memory and detach it. */
void trace_release_fork_child(pid_t pid, struct process *parent);
/* attach.c: stop every task, put back every byte we changed, unmap the
 * scratch pages, leave each thread at a valid instruction, detach. */
void trace_detach_all(void);

/* trace.c: wait for TID alone until it stops with SIGTRAP (after an
 * injected syscall or a step).  A signal that arrives first is kept for
 * delivery at the next resume.  Returns 0, or -1 if TID died. */
int trace_wait_trap(struct task *t);
int trace_get_regs(pid_t tid, struct arch_regs *r);
int trace_set_regs(pid_t tid, const struct arch_regs *r);

/* inject.c: run system call NR(ARGS) in task T, whose registers are
 * SAVED (restored afterwards, by the caller's next set_regs).  Returns 0
 * and the result in *RET, or -1 if the task died. */
int inject_syscall(struct task *t, const struct arch_regs *saved, long nr,
		   const long args[6], long *ret);
/* A free DISPLACE_SLOT_SIZE slot within reach (+-2 GiB) of NEAR, mapping
 * a new scratch region if needed.  0 if none could be had. */
uint64_t scratch_slot(struct task *t, const struct arch_regs *saved,
		      uint64_t near);

/* libs.c: field KEY of /proc/PID/status as a number in BASE (SigPnd is
 * hex), or -1. */
long proc_status_field(pid_t pid, const char *key, int base);
/* libs.c: add the objects mapped in P that it does not know yet to its
 * lib_paths/lib_names (the program first).  Returns 0 or -1. */
int process_read_libs(struct process *p);

/* warm.c: a SCHED_IDLE thread that keeps a CPU from halting while stops
 * come quickly (cross-CPU wake-ups are expensive on VMs).  warm_tick is
 * called at every stop; LTRACE_NO_WARM=1 disables it. */
void warm_start(void);
void warm_tick(void);
void warm_stop(void);

/* The pending signal of T to deliver at its next resume (0 for none). */
int task_take_pending_signal(struct task *t);
void task_set_pending_signal(struct task *t, int sig);

#endif
