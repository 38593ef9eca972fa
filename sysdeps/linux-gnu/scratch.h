/* Scratch memory: regions mapped into a tracee (by injected mmap) near its
 * code, handed out in DISPLACE_CELL_SIZE cells for displaced instructions.
 * The first cell of a process's first region holds the ARCH_SYSCALL_INSN
 * that later injected system calls run. */
#ifndef LTRACE_SCRATCH_H
#define LTRACE_SCRATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "forward.h"

struct arch_regs;

/* A free cell within reach (+-2 GiB) of NEAR in T's address space,
 * mapping a new region if needed (T's registers are SAVED; the caller
 * restores them with its next tracee_set_regs).  0 if none could be
 * had. */
uint64_t scratch_cell(struct task *t, const struct arch_regs *saved,
		      uint64_t near);
/* Whether IP is in one of P's regions. */
bool scratch_contains(const struct process *p, uint64_t ip);
/* Unmap every region of T's process, with system calls run from the
 * bytes at T's IP (T's registers are SAVED, to be restored by the
 * caller), and forget them.  Left mapped if scratch_kept. */
void scratch_unmap(struct task *t, const struct arch_regs *saved);
/* DST is a fork of SRC: it has the same regions (fork copied them). */
void scratch_inherit(struct process *dst, const struct process *src);

#endif
