/* System call injection and scratch memory for displaced instructions. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "displace.h"
#include "error.h"
#include "linux.h"
#include "mem.h"
#include "proc.h"
#include "xmalloc.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define SCRATCH_SIZE (64 * 1024UL)
/* Keep a margin inside the +-2 GiB of a rel32 displacement. */
#define REACH ((1UL << 31) - 2 * SCRATCH_SIZE)
#define MIN_ADDR 0x10000UL

/* Resume T until it traps with its IP at WANT (just past our int3).  A
 * SIGTRAP that was already pending (an int3 of ours it hit just before it
 * was stopped) is consumed on the way.  Leaves the registers in *R. */
static int run_to_trap(struct task *t, uint64_t want, struct arch_regs *r)
{
	for (int tries = 0; tries < 4; tries++) {
		if (ptrace(PTRACE_CONT, t->tid, 0, 0) || trace_wait_trap(t) ||
		    trace_get_regs(t->tid, r))
			return -1;
		if (arch_ip(r) == want)
			return 0;
	}
	return -1;
}

int inject_syscall(struct task *t, const struct arch_regs *saved, long nr,
		   const long args[6], long *ret)
{
	struct process *p = process_mem(t->proc);
	static const uint8_t insn[] = ARCH_SYSCALL_INSN;
	uint64_t ip = p->syscall_insn;
	uint8_t orig[ARCH_SYSCALL_INSN_LEN];
	/* Before there is scratch memory (right after exec, one thread),
	 * borrow the bytes at the stopped IP. */
	if (!ip) {
		ip = arch_ip(saved);
		if (pread(p->memfd, orig, sizeof(orig), ip) != sizeof(orig) ||
		    mem_write(p->memfd, ip, insn, sizeof(insn)))
			return -1;
	}
	struct arch_regs r = *saved;
	arch_setup_syscall(&r, ip, nr, args);
	int rc = -1;
	if (trace_set_regs(t->tid, &r) == 0)
		rc = run_to_trap(t, ip + sizeof(insn), &r);
	if (rc == 0)
		*ret = (long)arch_retval(&r);
	if (!p->syscall_insn)
		mem_write(p->memfd, ip, orig, sizeof(orig));
	return rc;
}

/* Parse /proc/PID/maps for the free gap nearest to NEAR that holds
 * SCRATCH_SIZE; returns the candidate address or 0. */
static uint64_t find_gap(pid_t pid, uint64_t near)
{
	char path[64], line[512];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	uint64_t prev_end = MIN_ADDR, best = 0, bestdist = UINT64_MAX;
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (lo >= prev_end + SCRATCH_SIZE) {
			/* Candidates: the top and the bottom of the gap. */
			uint64_t c[2] = { lo - SCRATCH_SIZE, prev_end };
			for (int i = 0; i < 2; i++) {
				uint64_t d = c[i] > near ? c[i] - near
							 : near - c[i];
				if (d < bestdist) {
					bestdist = d;
					best = c[i];
				}
			}
		}
		if (hi > prev_end)
			prev_end = hi;
	}
	fclose(f);
	return bestdist <= REACH ? best : 0;
}

static bool in_reach(const struct scratch *s, uint64_t near)
{
	uint64_t lo = s->base, hi = s->base + s->size;
	return (near > lo ? near - lo : lo - near) < REACH &&
	       (near > hi ? near - hi : hi - near) < REACH;
}

static struct scratch *map_region(struct task *t,
				  const struct arch_regs *saved, uint64_t near)
{
	struct process *p = process_mem(t->proc);
	uint64_t hint = find_gap(p->pid, near);
	if (!hint)
		return NULL;
	long args[6] = { (long)hint, SCRATCH_SIZE, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			 -1, 0 };
	long ret;
	if (inject_syscall(t, saved, SYS_mmap, args, &ret) ||
	    (unsigned long)ret > -4096UL)
		return NULL;
	p->scratch = xreallocarray(p->scratch, p->nscratch + 1,
				   sizeof(*p->scratch));
	struct scratch *s = &p->scratch[p->nscratch++];
	s->base = ret;
	s->size = SCRATCH_SIZE;
	s->used = 0;
	if (!p->syscall_insn) {
		static const uint8_t insn[] = ARCH_SYSCALL_INSN;
		if (mem_write(p->memfd, s->base, insn, sizeof(insn)) == 0)
			p->syscall_insn = s->base;
		s->used = DISPLACE_SLOT_SIZE;
	}
	return s;
}

uint64_t scratch_slot(struct task *t, const struct arch_regs *saved,
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
	uint64_t slot = s->base + s->used;
	s->used += DISPLACE_SLOT_SIZE;
	return slot;
}
