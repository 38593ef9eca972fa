/* aarch64 DWARF register numbers ("DWARF for the Arm 64-bit
 * Architecture": 0-30 x0-x30, 31 sp) read from the registers of a stop,
 * and 32 the pc, as libunwind numbers them (UNW_AARCH64_X0 ..
 * UNW_AARCH64_X30, UNW_AARCH64_SP, UNW_AARCH64_PC): the unwinder's
 * register accessor (unwind.c) is this table. */
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
	if (regno < 31)
		*val = a->r.regs[regno];
	else if (regno == 31)
		*val = a->r.sp;
	else if (regno == 32)
		*val = a->r.pc;
	else
		return false;
	return true;
}

#endif
