/* A memsrc over the chunks of one --fast record (recorder/plan.h): the
 * tracer formats a recorded call with the lenses as at a ptrace stop,
 * and this serves their reads from what the fetch plan copied.
 *
 * A read inside what a chunk copied returns those bytes (chunks may
 * overlap; a read may span several).  A read that runs on to a byte no
 * chunk holds returns short, as real memory would, when that byte is
 * known unreadable (a chunk that stopped there with LEN < WANTED), when
 * the bytes returned hold the NUL that ended a chunk (a C string: the
 * string lens reads ahead in bulk and stops at the NUL), or when it lies
 * above any user mapping;
 * otherwise the plan did not copy what the lens wanted: the read also
 * returns short, and MISSES counts it (the output may differ from a
 * ptrace stop's; tests require 0, the tracer warns). */
#ifndef LTRACE_RECMEM_H
#define LTRACE_RECMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "memsrc.h"

struct recmem {
	struct memsrc mem; /* first: a struct memsrc * is a struct recmem * */
	const unsigned char *chunks;
	size_t size; /* bytes of well-formed chunks */
	/* The one chunk of user memory, when there is one alone: reads
	 * need not search */
	const struct plan_chunk *only;
	/* The last two chunks that served a read (recmem.c, holding). */
	const struct plan_chunk *hot[2];
	unsigned long misses;
	/* When not NULL, the memory of the record's thread, stopped where
	 * the record was made (a record whose copies did not fit, read at
	 * its trap): every read of the program's memory goes there. */
	struct memsrc *live;
};

/* Serve the SIZE bytes of chunks at CHUNKS (not copied: they must
 * outlive M).  A malformed chunk (the record comes from the traced
 * process) ends the span there. */
void recmem_init(struct recmem *m, const void *chunks, size_t size);

/* The 128 bytes of floating point argument registers the record holds, into OUT: false when it
 * holds none. */
bool recmem_fpr(const struct recmem *m, void *out);

#endif
