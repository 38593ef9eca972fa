#include "adopt.h"

#include <stdbool.h>
#include <unistd.h>

#include "bpt.h"
#include "calls.h"
#include "fast.h"
#include "bptmem.h"
#include "library.h"
#include "mem.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "procfs.h"
#include "rtld.h"
#include "scratch.h"

/* Give the new task TID (ORPHAN if it has already stopped) to P. */
static struct task *claim(struct task *orphan, pid_t tid, struct process *p)
{
	if (!orphan)
		return task_new(tid, p);
	orphan->proc = p;
	orphan->orphan = false;
	p->ntasks++;
	return orphan;
}

/* A followed fork child: a copy of the parent's address space, so a
 * copy of its breakpoints and scratch memory. */
static struct process *fork_process(struct process *pp, pid_t child)
{
	struct process *np = process_new(child);
	np->procmem = tracee_open_procmem(child);
	bpt_table_destroy(&np->bpts);
	bpt_table_clone(&np->bpts, &pp->bpts);
	library_clone_all(np, pp);
	np->r_debug = pp->r_debug;
	np->r_brk = pp->r_brk;
	scratch_inherit(np, pp);
	if (np->procmem >= 0)
		bptmem_restore_bytes(&np->bpts, np->procmem, BPTMEM_LIFTED);
	return np;
}

/* Wait for the first stop of a new task before writing its memory.  If
 * it ended instead, the requests that follow fail with ESRCH. */
static void wait_first_stop(pid_t child)
{
	struct tracee_event ev;
	(void)tracee_wait(child, 0, &ev);
}

/* A vfork child borrows its parent's memory until it execs. */
static struct task *take_vfork(struct task *parent, struct task *orphan,
			       pid_t child, const struct options *o)
{
	struct process *pp = process_mem(parent->proc);
	struct process *np = process_new(child);
	np->silent = !o->follow;
	np->vfork_parent = pp;
	struct task *c = claim(orphan, child, np);
	call_inherit(c, parent, &pp->bpts);
	return c;
}

static struct task *take_fork(struct task *parent, struct task *orphan,
			      pid_t child)
{
	if (!orphan)
		wait_first_stop(child);
	struct process *np = fork_process(process_mem(parent->proc), child);
	struct task *c = claim(orphan, child, np);
	fast_fork(np, process_mem(parent->proc));
	call_inherit(c, parent, &np->bpts);
	return c;
}

static void let_go(struct task *parent, struct task *orphan, pid_t child)
{
	if (orphan)
		task_free(orphan);
	else
		wait_first_stop(child);
	adopt_release_fork_child(child, process_mem(parent->proc));
}

/* A thread joins the process; a clone into a new process counts as a
 * fork. */
void adopt_child(struct task *parent, enum tracee_event_kind how,
		 const struct options *o)
{
	unsigned long msg;
	/* Without the message there is no child to speak of: if it exists,
	 * it stays an orphan. */
	if (tracee_event_msg(parent->tid, &msg))
		return;
	pid_t child = (pid_t)msg;
	struct task *c = task_lookup(child);
	bool stopped = c != NULL;
	if (how == TRACEE_CLONE &&
	    procfs_status_field(child, "Tgid", 10) == parent->proc->pid) {
		fast_clone(parent, child);
		c = claim(c, child, parent->proc);
		c->silent = !o->follow;
	} else if (how == TRACEE_VFORK) {
		c = take_vfork(parent, c, child, o);
	} else if (o->follow) {
		c = take_fork(parent, c, child);
		stopped = true;
	} else {
		let_go(parent, c, child);
		return;
	}
	if (stopped)
		tracee_resume(c, 0);
}

/* A thread other than the leader exec'd: it now has the leader's id, and
 * its old id is gone without an exit report. */
static void drop_former_thread(struct task *t)
{
	unsigned long former;
	if (tracee_event_msg(t->tid, &former) || (pid_t)former == t->tid)
		return;
	struct task *old = task_lookup((pid_t)former);
	if (old && old->proc == t->proc)
		task_drop(old);
}

void adopt_exec(struct task *t, const struct options *o)
{
	struct process *p = t->proc;
	drop_former_thread(t);
	if (p->vfork_parent) {
		/* The vfork child has its own memory now. */
		if (!o->follow) {
			tracee_detach(t->tid, 0);
			task_drop(t);
			return;
		}
		p->vfork_parent = NULL;
	}
	call_abandon(t, 0);
	if (task_prints(t))
		output_exec(p->pid, t->tid);
	process_reset_exec(p);
	mem_reset();
	bptmem_setup(t);
	rtld_setup_exec(t);
	tracee_resume(t, 0);
}

void adopt_release_fork_child(pid_t pid, struct process *parent)
{
	int fd = tracee_open_procmem(pid);
	if (fd >= 0) {
		fast_release_child(fd, pid, parent);
		bptmem_restore_bytes(&parent->bpts, fd,
				     BPTMEM_INSERTED | BPTMEM_LIFTED);
		close(fd);
	}
	tracee_detach(pid, 0);
}
