/* The registers of a --fast record, as a ptrace stop would have shown
 * them (fastdrain.c formats records with the same fetch code): what the
 * record holds, the rest zero. */
#ifndef LTRACE_X86_64_RECREGS_H
#define LTRACE_X86_64_RECREGS_H

#include <stdbool.h>
#include <string.h>
#include <sys/types.h>

#include "arch.h"
#include "recorder/ring.h"

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
 * the return address, the IP at TARGET. */
static inline void recregs_call(struct arch_regs *a, const struct rec_call *c,
				uint64_t target)
{
	memset(a, 0, sizeof(*a));
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
 * site returned to. */
static inline void recregs_return(struct arch_regs *a,
				  const struct rec_return *r)
{
	memset(a, 0, sizeof(*a));
	a->r.rax = r->rax;
	a->r.rdx = r->rdx;
	a->r.rsp = r->sp;
	a->r.rip = r->site;
}

/* xmm0..7 (128 bytes, XMM) into F, the rest zero. */
static inline void recregs_xmm(struct arch_fpregs *f, const void *xmm,
			       size_t len)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->f.xmm_space, xmm, len);
}

#endif
