/* fast.h on an architecture without the --fast recorder (configure's
 * RECORDER; today every one but x86_64): --fast says once that it is
 * not there, and the program is traced in ptrace mode.  Nothing is ever
 * handed to a recorder, so every question fast.h asks has the answer of
 * a process that has none, and every notice is nothing to do. */
#include <sys/utsname.h>

#include "error.h"
#include "fast.h"
#include "options.h"

bool fast_init(const struct options *o)
{
	struct utsname u;

	if (o->fast)
		error_msg("--fast: no recorder for %s yet; "
			  "tracing in ptrace mode",
			  uname(&u) == 0 ? u.machine : "this architecture");
	return false;
}

bool fast_take(struct task *t, struct breakpoint *b, struct arch_regs *regs,
	       uint64_t target)
{
	(void)t, (void)b, (void)regs, (void)target;
	return false;
}

bool fast_take_entry(struct task *t, struct breakpoint *b,
		     struct arch_regs *regs)
{
	(void)t;
	(void)b;
	(void)regs;
	return false;
}

bool fast_tail_entry(const struct process *p, uint64_t ret, uint64_t addr)
{
	(void)p;
	(void)ret;
	(void)addr;
	return false;
}

bool fast_binding(const struct task *t, const struct breakpoint *b,
		  uint64_t target)
{
	(void)t, (void)b, (void)target;
	return false;
}

void fast_select(struct process *p, struct library *l,
		 void (*add)(struct breakpoint *b, void *ctx), void *ctx)
{
	(void)p, (void)l, (void)add, (void)ctx;
}

void fast_unwinding(struct task *t, struct memsrc *m,
		    const struct arch_regs *regs)
{
	(void)t, (void)m, (void)regs;
}

bool fast_fault(struct task *t, int sig)
{
	(void)t, (void)sig;
	return false;
}

void fast_stopped(struct task *t)
{
	(void)t;
}

void fast_clone(struct task *t, pid_t child)
{
	(void)t, (void)child;
}

void fast_drain_all(void)
{
}

bool fast_settle(pid_t tid, bool may_defer)
{
	(void)tid, (void)may_defer;
	return false;
}

bool fast_owns_ip(const struct task *t, uint64_t ip)
{
	(void)t, (void)ip;
	return false;
}

bool fast_trap(struct task *t, struct memsrc *m, struct arch_regs *regs)
{
	(void)t, (void)m, (void)regs;
	return false;
}

void fast_learn(struct task *t, const struct arch_regs *regs)
{
	(void)t, (void)regs;
}

void fast_exit(struct task *t)
{
	(void)t;
}

void fast_fork(struct process *child, const struct process *parent)
{
	(void)child, (void)parent;
}

void fast_release_child(int procmem, pid_t pid, const struct process *parent)
{
	(void)procmem, (void)pid, (void)parent;
}

void fast_detach(struct process *p)
{
	(void)p;
}

bool fast_trap_stop(struct task *t)
{
	(void)t;
	return false;
}

void fast_signal(struct task *t, int sig, struct arch_regs *regs)
{
	(void)t, (void)sig, (void)regs;
}

void fast_unmap(struct task *t, const struct arch_regs *saved)
{
	(void)t, (void)saved;
}

/* No drainer thread: the event loop runs alone, and its lock is no
 * one's to share. */
void fast_start(void)
{
}

void fast_stop(void)
{
}

void fast_lock(void)
{
}

void fast_unlock(void)
{
}
