/* The --fast recorder's per-function entry trampolines (DESIGN.md, "The
 * recorder"): the tracer writes one per recorded function, in RX memory
 * within rel32 reach of the blob, and points the function's GOT slots
 * at it. */
#ifndef LTRACE_X86_64_RECTRAMP_H
#define LTRACE_X86_64_RECTRAMP_H

#include <stdint.h>

#define REC_TRAMP_SIZE 16

/* Write at OUT the trampoline of function INDEX (its entry in the
 * function table) that will lie at AT and jump to ENTRY (the blob's
 * address plus rec_blob_entry):
 *
 *	f3 0f 1e fa		endbr64
 *	41 bb <index:4>		mov $index, %r11d
 *	e9 <entry - (at+15):4>	jmp entry
 *	cc			int3 (never reached)
 *
 * r11 is free at a call's entry (psABI: a scratch register that no
 * argument uses).  Returns 0, or -ERANGE when ENTRY is out of reach. */
int rec_tramp_write(uint8_t out[REC_TRAMP_SIZE], uint64_t at, uint32_t index,
		    uint64_t entry);

/* Write at OUT a trampoline that will lie at AT and forward every call
 * to the address stored at SLOT, with no recorder:
 *
 *	f3 0f 1e fa		endbr64
 *	ff 25 <slot - (at+10):4>	jmp *slot(%rip)
 *	cc cc cc cc cc cc	int3 (never reached)
 *
 * Returns 0, or -ERANGE when SLOT is out of reach. */
int rec_tramp_forward(uint8_t out[REC_TRAMP_SIZE], uint64_t at, uint64_t slot);

#endif
