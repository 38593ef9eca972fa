/* x86_64 facts of the Linux backend's ptrace mode: registers, the
 * breakpoint instruction, where a call leaves its return address, the
 * injected system call.  Every architecture provides the same names in
 * its own folder (sysdeps/linux-gnu/<arch>/arch.h), which configure puts
 * on the include path; generic code includes "arch.h" and never names a
 * register. */
#ifndef LTRACE_ARCH_H
#define LTRACE_ARCH_H

#include <signal.h>
#include <stdbool.h>
#include <linux/audit.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>

/* The name of the architecture in file names (etc/syscalls-ARCH.conf),
 * as configure's $host_cpu spells it. */
#define ARCH_NAME "x86_64"

/* The breakpoint instruction (an initializer of ARCH_BREAKPOINT_LEN
 * bytes, at most BPT_INSN_MAX): int3.  The kernel reports its trap as a
 * SIGTRAP of si_code ARCH_BREAKPOINT_SI_CODE with the IP
 * ARCH_DECR_PC_AFTER_BREAK bytes past the breakpoint's address. */
#define ARCH_BREAKPOINT \
	{               \
		0xcc    \
	}
#define ARCH_BREAKPOINT_LEN 1
#define ARCH_BREAKPOINT_SI_CODE SI_KERNEL
#define ARCH_DECR_PC_AFTER_BREAK 1
/* "syscall; int3": what an injected system call runs.  It ends with the
 * breakpoint instruction, whose trap says the call is done. */
#define ARCH_SYSCALL_INSN        \
	{                        \
		0x0f, 0x05, 0xcc \
	}
#define ARCH_SYSCALL_INSN_LEN 3
/* The longest instruction, in bytes. */
#define ARCH_MAX_INSN 15
/* How far from the code it runs for a displaced copy in scratch memory
 * may be: its jump back is a rel32. */
#define ARCH_SCRATCH_REACH (1UL << 31)

struct arch_regs {
	struct user_regs_struct r;
};

struct arch_fpregs {
	struct user_fpregs_struct f;
};

/* Reading and writing the registers of the stopped thread TID: what
 * ptrace returns (-1 with errno on failure).  ARCH_*_REQUEST name the
 * requests for error messages. */
#define ARCH_GETREGS_REQUEST "PTRACE_GETREGS"
#define ARCH_SETREGS_REQUEST "PTRACE_SETREGS"
#define ARCH_GETFPREGS_REQUEST "PTRACE_GETFPREGS"

static inline long arch_get_regs(pid_t tid, struct arch_regs *a)
{
	return ptrace(PTRACE_GETREGS, tid, NULL, &a->r);
}

static inline long arch_set_regs(pid_t tid, const struct arch_regs *a)
{
	return ptrace(PTRACE_SETREGS, tid, NULL, &a->r);
}

static inline long arch_get_fpregs(pid_t tid, struct arch_fpregs *f)
{
	return ptrace(PTRACE_GETFPREGS, tid, NULL, &f->f);
}

/* The thread pointer of the thread whose registers are A (TID): %fs's
 * base, which the TLS variant II of the psABI puts the TCB at. */
static inline bool arch_thread_pointer(pid_t tid, const struct arch_regs *a,
				       uint64_t *tp)
{
	(void)tid;
	*tp = a->r.fs_base;
	return *tp != 0;
}

static inline uint64_t arch_ip(const struct arch_regs *a)
{
	return a->r.rip;
}

static inline void arch_set_ip(struct arch_regs *a, uint64_t ip)
{
	a->r.rip = ip;
}

static inline uint64_t arch_sp(const struct arch_regs *a)
{
	return a->r.rsp;
}

/* At the first instruction of a called function: where its return
 * address is.  True with *RET set when a register holds it; else false
 * with *WORD the address of the memory word that holds it ("call"
 * pushed it at [rsp]), for the caller to read (and prefetch). */
static inline bool arch_return_addr(const struct arch_regs *a, uint64_t *ret,
				    uint64_t *word)
{
	(void)ret;
	*word = a->r.rsp;
	return false;
}

/* At the first instruction of a called function: the stack pointer the
 * caller has once the function has returned ("ret" pops the address). */
static inline uint64_t arch_sp_after_return(const struct arch_regs *a)
{
	return a->r.rsp + sizeof(uint64_t);
}

/* Do with the return address RET what a call does, the jump aside:
 * returns the address of the memory word the caller must write RET to
 * ("call" pushes it: rsp -= 8), or 0 when it went into a register. */
static inline uint64_t arch_push_return(struct arch_regs *a, uint64_t ret)
{
	(void)ret;
	a->r.rsp -= sizeof(uint64_t);
	return a->r.rsp;
}

/* At a call site through memory with no stub (-fno-plt), whose
 * instruction is about to run displaced: make REGS what the callee will
 * see at its first instruction, but for the IP and memory.  A call
 * (!JUMP) counts as having pushed its return address RET (RSP -= 8; the
 * stack word is not written: the caller knows the address, the site's end); a
 * jump (a tail call) changes nothing, the return address being the
 * caller's.  Afterwards arch_return_addr() and arch_sp_after_return()
 * hold as at a stub, and fetch finds the stack arguments. */
static inline void arch_site_callee(struct arch_regs *a, bool jump,
				    uint64_t ret)
{
	(void)ret;
	if (!jump)
		a->r.rsp -= sizeof(uint64_t);
}

/* At a stub's breakpoint, its jump through the GOT slot at GOT to
 * TARGET emulated: the registers the stub leaves, the IP aside, as the
 * lazy binding code it may jump to needs them.  "jmp *GOT(%rip)"
 * leaves none. */
static inline void arch_stub_jump(struct arch_regs *a, uint64_t got,
				  uint64_t target)
{
	(void)a;
	(void)got;
	(void)target;
}

/* One turn of a busy-wait loop (warm.c): "pause". */
static inline void arch_spin_pause(void)
{
	__builtin_ia32_pause();
}

/* The integer argument registers, for prefetching what they point at:
 * arch_int_args fills ARCH_INT_ARGS values and returns that count. */
#define ARCH_INT_ARGS 6

static inline unsigned arch_int_args(const struct arch_regs *a, uint64_t *out)
{
	out[0] = a->r.rdi;
	out[1] = a->r.rsi;
	out[2] = a->r.rdx;
	out[3] = a->r.rcx;
	out[4] = a->r.r8;
	out[5] = a->r.r9;
	return 6;
}

/* How many bytes before an address arch_follows_call looks at. */
#define ARCH_CALL_WINDOW 8

/* The length of an instruction "ff /2" (call near, indirect) whose
 * ModRM byte is MODRM and SIB byte (if any) SIB, opcode included. */
static inline unsigned arch_call_ind_len(uint8_t modrm, uint8_t sib)
{
	unsigned mod = modrm >> 6;
	unsigned rm = modrm & 7;
	if (mod == 3)
		return 2;
	if (mod == 0)
		return rm == 5 ? 6 : rm != 4 ? 2 : (sib & 7) == 5 ? 7 : 3;
	return (mod == 1 ? 3 : 6) + (rm == 4);
}

/* Whether the ARCH_CALL_WINDOW bytes B that end at an address end with
 * a call instruction, so that the address can be a return address:
 * "call rel32" (e8), or "call *r/m" (ff /2) of the length its ModRM
 * byte says (a REX prefix may precede it). */
static inline bool arch_follows_call(const uint8_t *b)
{
	if (b[ARCH_CALL_WINDOW - 5] == 0xe8)
		return true;
	for (unsigned len = 2; len <= 7; len++) {
		const uint8_t *insn = b + ARCH_CALL_WINDOW - len;
		if (insn[0] == 0xff && ((insn[1] >> 3) & 7) == 2 &&
		    arch_call_ind_len(insn[1], len > 2 ? insn[2] : 0) == len)
			return true;
	}
	return false;
}

static inline uint64_t arch_retval(const struct arch_regs *a)
{
	return a->r.rax;
}

/* System calls (-S): the AUDIT_ARCH_* value PTRACE_GET_SYSCALL_INFO
 * reports for the native ABI, whose numbers syscallnames.h names (an
 * "int $0x80" from a 64-bit program reports AUDIT_ARCH_I386, other
 * numbers). */
#define ARCH_SYSCALL_AUDIT AUDIT_ARCH_X86_64

/* Registers that give a system call's arguments ARGS to fetch.c as a
 * function's: the syscall ABI passes them in rdi, rsi, rdx, r10, r8, r9,
 * a function in rdi, rsi, rdx, rcx, r8, r9, so the fourth goes into
 * rcx.  No argument is on the stack.  SP and IP: the task's. */
static inline void arch_syscall_callee(struct arch_regs *a,
				       const uint64_t args[6], uint64_t sp,
				       uint64_t ip)
{
	memset(a, 0, sizeof(*a));
	a->r.rdi = args[0];
	a->r.rsi = args[1];
	a->r.rdx = args[2];
	a->r.rcx = args[3];
	a->r.r8 = args[4];
	a->r.r9 = args[5];
	a->r.rsp = sp;
	a->r.rip = ip;
}

/* The return value register, as a function's return leaves it. */
static inline void arch_set_retval(struct arch_regs *a, uint64_t v)
{
	a->r.rax = v;
}

/* Set up an injected system call NR(ARGS) to run at IP. */
static inline void arch_setup_syscall(struct arch_regs *a, uint64_t ip, long nr,
				      const long args[6])
{
	a->r.rip = ip;
	a->r.rax = nr;
	a->r.orig_rax = -1;
	a->r.rdi = args[0];
	a->r.rsi = args[1];
	a->r.rdx = args[2];
	a->r.r10 = args[3];
	a->r.r8 = args[4];
	a->r.r9 = args[5];
}

#endif
