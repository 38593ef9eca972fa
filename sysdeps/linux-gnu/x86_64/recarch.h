/* The x86-64 half of the --fast recorder blob (issue 12): the frames the
 * trampolines of recentry.S build for the C code, and the few
 * instructions C cannot say (raw system calls, rdtsc, the TCB, a
 * compare-and-swap that only needs to be atomic against a signal on the
 * same thread).  Included by recentry.S (the offsets) and by
 * recorder/recorder.c; freestanding. */
#ifndef LTRACE_X86_64_RECARCH_H
#define LTRACE_X86_64_RECARCH_H

/* struct rec_frame, built by rec_entry below the return address: the
 * general registers a call may pass something in (rdi rsi rdx rcx r8 r9,
 * rax for varargs, r10 the static chain, r11 the function index), then
 * xmm0..xmm7.  Its size keeps the stack 16-byte aligned at the call into
 * C (the entry's rsp is 8 mod 16). */
#define REC_FRAME_XMM 80
#define REC_FRAME_SIZE 216
/* struct rec_rframe, built by rec_return: rax, rdx, xmm0, the other
 * caller-saved general registers (a -fipa-ra caller of a -x function
 * counts on them), the registers the callee kept (rbx, rbp, r12..r15:
 * the caller's, for -w's unwinding), and the return address's word. */
#define REC_RFRAME_RET 0
#define REC_RFRAME_XMM0 16
#define REC_RFRAME_KEEP 32
#define REC_RFRAME_KEPT 88
#define REC_RFRAME_SIZE 144

#ifndef __ASSEMBLER__
#include <stdint.h>

#include <asm/unistd.h>

#include "recring.h"

enum rec_gpr {
	REC_G_RDI,
	REC_G_RSI,
	REC_G_RDX,
	REC_G_RCX,
	REC_G_R8,
	REC_G_R9,
	REC_G_RAX,
	REC_G_R10,
	REC_G_R11,
	REC_G_PAD,
	REC_G_N,
};

struct rec_frame {
	uint64_t gpr[REC_G_N];
	uint8_t fpr[8][16]; /* xmm0..7 */
	uint64_t pad;
	/* Then the call's return address: the stack pointer at its entry. */
};
_Static_assert(sizeof(struct rec_frame) == REC_FRAME_SIZE, "rec_frame");
_Static_assert(__builtin_offsetof(struct rec_frame, fpr) == REC_FRAME_XMM,
	       "rec_frame.fpr");

struct rec_rframe {
	uint64_t ret[2];	  /* rax, rdx */
	uint8_t fret[16];	  /* xmm0 */
	uint64_t keep[7];	  /* rcx rsi rdi r8 r9 r10 r11 */
	uint64_t kept[REC_NKEPT]; /* rbx rbp r12 r13 r14 r15 (recring.h) */
	uint64_t to; /* the entry's stack pointer: where to return */
	/* Then the stack pointer after the return, one word above the
	 * entry's. */
};
_Static_assert(__builtin_offsetof(struct rec_rframe, keep) == REC_RFRAME_KEEP,
	       "rec_rframe.keep");
_Static_assert(sizeof(struct rec_rframe) == REC_RFRAME_SIZE, "rec_rframe");
_Static_assert(__builtin_offsetof(struct rec_rframe, ret) == REC_RFRAME_RET,
	       "rec_rframe.ret");
_Static_assert(__builtin_offsetof(struct rec_rframe, fret) == REC_RFRAME_XMM0,
	       "rec_rframe.fret");
_Static_assert(__builtin_offsetof(struct rec_rframe, kept) == REC_RFRAME_KEPT,
	       "rec_rframe.kept");

/* The entry's stack pointer: where the return address was. */
static inline uint64_t rec_frame_sp(const struct rec_frame *f)
{
	return (uint64_t)(f + 1);
}

static inline uint64_t rec_rframe_sp(const struct rec_rframe *f)
{
	return (uint64_t)(f + 1) - 8;
}

/* The thread: its TCB's self pointer (glibc and musl keep it at %fs:0). */
static inline uint64_t rec_thread(void)
{
	uint64_t v;
	__asm__ volatile("mov %%fs:0, %0" : "=r"(v));
	return v;
}

/* The thread's errno: the int OFF bytes from its thread pointer, %fs's
 * base (libc's TLS offset of it, ring.h's errno_off); one load. */
static inline int32_t rec_errno(int64_t off)
{
	int32_t v;
	__asm__ volatile("movl %%fs:(%1), %0" : "=r"(v) : "r"(off));
	return v;
}

static inline uint64_t rec_tsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

/* A system call: it clobbers rcx and r11 only (and no vector register). */
static inline long rec_syscall6(long nr, long a, long b, long c, long d, long e,
				long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8),
			   "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/* *P from OLD to NEW if it still holds OLD, atomically against a signal
 * handler of this thread (one instruction, no lock prefix: the word is
 * the thread's own). */
static inline int rec_local_cas(uint64_t *p, uint64_t old, uint64_t new)
{
	int ok;
	__asm__ volatile("cmpxchgq %3, %1"
			 : "=@ccz"(ok), "+m"(*p), "+a"(old)
			 : "r"(new)
			 : "memory");
	return ok;
}

#define REC_SYS_GETPID __NR_getpid
#define REC_SYS_VM_READV __NR_process_vm_readv
#endif

#endif
