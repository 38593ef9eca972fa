/* The --fast recorder blob, as the tracer embeds it (recblob.c, generated
 * at build time by recorder/mkblob from recorder.c and ARCH/recentry.S).
 *
 * The tracer copies rec_blob to the start of an RX mapping in the traced
 * process and maps the RW part at rec_blob_rw from that start; the blob
 * finds the RW part there, by its own position (DESIGN.md, "The
 * recorder").  The offsets are from the blob's first byte. */
#ifndef LTRACE_RECORDER_RECBLOB_H
#define LTRACE_RECORDER_RECBLOB_H

#include <stdint.h>

extern const unsigned char rec_blob[];
extern const uint64_t rec_blob_size;
/* Where the entry trampolines jump (with the function's index,
 * recarch.h). */
extern const uint64_t rec_blob_entry;
/* The address the hooked calls return to. */
extern const uint64_t rec_blob_return;
/* The trap of a full ring: a SIGTRAP with the IP past
 * rec_blob_trap_full asks the tracer to drain the ring and resume the
 * thread. */
extern const uint64_t rec_blob_trap_full;
/* The trap of a record handed over synchronously (ring.h): at a SIGTRAP
 * with the IP past it, recregs_trap_arg is the record's address. */
extern const uint64_t rec_blob_trap_sync;
/* The trap of a return with no shadow entry (recentry.S says what the
 * tracer does there). */
extern const uint64_t rec_blob_trap_lost;
/* The direct copy's instruction: a SIGSEGV or SIGBUS a fault raises
 * there (si_code > 0) is the recorder's, and the thread resumes at
 * rec_blob_copy_fixup, without the signal (ring.h, "Readable ranges"). */
extern const uint64_t rec_blob_copy_insn;
extern const uint64_t rec_blob_copy_fixup;
/* The two ways out of the recorder's code, each an indirect jump: from
 * rec_entry to the function, from rec_return to the caller. */
extern const uint64_t rec_blob_entry_exit;
/* The way in of a patched entry's cell (fastentry.c): the function's
 * index pushed over the return address. */
extern const uint64_t rec_blob_xentry;
extern const uint64_t rec_blob_return_exit;
/* The RW part: struct rec_shared (ring.h), page-aligned. */
extern const uint64_t rec_blob_rw;

#endif
