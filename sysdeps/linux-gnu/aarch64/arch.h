/* aarch64 facts of the Linux backend's ptrace mode, under the names every
 * architecture provides (x86_64/arch.h says what each means). */
#ifndef LTRACE_ARCH_H
#define LTRACE_ARCH_H

#include <elf.h>
#include <linux/audit.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>

/* The name of the architecture in file names (etc/syscalls-ARCH.conf),
 * as configure's $host_cpu spells it. */
#define ARCH_NAME "aarch64"

/* BRK #0 (0xd4200000, little-endian).  Its trap is a SIGTRAP of si_code
 * TRAP_BRKPT with the PC still on the BRK. */
#define ARCH_BREAKPOINT                \
	{                              \
		0x00, 0x00, 0x20, 0xd4 \
	}
#define ARCH_BREAKPOINT_LEN 4
#define ARCH_BREAKPOINT_SI_CODE TRAP_BRKPT
#define ARCH_DECR_PC_AFTER_BREAK 0
/* "svc #0; brk #0": the number in x8, the arguments in x0-x5, the
 * result in x0. */
#define ARCH_SYSCALL_INSN                                      \
	{                                                      \
		0x01, 0x00, 0x00, 0xd4, 0x00, 0x00, 0x20, 0xd4 \
	}
#define ARCH_SYSCALL_INSN_LEN 8
#define ARCH_MAX_INSN 4
/* A displaced copy comes back with a B: +-128 MiB. */
#define ARCH_SCRATCH_REACH (1UL << 27)

/* The link register, the intra-procedure-call scratch registers a stub
 * leaves its GOT slot's address and value in. */
#define ARCH_LR 30
#define ARCH_IP0 16
#define ARCH_IP1 17

/* fetch.c reads the first members as struct user_regs_struct and
 * struct user_fpsimd_struct. */
struct arch_regs {
	struct user_regs_struct r;
};

struct arch_fpregs {
	struct user_fpsimd_struct f;
};

/* No PTRACE_GETREGS here: the register sets, through an iovec. */
#define ARCH_GETREGS_REQUEST "PTRACE_GETREGSET NT_PRSTATUS"
#define ARCH_SETREGS_REQUEST "PTRACE_SETREGSET NT_PRSTATUS"
#define ARCH_GETFPREGS_REQUEST "PTRACE_GETREGSET NT_FPREGSET"

static inline long arch_get_regs(pid_t tid, struct arch_regs *a)
{
	struct iovec io = { &a->r, sizeof(a->r) };
	return ptrace(PTRACE_GETREGSET, tid, (void *)NT_PRSTATUS, &io);
}

static inline long arch_set_regs(pid_t tid, const struct arch_regs *a)
{
	struct iovec io = { (void *)&a->r, sizeof(a->r) };
	return ptrace(PTRACE_SETREGSET, tid, (void *)NT_PRSTATUS, &io);
}

static inline long arch_get_fpregs(pid_t tid, struct arch_fpregs *f)
{
	struct iovec io = { &f->f, sizeof(f->f) };
	return ptrace(PTRACE_GETREGSET, tid, (void *)NT_FPREGSET, &io);
}

/* The thread pointer of thread TID: TPIDR_EL0, its own register set
 * (NT_ARM_TLS), not among A's. */
static inline bool arch_thread_pointer(pid_t tid, const struct arch_regs *a,
				       uint64_t *tp)
{
	(void)a;
	struct iovec io = { tp, sizeof(*tp) };
	return ptrace(PTRACE_GETREGSET, tid, (void *)NT_ARM_TLS, &io) == 0 &&
	       io.iov_len == sizeof(*tp) && *tp != 0;
}

static inline uint64_t arch_ip(const struct arch_regs *a)
{
	return a->r.pc;
}

static inline void arch_set_ip(struct arch_regs *a, uint64_t ip)
{
	a->r.pc = ip;
}

static inline uint64_t arch_sp(const struct arch_regs *a)
{
	return a->r.sp;
}

/* "bl" and "blr" leave the return address in x30. */
static inline bool arch_return_addr(const struct arch_regs *a, uint64_t *ret,
				    uint64_t *slot)
{
	*ret = a->r.regs[ARCH_LR];
	*slot = 0;
	return true;
}

/* "ret" does not move the stack pointer. */
static inline uint64_t arch_sp_after_return(const struct arch_regs *a)
{
	return a->r.sp;
}

/* "bl": x30 = RET; nothing to write. */
static inline uint64_t arch_push_return(struct arch_regs *a, uint64_t ret)
{
	a->r.regs[ARCH_LR] = ret;
	return 0;
}

/* "blr xN" (a call) sets x30 to the site's end RET; "br xN" (a tail
 * call) leaves the caller's. */
static inline void arch_site_callee(struct arch_regs *a, bool jump,
				    uint64_t ret)
{
	if (!jump)
		a->r.regs[ARCH_LR] = ret;
}

/* "adrp x16, page; ldr x17, [x16, #off]; add x16, x16, #off; br x17":
 * the lazy binding code (PLT0) finds the slot in x16. */
static inline void arch_stub_jump(struct arch_regs *a, uint64_t got,
				  uint64_t target)
{
	a->r.regs[ARCH_IP0] = got;
	a->r.regs[ARCH_IP1] = target;
}

/* "yield". */
static inline void arch_spin_pause(void)
{
	__asm__ __volatile__("yield");
}

/* x0-x7. */
#define ARCH_INT_ARGS 8

static inline unsigned arch_int_args(const struct arch_regs *a, uint64_t *out)
{
	for (unsigned i = 0; i < ARCH_INT_ARGS; i++)
		out[i] = a->r.regs[i];
	return ARCH_INT_ARGS;
}

#define ARCH_CALL_WINDOW 4

/* The instruction before a return address: "bl imm26" (100101 imm26),
 * "blr xN" (d63f0000 | N << 5), or with pointer authentication
 * "blraa", "blrab", "blraaz", "blrabz" (d63f0800 or d73f0800, M in bit
 * 10, Rn and Rm or 11111 in the low ten bits). */
static inline bool arch_follows_call(const uint8_t *b)
{
	uint32_t insn = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
			(uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return (insn & 0xfc000000u) == 0x94000000u ||
	       (insn & 0xfffffc1fu) == 0xd63f0000u ||
	       (insn & 0xfefff800u) == 0xd63f0800u;
}

static inline uint64_t arch_retval(const struct arch_regs *a)
{
	return a->r.regs[0];
}

#define ARCH_SYSCALL_AUDIT AUDIT_ARCH_AARCH64

/* A system call's arguments are in x0-x5 as a function's. */
static inline void arch_syscall_callee(struct arch_regs *a,
				       const uint64_t args[6], uint64_t sp,
				       uint64_t ip)
{
	memset(a, 0, sizeof(*a));
	for (unsigned i = 0; i < 6; i++)
		a->r.regs[i] = args[i];
	a->r.sp = sp;
	a->r.pc = ip;
}

static inline void arch_set_retval(struct arch_regs *a, uint64_t v)
{
	a->r.regs[0] = v;
}

/* The number in x8.  No syscall number to clear as x86_64's orig_rax:
 * a system call the stop interrupted restarts by its PC, back on its
 * svc, which the saved registers put back. */
static inline void arch_setup_syscall(struct arch_regs *a, uint64_t ip, long nr,
				      const long args[6])
{
	a->r.pc = ip;
	a->r.regs[8] = (uint64_t)nr;
	for (unsigned i = 0; i < 6; i++)
		a->r.regs[i] = (uint64_t)args[i];
}

#endif
