/* Traced processes (address spaces) and tasks (threads).  A process owns
 * the breakpoints, the loaded objects (library.h) and the scratch pages;
 * a task owns its registers' stop state and its stack of pending traced
 * calls. */
#ifndef LTRACE_PROC_H
#define LTRACE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "bpt.h"
#include "forward.h"

/* A region of scratch memory mapped into the tracee for displaced
 * instructions, handed out in DISPLACE_CELL_SIZE cells. */
struct scratch {
	uint64_t base;
	size_t size;
	size_t used;
};

struct process {
	pid_t pid;   /* thread group id */
	int procmem; /* /proc/PID/mem, read-write */
	int ntasks;
	bool silent; /* calls are serviced, not printed */
	/* A vfork child runs in its parent's memory: it uses the parent's
	 * breakpoints (this points at the parent) until it execs. */
	struct process *vfork_parent;
	struct bpt_table bpts;
	/* The loaded objects, the program first, in load order (library.h);
	 * owned. */
	struct library *libs;
	/* The dynamic linker's rendezvous (<link.h>): the address of its
	 * struct r_debug and of its r_brk function (where a breakpoint
	 * reports every change of the objects); 0 while not known. */
	uint64_t r_debug;
	uint64_t r_brk;
	struct scratch *scratch;
	size_t nscratch;
	/* A signal handler may return into a displaced system call in
	 * scratch (loop.c, leave_scratch): the detach leaves the regions
	 * mapped. */
	bool scratch_kept;
	/* ARCH_SYSCALL_INSN in scratch memory, for injected syscalls once a
	 * scratch region exists; 0 before. */
	uint64_t syscall_insn;
	/* --fast: the recorder (sysdeps/linux-gnu/fastrec.h), one allocation,
	 * freed at an exec or the end; NULL without one. */
	struct fastrec *fast;
	/* The offset of errno from its threads' thread pointer, once
	 * ERRNO_KNOWN (sysdeps/linux-gnu/errnoloc.h). */
	int64_t errno_tpoff;
	bool errno_known;
	struct process *next;
};

/* One traced call that has not returned yet.  RET and RET_SP are the
 * key of the task's frame index (frames.c): set by task_push_frame, and
 * changed by nobody after. */
struct frame {
	uint64_t ret;	 /* return address */
	uint64_t ret_sp; /* stack pointer once the call has returned */
	/* The index's chain: 1 + the index of the next frame out in this
	 * frame's bucket, 0 if none (frames.c). */
	uint32_t below;
	/* The thread's errno at the entry, if ERRNO_ENTRY_KNOWN: read
	 * only for prototypes with errno(changed) (ltrace/errcond.h). */
	int errno_entry;
	const struct breakpoint *bpt; /* the breakpoint the call came through */
	struct calltext *ct;
	unsigned long id; /* identifies the entry line for the output */
	uint64_t t_entry; /* output_now() at the entry stop (-T, -c) */
	uint64_t target;  /* --format: its GOT slot at entry, 0 if unread */
	bool had_args;	  /* the entry line showed arguments */
	bool inherited;	  /* copied into a forked child */
	bool errno_entry_known;
	bool capped; /* deeper than CALLS_MAX_TEXTS: no state kept (calls.c) */
	/* With --fast, a ptrace-mode call of a stub whose GOT slot was not
	 * bound yet: the thread may be in the lazy binding (fast.c). */
	bool binding;
	/* Recorded by --fast's recorder: its return comes as a record,
	 * never through a return breakpoint. */
	bool recorded;
	/* Recorded, but its return could not be hooked (the thread's
	 * shadow stack was full): it wants a return breakpoint, placed at
	 * the recorder's trap that follows (fasttrap.c). */
	bool unhooked;
};

struct task {
	pid_t tid;
	struct process *proc;
	struct frame *frames;
	size_t nframes;
	size_t capframes;
	/* The frame index (frames.c): per bucket, 1 + the index of its
	 * innermost frame, 0 if none; NBUCKET is CAPFRAMES. */
	uint32_t *bucket;
	size_t nbucket;
	/* Its oldest pending calls were dropped, past CALLS_MAX_FRAMES,
	 * and it was said: not again until it is back under a quarter of
	 * that depth (calls.c). */
	bool frames_dropped;
	/* Stopped by the kernel before its parent reported the clone: it
	 * waits here until we know which process it belongs to. */
	bool orphan;
	/* Its calls are serviced, not printed (a thread without -f). */
	bool silent;
	/* While detaching: it has stopped; the signal to pass on. */
	bool stopped;
	int detach_sig;
};

struct process *process_new(pid_t pid);
/* Frees the process and its breakpoints; its tasks must be gone. */
void process_free(struct process *p);
/* The process whose memory and breakpoints P uses.  Inline, as
 * task_prints: both are asked for every traced call. */
static inline struct process *process_mem(struct process *p)
{
	return p->vfork_parent ? p->vfork_parent : p;
}
struct process *process_first(void);
/* Forget everything P knew of its program, for the one an exec brings:
 * the loaded objects, the rendezvous, the breakpoints, /proc/PID/mem (now
 * closed, procmem -1) and the scratch pages.  Changes nothing in the
 * tracee. */
void process_reset_exec(struct process *p);

struct task *task_new(pid_t tid, struct process *p);
void task_free(struct task *t);
/* The task is gone: free it, and its process when it was the last task
 * of it. */
void task_drop(struct task *t);
/* Whether T's calls are printed (not a silent process or thread); T must
 * belong to a process. */
static inline bool task_prints(const struct task *t)
{
	return !t->proc->silent && !t->silent;
}
struct task *task_lookup(pid_t tid);
size_t task_count(void);
/* Call FN on every task, in no particular order (FN may free the task it
 * is given, and no other). */
void task_foreach(void (*fn)(struct task *t, void *data), void *data);

/* T's stack of pending calls and its index (frames.c). */

/* A zeroed frame on top of T's stack, for a call returning to RET with
 * the stack pointer at RET_SP, indexed. */
struct frame *task_push_frame(struct task *t, uint64_t ret, uint64_t ret_sp);
/* Pop frames above and including index I; frames above I never returned
 * and have their formatting state freed. */
void task_pop_frames(struct task *t, size_t i);
/* The index of T's innermost frame that returns to RET with the stack
 * pointer at RET_SP, or -1: a few steps, whatever the depth. */
long task_find_frame(const struct task *t, uint64_t ret, uint64_t ret_sp);
/* Drop T's N oldest frames (their state freed); the others move down N
 * places. */
void task_drop_oldest(struct task *t, size_t n);
/* Index T's frames anew, after they were moved or copied in place. */
void task_reindex(struct task *t);
/* Free T's frames and their index. */
void task_free_frames(struct task *t);

#endif
