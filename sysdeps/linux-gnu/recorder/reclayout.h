/* The --fast recorder's mapping, as the tracer lays it out (DESIGN.md,
 * "The recorder"): one region of the traced process,
 *
 *	[trampolines][blob][RW: rec_shared | function table | plans |
 *			    shadow stacks | readable ranges | ring data]
 *
 * the first two read and execute, the rest read and write.  The blob
 * finds the RW part at rec_blob_rw from its start; the trampolines jump
 * into the blob with a rel32, so they sit right before it. */
#ifndef LTRACE_RECORDER_RECLAYOUT_H
#define LTRACE_RECORDER_RECLAYOUT_H

#include <stdint.h>

#include "recorder/ring.h"

/* Entries of the readable ranges' table (ring.h): a process with more
 * plain mappings than this, once adjacent ones are merged, has its
 * largest in the table. */
#define REC_NRANGE 4096

/* Offsets from the region's start, and sizes. */
struct rec_layout {
	uint32_t nfunc, nshadow, depth;
	uint64_t ring;	 /* the ring's data bytes */
	uint64_t tramp;	 /* the trampolines: REC_TRAMP_SIZE each */
	uint64_t blob;	 /* the blob; [0, rw) is RX */
	uint64_t rw;	 /* struct rec_shared */
	uint64_t ftab;	 /* struct rec_func[nfunc] */
	uint64_t plans;	 /* PLAN_BYTES for the plans */
	uint64_t shadow; /* nshadow stacks of depth entries */
	uint64_t ranges; /* struct rec_range[REC_NRANGE] */
	uint64_t data;	 /* the ring's data */
	uint64_t size;	 /* the whole region */
};

/* Lay out a region for NFUNC functions whose plans take PLAN_BYTES, NSHADOW
 * threads at once (a power of two) with DEPTH hooked calls each (less
 * than 65536), and a ring of RING bytes (a power of two, at least 4
 * pages).  0, or -EINVAL for a size out of those bounds. */
int rec_layout_init(struct rec_layout *l, uint32_t nfunc, uint64_t plan_bytes,
		    uint32_t nshadow, uint32_t depth, uint64_t ring);

/* The largest record of a ring laid out as L (rec_shared.max_record): a
 * call whose plan's bound is larger would have its copies cut. */
uint64_t rec_max_record(const struct rec_layout *l);
/* Fill S, the configuration of the region L at BASE in process PID
 * (max_record a quarter of the ring, at most 1 MiB; stack_span 8 MiB;
 * time stamps on; the readable ranges' table empty: every copy by system
 * call); the counters, head and tail start at 0. */
void rec_shared_init(struct rec_shared *s, const struct rec_layout *l,
		     uint64_t base, uint64_t pid);

#endif
