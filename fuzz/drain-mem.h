/* The drain target's traced process (fuzz/drain.c): one span of fake
 * memory, and a second writer that changes it while the tracer reads.
 *
 * fuzz/drain-mem.c defines every function of sysdeps/linux-gnu/mem.h
 * over this memory, so that the linker takes them instead of mem.o from
 * libltrace: fastrec_read, fastrec_gather (fastrec.c) and mem_write
 * reach it unchanged, with no process.  A link that pulls mem.o in
 * anyway (a new function of mem.h used in the drain path and missing
 * here) fails with duplicate symbols, never silently.
 *
 * Each remote span that a read copies is one tick.  The writer's writes
 * are scheduled by tick: one due at tick N lands just before the Nth
 * span is copied, as a thread of the program would store between two
 * reads of the tracer's (the double fetch of issue 25), or between the
 * two halves of a ring copied across its end. */
#ifndef LTRACE_FUZZ_DRAIN_MEM_H
#define LTRACE_FUZZ_DRAIN_MEM_H

#include <stddef.h>
#include <stdint.h>

/* SIZE bytes of zeroed memory at address BASE, no write scheduled, the
 * tick count at 0.  The memory is one allocation of exactly SIZE
 * bytes, so that ASan catches a copy past it. */
void fakemem_init(uint64_t base, size_t size);
/* Free the memory and forget the writes not yet made. */
void fakemem_destroy(void);

/* The memory, to fill before the tracer reads; its size. */
uint8_t *fakemem_bytes(void);
size_t fakemem_size(void);

/* The 8-byte word at byte OFF of the memory (0 past its end). */
uint64_t fakemem_word(uint64_t off);

/* The writer stores VALUE at byte OFF (modulo the size, cut at the
 * end) when AFTER more spans have been copied: 0, before the next. */
void fakemem_schedule(unsigned after, uint64_t off, uint64_t value);

#endif
