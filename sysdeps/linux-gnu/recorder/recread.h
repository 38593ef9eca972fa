/* The tracer's side of the --fast recorder's ring (ring.h): walking the
 * records of a copy of the ring's data area.
 *
 * The tracer copies the data area, or the span from the tail to the
 * head (two iovecs at most, at their offsets), into a buffer of the
 * ring's size with one process_vm_readv, walks the records from the
 * tail with rec_record_at, and stores the new tail in the traced
 * process with process_vm_writev. */
#ifndef LTRACE_RECORDER_RECREAD_H
#define LTRACE_RECORDER_RECREAD_H

#include <stdint.h>

#include "recorder/ring.h"

/* The record at position POS of DATA, a copy of a ring of SIZE bytes of
 * which AVAIL from POS on were copied: 1 and *OUT when it is committed
 * and well formed (its size a multiple of REC_ALIGN, within the lap, at
 * least its type's header), 0 when not committed yet or not all copied
 * (the batch ends there: a record reserved after the copy's head was
 * read, over room an earlier one gave back, can have its header in the
 * copy and not its body), -EBADMSG when its commit word is right but the
 * rest is not, or POS is no multiple of REC_ALIGN (a recorder that wrote
 * out of turn: the tracer stops reading this ring and says so). */
int rec_record_at(const void *data, uint64_t size, uint64_t pos, uint64_t avail,
		  const struct rec_hdr **out);

#endif
