/* The registers of a --fast record, as a ptrace stop would have shown
 * them (fastdrain.c formats records with the same fetch code): what the
 * record holds, the rest zero. */
#ifndef LTRACE_X86_64_RECREGS_H
#define LTRACE_X86_64_RECREGS_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <x86intrin.h>

#include "arch.h"
#include "recarch.h"
#include "recorder/ring.h"

/* No user mapping reaches this high (57-bit addresses at most): a
 * record's chunk of registers (the xmm chunk) is placed above it. */
#define RECREGS_USER_END (1ULL << 56)

/* The cycle counter the recorder stamps records with (recarch.h's
 * rec_tsc): the time stamp counter. */
static inline uint64_t recregs_cycles(void)
{
	return __rdtsc();
}

/* Whether that counter is constant and shared by the CPUs, so that two
 * points map it to CLOCK_MONOTONIC. */
static inline bool recregs_cycles_constant(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[4096];
	bool ok = false;
	while (f && !ok && fgets(line, sizeof(line), f))
		ok = !strncmp(line, "flags", 5) &&
		     strstr(line, " constant_tsc") &&
		     strstr(line, " nonstop_tsc");
	if (f)
		fclose(f);
	return ok;
}

/* The thread a record names: its TCB, %fs:0, which glibc keeps in the
 * FS base. */
static inline uint64_t recregs_thread(const struct arch_regs *a)
{
	return a->r.fs_base;
}

/* At PTRACE_EVENT_CLONE, registers A as the clone system call left
 * them: whether it gave the new thread a TLS pointer (CLONE_SETTLS),
 * into *TLS; clone3's arguments are read through READ. */
static inline bool recregs_clone_tls(const struct arch_regs *a, pid_t pid,
				     int (*read)(pid_t, uint64_t, uint64_t *),
				     uint64_t *tls)
{
	const uint64_t settls = 0x00080000; /* CLONE_SETTLS */
	uint64_t flags;
	if (a->r.orig_rax == 56) { /* clone(flags, stack, ptid, ctid, tls) */
		*tls = a->r.r8;
		return (a->r.rdi & settls) && *tls;
	}
	if (a->r.orig_rax != 435) /* clone3(struct clone_args *, size) */
		return false;
	/* flags at 0, tls at 56 (linux/sched.h) */
	return a->r.rsi >= 64 && read(pid, a->r.rdi, &flags) == 0 &&
	       (flags & settls) && read(pid, a->r.rdi + 56, tls) == 0 && *tls;
}

/* At the callee's first instruction: the argument registers, rax (the
 * number of vector registers of a variadic call), the stack pointer at
 * the return address, the IP at TARGET.  recregs_call_set writes only
 * those: A, zero at first, is used for nothing else (a memset of the
 * whole set per record cost more than the rest of the conversion). */
static inline void recregs_call_set(struct arch_regs *a,
				    const struct rec_call *c, uint64_t target)
{
	a->r.rdi = c->regs[REC_RDI];
	a->r.rsi = c->regs[REC_RSI];
	a->r.rdx = c->regs[REC_RDX];
	a->r.rcx = c->regs[REC_RCX];
	a->r.r8 = c->regs[REC_R8];
	a->r.r9 = c->regs[REC_R9];
	a->r.rax = c->regs[REC_RAX];
	a->r.rsp = c->sp;
	a->r.rip = target;
}

/* Just after the return: rax, rdx, the stack pointer, the IP at the
 * site returned to.  recregs_return_set writes only those, as
 * recregs_call_set. */
static inline void recregs_return_set(struct arch_regs *a,
				      const struct rec_return *r)
{
	a->r.rax = r->ret[0];
	a->r.rdx = r->ret[1];
	a->r.rsp = r->sp;
	a->r.rip = r->site;
}

static inline void recregs_return(struct arch_regs *a,
				  const struct rec_return *r)
{
	memset(a, 0, sizeof(*a));
	recregs_return_set(a, r);
}

/* With -w, the caller's registers that a return's struct rec_stack
 * holds (the callee kept them), on top of recregs_return's. */
static inline void recregs_stack(struct arch_regs *a, const struct rec_stack *k)
{
	a->r.rbx = k->kept[REC_K_RBX];
	a->r.rbp = k->kept[REC_K_RBP];
	a->r.r12 = k->kept[REC_K_R12];
	a->r.r13 = k->kept[REC_K_R13];
	a->r.r14 = k->kept[REC_K_R14];
	a->r.r15 = k->kept[REC_K_R15];
}

/* A thread taken out of the recorder's return path (rec_return) with
 * no shadow entry: rax and rdx as rec_return saved them, SAVED[2] from
 * recregs_lost_saved(SP); the stack pointer and IP as after the return
 * of the call whose stack pointer at entry was SP, to RET. */
#define recregs_lost_saved(sp) ((sp) - (REC_RFRAME_SIZE - 8))
/* The stack pointer after the return of a call whose stack pointer at
 * entry was SP (ret pops the return address). */
#define recregs_sp_after_return(sp) ((sp) + 8)
static inline void recregs_lost_return(struct arch_regs *a,
				       const uint64_t saved[2], uint64_t sp,
				       uint64_t ret)
{
	a->r.rax = saved[0];
	a->r.rdx = saved[1];
	a->r.rsp = recregs_sp_after_return(sp);
	a->r.rip = ret;
}

/* The trap instruction the recorder's code is filled with and the
 * tracer puts on its ways out (int3), and how far past it the IP of its
 * SIGTRAP is. */
#define RECREGS_TRAP 0xcc
#define RECREGS_TRAP_LEN 1

/* At one of the blob's traps (recblob.h): the address it passes (rdi). */
static inline uint64_t recregs_trap_arg(const struct arch_regs *a)
{
	return a->r.rdi;
}

/* Past a way out of the recorder, trapped: where it goes.  rec_entry's
 * is a jmp *%r11; rec_return's (THROUGH_STACK) a jmp *-8(%rsp), whose
 * word the caller reads at recregs_exit_word. */
static inline uint64_t recregs_exit_target(const struct arch_regs *a)
{
	return a->r.r11;
}

static inline uint64_t recregs_exit_word(const struct arch_regs *a)
{
	return a->r.rsp - 8;
}

/* The recorder's copy instruction (rec_copy, recblob.h's
 * rec_blob_copy_insn): rep movsb, which copies LEN bytes from SRC to DST
 * and leaves each register as far as it got. */
static const unsigned char recregs_copy_insn[2] = { 0xf3, 0xa4 };
struct recregs_copy {
	uint64_t dst, src, len;
};

static inline void recregs_copy_get(const struct arch_regs *a,
				    struct recregs_copy *c)
{
	c->dst = a->r.rdi;
	c->src = a->r.rsi;
	c->len = a->r.rcx;
}

static inline void recregs_copy_set(struct arch_regs *a,
				    const struct recregs_copy *c)
{
	a->r.rdi = c->dst;
	a->r.rsi = c->src;
	a->r.rcx = c->len;
}

/* xmm0..7 (128 bytes, XMM) into F, the rest zero. */
static inline void recregs_fpr(struct arch_fpregs *f, const void *xmm,
			       size_t len)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->f.xmm_space, xmm, len);
}

#endif
