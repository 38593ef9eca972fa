/* System calls (-S), reported as traced calls (syscalls.h).
 *
 * The budget (DESIGN.md, "The per-call budget"): two stops per system
 * call, its entry and its exit, each one PTRACE_GET_SYSCALL_INFO (the
 * number and arguments, or the return value and whether it failed), then
 * PTRACE_SYSCALL; no GETREGS.  Arguments that point into memory are read
 * by the lenses through the memory layer, as a library call's.
 *
 * Entries and exits pair up by the task's stack of pending calls: a
 * system call is the innermost call while it runs (no user code of the
 * task runs in between; a signal's handler runs after the exit), so an
 * exit returns the innermost frame if it is a system call's.  An exit
 * with none (a task attached or born in the middle of a call, execve
 * after the exec dropped the frames) shows nothing.  A call that never
 * exits (exit_group, a thread killed by another's exit_group or execve)
 * stays "<unfinished ...>" when the exit or exec line comes; an entry
 * that finds a system call still on top (its exit lost) forgets it. */
#include "syscalls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>

#include "arch.h"
#include "bpt.h"
#include "calls.h"
#include "callsite.h"
#include "fast.h"
#include "mem.h"
#include "proc.h"
#include "protolib.h"
#include "protoset.h"
#include "tracee.h"
#include "xmalloc.h"

/* The native ABI's names by number (designated initializers), generated
 * from the architecture's <asm/unistd.h> by Makefile.am. */
static const char *const names[] = {
#include "syscallnames.h"
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static struct protoset *protos;

/* Descriptors of the native numbers below NNAMES by number; any other
 * (a foreign ABI, a number the table lacks) in a list. */
static struct breakpoint *by_nr[NNAMES];
struct other {
	struct breakpoint *b;
	uint32_t arch;
	uint64_t nr;
	struct other *next;
};
static struct other *others;

void syscalls_init(struct protoset *ps)
{
	protos = ps;
	tracee_trace_syscalls(true);
}

static struct breakpoint *desc_new(const char *name)
{
	struct breakpoint *b = xcalloc(1, sizeof(*b));
	char label[64];
	b->kind = BPT_SYSCALL;
	b->call.name = xstrdup(name);
	snprintf(label, sizeof(label), "%s@SYS", name);
	b->call.label = xstrdup(label);
	/* The architecture's own prototypes first (syscalls-ARCH.conf:
	 * struct stat, clone), then the common ones. */
	const struct protolib *pl =
		protoset_library(protos, "syscalls-" ARCH_NAME);
	b->call.proto = pl ? protolib_lookup(pl, name) : NULL;
	pl = b->call.proto ? NULL : protoset_library(protos, "syscalls");
	if (pl)
		b->call.proto = protolib_lookup(pl, name);
	b->call.proto_done = true;
	return b;
}

/* A number the table does not name: "SYS_<nr>", the raw arguments. */
static struct breakpoint *desc_other(uint32_t arch, uint64_t nr)
{
	for (struct other *o = others; o; o = o->next)
		if (o->arch == arch && o->nr == nr)
			return o->b;
	char name[32];
	snprintf(name, sizeof(name), "SYS_%llu", (unsigned long long)nr);
	struct other *o = xmalloc(sizeof(*o));
	o->b = desc_new(name);
	o->arch = arch;
	o->nr = nr;
	o->next = others;
	others = o;
	return o->b;
}

static struct breakpoint *desc(uint32_t arch, uint64_t nr)
{
	if (arch != ARCH_SYSCALL_AUDIT || nr >= NNAMES || !names[nr])
		return desc_other(arch, nr);
	if (!by_nr[nr])
		by_nr[nr] = desc_new(names[nr]);
	return by_nr[nr];
}

/* The callsite of a system call stop: registers as fetch.c reads a
 * function's (arch_syscall_callee), no floating point. */
struct sysstop {
	struct callsite cs;
	struct arch_regs regs;
};

static void sysstop_init(struct sysstop *s, struct task *t, bool at_entry)
{
	struct process *p = process_mem(t->proc);
	memset(s, 0, sizeof(*s));
	s->cs.mem = mem_bind(p->pid, p->procmem);
	s->cs.regs = &s->regs.r;
	s->cs.fpregs = NULL;
	s->cs.at_entry = at_entry;
	s->cs.tid = t->tid;
}

static bool in_syscall(const struct task *t)
{
	return t->nframes && t->frames[t->nframes - 1].bpt->kind == BPT_SYSCALL;
}

static void sys_entry(struct task *t, const struct __ptrace_syscall_info *si)
{
	if (in_syscall(t))
		task_pop_frames(t, t->nframes - 1);
	if (fast_owns_ip(t, si->instruction_pointer))
		return; /* the --fast recorder's copy, not the program's */
	struct sysstop s;
	sysstop_init(&s, t, true);
	arch_syscall_callee(&s.regs, si->entry.args, si->stack_pointer,
			    si->instruction_pointer);
	/* Its "return address" (what -i shows) is where it returns to,
	 * just past the syscall instruction; no return breakpoint is hit
	 * while it is the innermost call.  Its stack pointer is kept one
	 * below the task's: the function that makes it may run on the one
	 * its own pending call was entered with (aarch64, where a call
	 * leaves nothing on the stack: a leaf's svc), which would make that
	 * call look unwound by this one (call_unwound). */
	call_entry(t, desc(si->arch, si->entry.nr), &s.cs,
		   si->instruction_pointer, si->stack_pointer - 1,
		   task_prints(t));
}

static void sys_exit(struct task *t, const struct __ptrace_syscall_info *si)
{
	if (!in_syscall(t))
		return;
	struct sysstop s;
	sysstop_init(&s, t, false);
	arch_syscall_callee(&s.regs, (const uint64_t[6]){ 0 },
			    si->stack_pointer, si->instruction_pointer);
	arch_set_retval(&s.regs, (uint64_t)si->exit.rval);
	if (si->exit.is_error)
		s.cs.error = (int)-si->exit.rval;
	call_return(t, t->nframes - 1, &s.cs, task_prints(t));
}

void syscalls_stop(struct task *t)
{
	struct __ptrace_syscall_info si;
	if (tracee_syscall_info(t->tid, &si))
		return;
	if (si.op == PTRACE_SYSCALL_INFO_ENTRY)
		sys_entry(t, &si);
	else if (si.op == PTRACE_SYSCALL_INFO_EXIT)
		sys_exit(t, &si);
}

static void desc_free(struct breakpoint *b)
{
	if (!b)
		return;
	free(b->call.name);
	free(b->call.label);
	free(b);
}

void syscalls_free(void)
{
	for (size_t i = 0; i < NNAMES; i++) {
		desc_free(by_nr[i]);
		by_nr[i] = NULL;
	}
	while (others) {
		struct other *o = others;
		others = o->next;
		desc_free(o->b);
		free(o);
	}
}
