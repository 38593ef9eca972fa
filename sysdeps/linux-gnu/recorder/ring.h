/* The --fast recorder's shared memory: what the tracer and the recorder
 * blob inside the traced process both see (issue 12; DESIGN.md, "The
 * recorder").  Freestanding: fixed-width types only.
 *
 * The recorder's mapping is [blob code, RX][RW part].  The RW part starts
 * at the blob offset rec_blob_rw (recblob.h) with a struct rec_shared; the
 * function table, the plans, the shadow stacks and the ring's data lie
 * anywhere in the RW part, at the addresses the tracer writes in it.
 *
 * The ring: DATA holds SIZE bytes (a power of two).  HEAD and TAIL are
 * byte positions that only grow (they never wrap); the record at
 * position P lies at DATA + (P & (SIZE - 1)).  Writers (any thread, or a
 * signal handler that interrupted a writer) reserve LEN bytes with a
 * compare-and-swap of HEAD from P to P + LEN, made only when
 * P + LEN - TAIL <= SIZE.  A record never straddles the end of DATA: a
 * writer whose record would reserves the rest of the lap too and fills it
 * with a pad record.  The writer fills its record, then publishes it by a
 * release store of the header's COMMIT word, rec_commit_word(P): the
 * reader tells it from a stale word of an earlier lap (which says another
 * position) and from the zeros of a new ring.  The reader (the tracer)
 * reads records from TAIL in order while their commit word is right, then
 * stores the new TAIL (process_vm_writev); the first record not yet
 * committed ends the batch, even if later ones are.
 *
 * A call's record is reserved with room for its plan's upper bound; the
 * bytes the plan did not use are given back: HEAD moves back if no writer
 * reserved after it, else they become a pad record.  Records and pads are
 * multiples of REC_ALIGN bytes, so any slack holds a pad's header.  Slack
 * up to REC_SLACK_KEEP bytes stays in the record instead, past its
 * chunks: its size is the reservation's.
 *
 * A full ring: the writer executes the trap at rec_blob_trap_full; the
 * tracer sees a SIGTRAP with the IP just after it, drains, and resumes
 * the thread, which tries again.  No record is ever dropped.
 *
 * Unless the writer is a signal handler that interrupted a writer of
 * its own thread between reservation and commit: the record in the way
 * may be that writer's, which cannot go on before the handler returns.
 * Such a writer (its thread's shadow stack says so, rec_shadow.pending) never
 * waits for room: it builds its record on its stack (the chunks cut to
 * REC_SYNC_ROOM bytes) and executes the trap at rec_blob_trap_sync with
 * the record's address in its argument register (recregs.h).  The tracer drains the ring, reads that
 * record and resumes.  Its position is REC_SYNC_BIT | n (n counts such
 * records), in no lap; a return record names it as any other.
 *
 * Readable ranges: the plans' copies read the program's memory directly
 * where the tracer's table (RANGES, NRANGE entries, sorted, disjoint)
 * says it is plain memory the process can read, else with
 * process_vm_readv.  The tracer writes the table under a sequence word:
 * RANGE_SEQ odd while it writes, then even and higher; a reader that
 * sees it odd, or changed after its lookup, copies with the system call.
 * A direct copy is rec_copy's one instruction at rec_blob_copy_insn
 * (recblob.h): should the memory have gone since the table was read,
 * its SIGSEGV or SIGBUS stops the thread there, and the tracer resumes
 * it at rec_blob_copy_fixup instead of delivering the signal; the copy
 * is then short, as at unreadable memory. */
#ifndef LTRACE_RECORDER_RING_H
#define LTRACE_RECORDER_RING_H

#include <stdint.h>

/* enum rec_reg: the registers in rec_call.regs, REC_NREGS of them. */
#include "recring.h"

/* "LTRREC01": a struct rec_shared the tracer filled. */
#define REC_MAGIC 0x313043455252544cull
#define REC_VERSION 5

#define REC_ALIGN 16
#define REC_SLACK_KEEP 128
/* The chunks' room in a synchronous record (on the writer's stack). */
#define REC_SYNC_ROOM 512
/* The positions of synchronous records. */
#define REC_SYNC_BIT (1ull << 63)
#define rec_align(n) \
	(((uint64_t)(n) + REC_ALIGN - 1) & ~(uint64_t)(REC_ALIGN - 1))
/* The commit word of the record at position POS: never 0, and another
 * position's never equals it. */
#define rec_commit_word(pos) ((uint64_t)(pos) + 1)

enum rec_type {
	REC_PAD = 1,	/* bytes to skip */
	REC_CALL = 2,	/* struct rec_call, then its chunks */
	REC_RETURN = 3, /* struct rec_return, then its chunks */
};

/* Every record starts so.  SIZE is the record's length in the ring (a
 * multiple of REC_ALIGN), the header included. */
struct rec_hdr {
	uint64_t commit;
	uint32_t size;
	uint16_t type;
	uint16_t flags;
};

/* rec_call.h.flags */
enum rec_call_flags {
	/* Its return will be recorded: the return address on the stack was
	 * replaced with the return trampoline's. */
	REC_CALL_HOOKED = 1,
	/* Entered with the return trampoline's address as return address:
	 * a tail call from a hooked function, whose return record is the
	 * return of this one too.  SITE is that function's call site. */
	REC_CALL_TAIL = 2,
	/* Its return was wanted but not hooked: no shadow stack was
	 * free for the thread, or its shadow stack was full. */
	REC_CALL_NOSHADOW = 4,
	/* The plan stopped at the record's room (rec_shared.max_record). */
	REC_CALL_CUT = 8,
	/* The copies did not fit: a synchronous record, read while the
	 * thread waits at rec_blob_trap_sync, whose memory the tracer reads
	 * then; it holds the floating point registers' chunk only. */
	REC_CALL_LIVE = 0x100,
};

/* A call, recorded at its entry.  The plan's chunks (struct plan_chunk
 * and their bytes, plan.h) follow, up to h.size.  The record's position
 * is the call's sequence number. */
struct rec_call {
	struct rec_hdr h;
	uint64_t thread; /* the thread's TCB, %fs:0 */
	uint64_t tsc;	 /* rdtsc at the entry (REC_OPT_TSC), or 0 */
	uint32_t func;	 /* index in the function table */
	uint32_t used;	 /* bytes of chunks that follow */
	uint64_t site;	 /* the return address: the call site's end */
	uint64_t sp;	 /* the stack pointer at the entry (at SITE) */
	uint64_t regs[REC_NREGS];
};

/* rec_return.h.flags */
enum rec_return_flags {
	/* The return plan stopped at the record's room. */
	REC_RETURN_CUT = 8,
	/* ERR holds the thread's errno at the return (REC_FN_ERRNO), and
	 * ERR_ENTRY its errno at the call's entry (REC_FN_ERRNO_ENTRY). */
	REC_RETURN_ERRNO = 16,
	REC_RETURN_ERRNO_ENTRY = 32,
	/* A struct rec_stack follows the chunks (REC_OPT_STACK). */
	REC_RETURN_STACK = 64,
	/* As REC_CALL_LIVE: no chunks; the memory at the trap. */
	REC_RETURN_LIVE = 0x100,
};

/* rec_shadow_entry.err_entry of a call whose errno was not read. */
#define REC_ERRNO_NONE INT32_MIN

/* A return, recorded by the return trampoline.  The chunks of the
 * function's return plan follow, up to h.size: the memory the return's
 * text reads (out-parameters, a returned string), copied as the call
 * returned. */
struct rec_return {
	struct rec_hdr h;
	uint64_t thread;
	uint64_t tsc;
	uint32_t func;
	uint32_t used;	   /* bytes of chunks that follow */
	uint64_t call;	   /* the position of the call's record */
	uint64_t ret[2];   /* the return value's integer registers */
	uint8_t fret[16];  /* its first floating point register */
	uint64_t sp;	   /* the stack pointer after the return */
	uint64_t site;	   /* where it returned to */
	int32_t err;	   /* with REC_RETURN_ERRNO */
	int32_t err_entry; /* with REC_RETURN_ERRNO_ENTRY */
	uint64_t reserved; /* 0: the chunks start 16-aligned */
};

/* With REC_OPT_STACK (-w), a return record's last part, at
 * rec_align(sizeof(struct rec_return) + used): what the tracer unwinds
 * the caller's stack from.  The registers are the caller's as the
 * return left them (rip is rec_return.site, rsp rec_return.sp); LEN
 * bytes of the stack from SP follow (up to rec_shared.stack_copy, never
 * past the readable range that holds SP), with each return address
 * that a pending hooked call's shadow entry replaced by rec_return's
 * put back.  A synchronous record copies none (the tracer reads the
 * stack of the stopped thread itself). */
struct rec_stack {
	uint64_t kept[REC_NKEPT]; /* recring.h, enum rec_kept */
	uint64_t sp;		  /* where the copy starts */
	uint32_t len;		  /* bytes copied, which follow */
	uint32_t wanted;	  /* bytes it tried to copy */
};

/* rec_func.flags: REC_FN_RETURNS, record its returns (never for a
 * function that returns twice, vfork or setjmp: the first return pops
 * the shadow entry the second needs).  REC_FN_DRAIN, trap at
 * rec_blob_trap_full after recording the call, so that the tracer
 * drains the ring before the call runs (the exec family: at
 * PTRACE_EVENT_EXEC the old memory is gone).  REC_FN_ERRNO, read the
 * thread's errno at the return into the record (its prototype says
 * when it fails); REC_FN_ERRNO_ENTRY, at the entry too (errno(changed)).
 * Both only once the tracer set REC_OPT_ERRNO. */
#define REC_FN_RETURNS 1
#define REC_FN_DRAIN 2
#define REC_FN_ERRNO 4
#define REC_FN_ERRNO_ENTRY 8

/* The function table, indexed by the number the entry trampoline loads
 * (recarch.h).  PLAN: 0 or the address of a struct plan_op array ending
 * with PLAN_END, whose chunks take at most BOUND bytes, run at the
 * entry.  RPLAN, RBOUND: the same for the return plan, run at a hooked
 * return with the argument registers the entry had and the return
 * value's (plan.h, PLAN_ARG_RET0). */
struct rec_func {
	uint64_t target; /* where the call goes: the GOT slot's old value */
	uint64_t plan;
	uint32_t bound;
	uint32_t flags;
	uint64_t rplan;
	uint32_t rbound;
	uint32_t reserved; /* 0 */
};

/* A shadow stack entry: one hooked call of the thread, not returned. */
struct rec_shadow_entry {
	uint64_t ret;  /* the original return address */
	uint64_t sp;   /* the stack pointer at the entry */
	uint64_t call; /* the position of the call's record */
	uint32_t func;
	int32_t err_entry; /* errno at the entry, or REC_ERRNO_NONE */
	/* the argument registers at the entry, for the return plan; else
	 * not written */
	uint64_t args[6];
};

/* A thread's shadow stack: OWNER is its TCB (0: never used, REC_SHADOW_FREE: the
 * tracer freed it, after it zeroed STATE and PENDING).  Its shadow stack: STATE is the depth in the low 16
 * bits and a count of changes above them, so that a handler that ran in
 * between makes the interrupted push or pop start again; the
 * rec_shared.depth entries follow.  PENDING counts the thread's writers
 * between their reservation and their commit: more than one means a
 * signal handler interrupted one of them. */
struct rec_shadow {
	uint64_t owner;
	uint64_t state;
	uint64_t pending;
	uint64_t pad;
	struct rec_shadow_entry e[];
};
#define REC_SHADOW_FREE 1ull
#define rec_shadow_size(depth)       \
	(sizeof(struct rec_shadow) + \
	 (uint64_t)(depth) * sizeof(struct rec_shadow_entry))

/* A readable range of the program's memory: [lo, hi). */
struct rec_range {
	uint64_t lo;
	uint64_t hi;
};

/* rec_shared.options: REC_OPT_TSC, records carry rdtsc (else 0: the
 * tracer shows no time, no -t, -r, -T or -c).  REC_OPT_ERRNO: a
 * thread's errno is the int at its thread pointer plus ERRNO_OFF; the
 * tracer sets it once it knows libc's offset (ERRNO_OFF first), maybe
 * after functions were handed over (recarch.h, rec_errno). */
#define REC_OPT_TSC 1
#define REC_OPT_ERRNO 2
/* REC_OPT_STACK: return records end with a struct rec_stack of up to
 * STACK_COPY bytes of stack (-w). */
#define REC_OPT_STACK 4

/* At rec_blob_rw.  The tracer fills the configuration before any GOT
 * slot points at a trampoline (but REC_OPT_ERRNO, later); the recorder
 * only reads it. */
struct rec_shared {
	uint64_t magic;	  /* REC_MAGIC */
	uint32_t version; /* REC_VERSION */
	uint32_t nfunc;	  /* entries in the function table */
	uint64_t pid;	  /* for process_vm_readv; 0: getpid() */
	uint64_t ftab;	  /* address of struct rec_func[nfunc] */
	uint64_t shadow;  /* address of nshadow shadow stacks */
	uint32_t nshadow; /* shadow stacks (threads at once), a power of two */
	uint32_t depth;	  /* entries per shadow stack, < 65536 */
	uint64_t data;	  /* address of the ring's data */
	uint64_t size;	  /* the ring's data bytes, a power of two */
	/* The largest record, chunks included (<= size / 2). */
	uint64_t max_record;
	/* A stack pointer more than this above a shadow entry's is on
	 * another stack (a sigaltstack), not an unwinding of it. */
	uint64_t stack_span;
	uint64_t options; /* REC_OPT_* */
	uint64_t ranges;  /* address of struct rec_range[nrange_max] */
	uint64_t nrange_max;
	int64_t errno_off;   /* with REC_OPT_ERRNO */
	uint64_t stack_copy; /* with REC_OPT_STACK; the tracer may change it */

	/* Written by the recorder. */
	uint64_t head __attribute__((aligned(64)));
	/* Copies outside the readable ranges that process_vm_readv could
	 * make (some of it): the table misses a mapping.  Next to HEAD,
	 * which the tracer reads at every drain. */
	uint64_t range_misses;
	uint64_t records;    /* records committed, pads excluded */
	uint64_t full_traps; /* traps at rec_blob_trap_full */
	uint64_t unhooked;   /* wanted returns not hooked (REC_CALL_NOSHADOW) */
	uint64_t unwound;    /* shadow entries dropped as gone */
	uint64_t drains;     /* REC_FN_DRAIN traps at rec_blob_trap_full */
	uint64_t syncs;	     /* records handed over at rec_blob_trap_sync */
	uint64_t sync_seq;   /* the last synchronous record's number */

	/* Written by the tracer. */
	uint64_t tail __attribute__((aligned(64)));
	uint64_t range_seq; /* odd while the table is written */
	uint64_t nrange;    /* entries of the table in use */
	uint64_t pad2[5];
};

#endif
