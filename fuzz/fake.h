/* What the fuzz targets share (fuzz/conf.c, format.c, lex.c; linked into
 * every target by Makefile.am): the input as a C string, and a fake
 * tracee whose memory is the input at FAKE_BASE, so that a prototype can
 * be formatted at an entry and a return stop without a process.  The
 * registers are the target's to fill: each reads the input its own way. */
#ifndef LTRACE_FUZZ_FAKE_H
#define LTRACE_FUZZ_FAKE_H

#include <stddef.h>
#include <stdint.h>

#include "arch.h"

#include "forward.h"
#include "memsrc.h"

/* Where the input stands in the fake tracee's memory. */
#define FAKE_BASE 0x10000ULL

/* The tracee's memory: the SIZE bytes at DATA (the caller's, not
 * copied) seen at FAKE_BASE; a read outside them gets 0 bytes, a read
 * across the end gets what is inside. */
struct fake_mem {
	struct memsrc m;
	const uint8_t *data;
	size_t size;
};

void fake_mem_init(struct fake_mem *f, const uint8_t *data, size_t size);

/* The floating-point registers of the fake stop (arguments and return
 * values), zero until the target fills them. */
extern struct arch_fpregs fake_fpregs;

/* P formatted as a call at an entry stop, then at its return stop, both
 * with the registers REGS and fake_fpregs over F's memory; strings cut at
 * 32 characters, arrays at 4 elements.  The text is thrown away: the
 * target looks for crashes, leaks and sanitizer reports, not output. */
void fake_call(const struct prototype *p, struct fake_mem *f,
	       const struct arch_regs *regs);

/* A malloc'ed copy of the SIZE bytes at DATA with a NUL after them (the
 * caller frees it), or NULL when out of memory. */
char *fake_text(const uint8_t *data, size_t size);

#endif
