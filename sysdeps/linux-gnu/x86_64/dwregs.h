/* x86_64 DWARF register numbers (System V psABI, "DWARF Register Number
 * Mapping": 0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp,
 * 8-15 r8-r15, 16 the return address column, which is rip) read from the
 * registers of a stop.  libunwind numbers x86_64 registers the same way
 * (UNW_X86_64_RAX .. UNW_X86_64_RIP), so the unwinder's register accessor
 * (unwind.c) is this table.  Another architecture provides
 * arch_dwarf_reg in its own folder. */
#ifndef LTRACE_DWREGS_H
#define LTRACE_DWREGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/* The value of DWARF register REGNO in A into *VAL; false for a number
 * that is not a general purpose register. */
static inline bool arch_dwarf_reg(const struct arch_regs *a, unsigned regno,
				  uint64_t *val)
{
	const unsigned long long *r[] = {
		&a->r.rax, &a->r.rdx, &a->r.rcx, &a->r.rbx, &a->r.rsi,
		&a->r.rdi, &a->r.rbp, &a->r.rsp, &a->r.r8,  &a->r.r9,
		&a->r.r10, &a->r.r11, &a->r.r12, &a->r.r13, &a->r.r14,
		&a->r.r15, &a->r.rip,
	};
	if (regno >= sizeof(r) / sizeof(r[0]))
		return false;
	*val = *r[regno];
	return true;
}

#endif
