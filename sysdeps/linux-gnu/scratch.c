#include "scratch.h"

#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "arch.h"
#include "displace.h"
#include "mem.h"
#include "proc.h"
#include "tracee.h"
#include "xmalloc.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define SCRATCH_SIZE (64 * 1024UL)
/* Keep a margin inside the reach of the jumps between a displaced copy
 * and its code (x86_64: the +-2 GiB of a rel32; aarch64: the +-128 MiB
 * of a B). */
#define REACH (ARCH_SCRATCH_REACH - 2 * SCRATCH_SIZE)
#define MIN_ADDR 0x10000UL

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static void consider(uint64_t c, uint64_t near, uint64_t *best,
		     uint64_t *bestdist)
{
	if (distance(c, near) < *bestdist) {
		*bestdist = distance(c, near);
		*best = c;
	}
}

/* Parse /proc/PID/maps for the free gap nearest to NEAR that holds
 * SCRATCH_SIZE; returns the candidate address or 0. */
static uint64_t find_gap(pid_t pid, uint64_t near)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	uint64_t prev_end = MIN_ADDR;
	uint64_t best = 0;
	uint64_t bestdist = UINT64_MAX;
	char line[512];
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (lo >= prev_end + SCRATCH_SIZE) {
			/* Candidates: the top and the bottom of the gap. */
			consider(lo - SCRATCH_SIZE, near, &best, &bestdist);
			consider(prev_end, near, &best, &bestdist);
		}
		if (hi > prev_end)
			prev_end = hi;
	}
	fclose(f);
	return bestdist <= REACH ? best : 0;
}

static bool in_reach(const struct scratch *s, uint64_t near)
{
	return distance(near, s->base) < REACH &&
	       distance(near, s->base + s->size) < REACH;
}

/* The first region of a process gets ARCH_SYSCALL_INSN (x86_64:
 * ARCH_SYSCALL_INSN) in its first cell. */
static void place_syscall_insn(struct process *p, struct scratch *s)
{
	static const uint8_t insn[] = ARCH_SYSCALL_INSN;
	if (mem_write(p->procmem, s->base, insn, sizeof(insn)) == 0)
		p->syscall_insn = s->base;
	s->used = DISPLACE_CELL_SIZE;
}

static struct scratch *map_region(struct task *t, const struct arch_regs *saved,
				  uint64_t near)
{
	struct process *p = process_mem(t->proc);
	uint64_t hint = find_gap(p->pid, near);
	if (!hint)
		return NULL;
	uint64_t ret = tracee_inject_mmap(t, saved, hint, SCRATCH_SIZE,
					  PROT_READ | PROT_EXEC,
					  MAP_FIXED_NOREPLACE);
	if (!ret)
		return NULL;
	p->scratch =
		xreallocarray(p->scratch, p->nscratch + 1, sizeof(*p->scratch));
	struct scratch *s = &p->scratch[p->nscratch++];
	s->base = ret;
	s->size = SCRATCH_SIZE;
	s->used = 0;
	if (!p->syscall_insn)
		place_syscall_insn(p, s);
	return s;
}

uint64_t scratch_cell(struct task *t, const struct arch_regs *saved,
		      uint64_t near)
{
	struct process *p = process_mem(t->proc);
	struct scratch *s = NULL;
	for (size_t i = 0; i < p->nscratch && !s; i++)
		if (p->scratch[i].used < p->scratch[i].size &&
		    in_reach(&p->scratch[i], near))
			s = &p->scratch[i];
	if (!s)
		s = map_region(t, saved, near);
	if (!s)
		return 0;
	uint64_t cell = s->base + s->used;
	s->used += DISPLACE_CELL_SIZE;
	return cell;
}

bool scratch_contains(const struct process *p, uint64_t ip)
{
	for (size_t i = 0; i < p->nscratch; i++)
		if (ip >= p->scratch[i].base &&
		    ip < p->scratch[i].base + p->scratch[i].size)
			return true;
	return false;
}

void scratch_unmap(struct task *t, const struct arch_regs *saved)
{
	struct process *p = process_mem(t->proc);
	/* The syscall instruction is in a region about to go. */
	p->syscall_insn = 0;
	for (size_t i = 0; i < p->nscratch && !p->scratch_kept; i++) {
		long args[6] = { (long)p->scratch[i].base,
				 (long)p->scratch[i].size,
				 0,
				 0,
				 0,
				 0 };
		long ret;
		/* A failure leaves the region mapped in a task that is gone
		 * or that we cannot drive: nothing more to do about it. */
		(void)tracee_inject_syscall(t, saved, SYS_munmap, args, &ret);
	}
	p->nscratch = 0;
}

void scratch_inherit(struct process *dst, const struct process *src)
{
	dst->syscall_insn = src->syscall_insn;
	dst->scratch_kept = src->scratch_kept;
	dst->nscratch = src->nscratch;
	dst->scratch = xmalloc(src->nscratch * sizeof(*dst->scratch) + 1);
	/* A process with no breakpoint has no scratch (and src->scratch may
	 * be NULL, which memcpy must not be given). */
	if (src->nscratch)
		memcpy(dst->scratch, src->scratch,
		       src->nscratch * sizeof(*dst->scratch));
}
