#include "retbp.h"

#include <signal.h>
#include <string.h>

#include "arch.h"
#include "bpt.h"
#include "displace.h"
#include "image.h"
#include "mem.h"
#include "memsrc.h"
#include "proc.h"
#include "scratch.h"
#include "tracee.h"

static unsigned long singlesteps;

/* Read the original bytes at ADDR, undoing our own breakpoints in
 * them. */
static void read_code(struct process *p, struct memsrc *m, uint64_t addr,
		      uint8_t *buf, size_t len)
{
	size_t n = memsrc_read(m, addr, buf, len);
	memset(buf + n, 0, len - n);
	image_undo_bpts(&p->bpts, addr, buf, n);
}

/* Write B's copy of the instruction into its scratch SLOT; the plan
 * falls back to a single step if that fails. */
static void place_copy(struct process *p, struct breakpoint *b, uint64_t slot)
{
	if (mem_write(p->memfd, slot, b->plan.code, b->plan.code_len)) {
		b->plan.kind = DISPLACE_STEP;
		return;
	}
	b->slot = slot;
}

/* Plan B's displaced run from the original bytes CODE at its address. */
static void plan(struct task *t, const struct arch_regs *regs,
		 struct breakpoint *b, const uint8_t *code, size_t len)
{
	struct process *p = process_mem(t->proc);
	/* Planned again (retbp_recheck): its copy goes where it was. */
	uint64_t slot = b->slot ? b->slot : scratch_slot(t, regs, b->addr);
	if (!slot || displace_plan(code, len, b->addr, slot, &b->plan))
		b->plan.kind = DISPLACE_STEP;
	if (b->plan.kind == DISPLACE_COPY)
		place_copy(p, b, slot);
}

void retbp_plan(struct task *t, struct memsrc *m, const struct arch_regs *regs,
		struct breakpoint *b)
{
	uint8_t code[ARCH_MAX_INSN + 1];
	read_code(process_mem(t->proc), m, b->addr, code, sizeof(code));
	plan(t, regs, b, code, sizeof(code));
}

void retbp_arm(struct task *t, struct memsrc *m, const struct arch_regs *regs,
	       struct breakpoint *b)
{
	struct process *p = process_mem(t->proc);
	uint8_t code[ARCH_MAX_INSN + 1];
	read_code(p, m, b->addr, code, sizeof(code));
	plan(t, regs, b, code, sizeof(code));
	memcpy(b->orig, code, ARCH_BREAKPOINT_LEN);
	b->inserted = image_write_bpt(p->memfd, b->addr) == 0;
}

void retbp_ensure(struct task *t, struct memsrc *m,
		  const struct arch_regs *regs, uint64_t ret)
{
	struct process *p = process_mem(t->proc);
	struct breakpoint *b = bpt_lookup(&p->bpts, ret);
	if (!b)
		retbp_arm(t, m, regs, bpt_add(&p->bpts, ret, BPT_RETURN));
	else if (b->kind == BPT_RETURN && !b->inserted)
		retbp_arm(t, m, regs, b); /* lifted by retbp_lift_unneeded */
	else if (b->kind == BPT_ENTRY)
		b->returns = true; /* its hits may be returns: see loop.c */
}

bool retbp_recheck(struct task *t, struct memsrc *m,
		   const struct arch_regs *regs, uint64_t ret)
{
	struct process *p = process_mem(t->proc);
	struct breakpoint *b = bpt_lookup(&p->bpts, ret);
	uint8_t c[ARCH_BREAKPOINT_LEN];
	if (!b || b->kind != BPT_RETURN || !b->inserted ||
	    memsrc_read(m, ret, c, sizeof(c)) != sizeof(c) || image_is_bpt(c))
		return false;
	b->inserted = false;
	retbp_arm(t, m, regs, b);
	return true;
}

struct need {
	const struct process *p;
	uint64_t ret;
	bool needed;
};

static void find_need(struct task *t, void *data)
{
	struct need *n = data;
	if (n->needed || !t->proc || process_mem(t->proc) != n->p)
		return;
	for (size_t k = 0; k < t->nframes; k++)
		if (t->frames[k].ret == n->ret && !t->frames[k].recorded) {
			n->needed = true;
			return;
		}
}

void retbp_lift_unneeded(struct task *t, struct breakpoint *b)
{
	struct process *p = process_mem(t->proc);
	struct need n = { p, b->addr, false };
	if (b->kind != BPT_RETURN || !b->inserted || image_is_bpt(b->orig))
		return;
	task_foreach(find_need, &n);
	if (n.needed)
		return;
	b->inserted = image_write_orig(p->memfd, b) != 0;
}

/* Memory writes here fail only when the process is gone, which the event
 * loop learns from waitpid: their results are not checked. */
/* The program's own breakpoint instruction under one of ours (a call
 * that returns onto it): stepping it would raise a SIGTRAP that the
 * step's wait takes for its own, and the program's handler would never
 * run.  Do what it does untraced instead: the IP where its trap leaves
 * it, and the SIGTRAP of this very trap (the stop's siginfo,
 * ARCH_BREAKPOINT_SI_CODE) delivered at the resume. */
static void own_trap(struct task *t, struct breakpoint *b,
		     struct arch_regs *regs)
{
	arch_set_ip(regs, b->addr + ARCH_DECR_PC_AFTER_BREAK);
	if (tracee_set_regs(t->tid, regs) == 0)
		tracee_set_pending_signal(t, SIGTRAP);
}

void retbp_step_in_place(struct task *t, struct breakpoint *b,
			 struct arch_regs *regs)
{
	struct process *p = process_mem(t->proc);
	if (image_is_bpt(b->orig)) {
		own_trap(t, b, regs);
		return;
	}
	singlesteps++;
	(void)image_write_orig(p->memfd, b);
	arch_set_ip(regs, b->addr);
	/* A failed wait leaves the task gone or stopped where the loop's
	 * next report says: the breakpoint goes back either way. */
	if (tracee_set_regs(t->tid, regs) == 0)
		(void)tracee_step_trap(t);
	(void)image_write_bpt(p->memfd, b->addr);
}

void retbp_run_displaced(struct task *t, struct breakpoint *b,
			 struct arch_regs *regs)
{
	struct process *p = process_mem(t->proc);
	switch (b->plan.kind) {
	case DISPLACE_COPY:
		arch_set_ip(regs, b->slot);
		break;
	case DISPLACE_JUMP:
		arch_set_ip(regs, b->plan.target);
		break;
	case DISPLACE_CALL: {
		uint64_t slot = arch_push_return(regs, b->plan.ret_addr);
		if (slot)
			(void)mem_write(p->memfd, slot, &b->plan.ret_addr,
					sizeof(b->plan.ret_addr));
		arch_set_ip(regs, b->plan.target);
		break;
	}
	case DISPLACE_STEP:
		retbp_step_in_place(t, b, regs);
		return;
	}
	/* A failure is reported (unless the task is gone); the loop resumes
	 * the task either way. */
	(void)tracee_set_regs(t->tid, regs);
}

void retbp_run_entry(struct task *t, struct memsrc *m, struct arch_regs *regs,
		     struct breakpoint *b)
{
	if (!b->planned) {
		retbp_plan(t, m, regs, b);
		b->planned = true;
	}
	arch_set_ip(regs, b->addr);
	retbp_run_displaced(t, b, regs);
}

void retbp_jump(struct task *t, struct memsrc *m, struct arch_regs *regs,
		uint64_t target)
{
	struct breakpoint *b = bpt_lookup(&process_mem(t->proc)->bpts, target);
	if (b && b->kind == BPT_ENTRY && b->inserted) {
		retbp_run_entry(t, m, regs, b);
		return;
	}
	arch_set_ip(regs, target);
	/* A failure is reported (unless the task is gone); the loop resumes
	 * the task either way. */
	(void)tracee_set_regs(t->tid, regs);
}

bool retbp_ip_ambiguous(const struct breakpoint *b)
{
	return ARCH_DECR_PC_AFTER_BREAK != 0 &&
	       b->plan.insn_len == ARCH_DECR_PC_AFTER_BREAK;
}

unsigned long retbp_singlesteps(void)
{
	return singlesteps;
}
