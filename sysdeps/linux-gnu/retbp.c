#include "retbp.h"

#include <signal.h>
#include <string.h>

#include "arch.h"
#include "bpt.h"
#include "displace.h"
#include "bptmem.h"
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
	bptmem_undo_bpts(&p->bpts, addr, buf, n);
}

/* Write B's copy of the instruction into its scratch CELL; the displacement
 * falls back to a single step if that fails. */
static void place_copy(struct process *p, struct breakpoint *b, uint64_t cell)
{
	if (mem_write(p->procmem, cell, b->disp.code, b->disp.code_len)) {
		b->disp.kind = DISPLACE_STEP;
		return;
	}
	b->cell = cell;
}

/* Prepare B's displaced run from the original bytes CODE at its address. */
static void prepare(struct task *t, const struct arch_regs *regs,
		    struct breakpoint *b, const uint8_t *code, size_t len)
{
	struct process *p = process_mem(t->proc);
	/* Prepared again (retbp_recheck): its copy goes where it was. */
	uint64_t cell = b->cell ? b->cell : scratch_cell(t, regs, b->addr);
	if (!cell || displace_prepare(code, len, b->addr, cell, &b->disp))
		b->disp.kind = DISPLACE_STEP;
	if (b->disp.kind == DISPLACE_COPY)
		place_copy(p, b, cell);
}

void retbp_displace(struct task *t, struct memsrc *m,
		    const struct arch_regs *regs, struct breakpoint *b)
{
	uint8_t code[ARCH_MAX_INSN + 1];
	read_code(process_mem(t->proc), m, b->addr, code, sizeof(code));
	prepare(t, regs, b, code, sizeof(code));
}

void retbp_arm(struct task *t, struct memsrc *m, const struct arch_regs *regs,
	       struct breakpoint *b)
{
	struct process *p = process_mem(t->proc);
	uint8_t code[ARCH_MAX_INSN + 1];
	read_code(p, m, b->addr, code, sizeof(code));
	prepare(t, regs, b, code, sizeof(code));
	memcpy(b->orig, code, ARCH_BREAKPOINT_LEN);
	b->inserted = bptmem_write_bpt(p->procmem, b->addr) == 0;
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
		b->entry.returns =
			true; /* its hits may be returns: see loop.c */
}

bool retbp_recheck(struct task *t, struct memsrc *m,
		   const struct arch_regs *regs, uint64_t ret)
{
	struct process *p = process_mem(t->proc);
	struct breakpoint *b = bpt_lookup(&p->bpts, ret);
	uint8_t c[ARCH_BREAKPOINT_LEN];
	if (!b || b->kind != BPT_RETURN || !b->inserted ||
	    memsrc_read(m, ret, c, sizeof(c)) != sizeof(c) || bptmem_is_bpt(c))
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
	if (b->kind != BPT_RETURN || !b->inserted || bptmem_is_bpt(b->orig))
		return;
	task_foreach(find_need, &n);
	if (n.needed)
		return;
	b->inserted = bptmem_write_orig(p->procmem, b) != 0;
}

struct home {
	uint64_t ip;
	const struct breakpoint *found;
};

static void find_syscall_cell(struct breakpoint *b, void *data)
{
	struct home *h = data;
	if (b->disp_ready && b->disp.kind == DISPLACE_COPY && b->cell &&
	    b->disp.syscall_end &&
	    (h->ip == b->cell || h->ip == b->cell + b->disp.syscall_end))
		h->found = b;
}

/* The kernel's restart codes (ERESTARTSYS .. ERESTART_RESTARTBLOCK, the
 * same on every architecture): a system call that a signal interrupted. */
static bool restart_code(uint64_t v)
{
	return (int64_t)v >= -516 && (int64_t)v <= -512;
}

uint64_t retbp_syscall_home(struct process *p, const struct arch_regs *r,
			    bool *again)
{
	struct home h = { arch_ip(r), NULL };
	bpt_foreach(&p->bpts, find_syscall_cell, &h);
	if (!h.found)
		return 0;
	if (h.ip == h.found->cell) {
		*again = true;
		return h.found->addr;
	}
	*again = restart_code(arch_retval(r));
	return h.found->addr + h.found->disp.insn_len;
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
	if (bptmem_is_bpt(b->orig)) {
		own_trap(t, b, regs);
		return;
	}
	singlesteps++;
	(void)bptmem_write_orig(p->procmem, b);
	arch_set_ip(regs, b->addr);
	/* A failed wait leaves the task gone or stopped where the loop's
	 * next report says: the breakpoint goes back either way. */
	if (tracee_set_regs(t->tid, regs) == 0)
		(void)tracee_step_trap(t);
	(void)bptmem_write_bpt(p->procmem, b->addr);
}

void retbp_run_displaced(struct task *t, struct breakpoint *b,
			 struct arch_regs *regs)
{
	struct process *p = process_mem(t->proc);
	switch (b->disp.kind) {
	case DISPLACE_COPY:
		arch_set_ip(regs, b->cell);
		break;
	case DISPLACE_JUMP:
		arch_set_ip(regs, b->disp.target);
		break;
	case DISPLACE_CALL: {
		uint64_t word = arch_push_return(regs, b->disp.ret_addr);
		if (word)
			(void)mem_write(p->procmem, word, &b->disp.ret_addr,
					sizeof(b->disp.ret_addr));
		arch_set_ip(regs, b->disp.target);
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
	if (!b->disp_ready) {
		retbp_displace(t, m, regs, b);
		b->disp_ready = true;
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
	       b->disp.insn_len == ARCH_DECR_PC_AFTER_BREAK;
}

unsigned long retbp_singlesteps(void)
{
	return singlesteps;
}
