/* The x86_64 registers a --fast call record holds (recorder/ring.h,
 * rec_call.regs): the integer argument registers in the psABI's order,
 * then rax, the number of vector registers a variadic call uses. */
#ifndef LTRACE_X86_64_RECRING_H
#define LTRACE_X86_64_RECRING_H

enum rec_reg {
	REC_RDI,
	REC_RSI,
	REC_RDX,
	REC_RCX,
	REC_R8,
	REC_R9,
	REC_RAX,
	REC_NREGS,
};

/* The registers a callee keeps for its caller (psABI), in a return's
 * struct rec_stack (-w): what unwinding the caller's frames needs but
 * the stack pointer and the IP. */
enum rec_kept {
	REC_K_RBX,
	REC_K_RBP,
	REC_K_R12,
	REC_K_R13,
	REC_K_R14,
	REC_K_R15,
	REC_NKEPT,
};

#endif
