/* The --fast recorder's trampolines (issue 12; DESIGN.md, "The
 * recorder").  Part of the blob: position-independent, no relocation.
 *
 * A function's entry trampoline, written by the tracer (rectramp.c),
 * loads the function's index into r11 (free at a call's entry in the
 * psABI) and jumps to rec_entry, with the call's return address on top
 * of the stack.  rec_entry saves what the call passes, has rec_enter
 * record it and pick the target, restores every argument register as it
 * was and jumps to the target.  The C code uses no vector register
 * (-mgeneral-regs-only) and its system calls clobber only rcx and r11,
 * so xmm0..xmm7 are saved for the plan's PLAN_XMM only.
 *
 * rec_return is where a hooked call returns: rax, rdx, xmm0 and xmm1
 * (and st0) hold the value; rec_leave records it and gives the original
 * return address, to which it jumps with every general register intact. */
#include "recarch.h"

/* struct rec_frame's argument registers (recarch.h): rdi rsi rdx rcx r8
 * r9 rax r10 at 0..56 (r11's slot, 64, is each entry's own), and
 * xmm0..xmm7 at REC_FRAME_XMM. */
.macro SAVE_ARGS
	mov	%rdi, 0(%rsp)
	mov	%rsi, 8(%rsp)
	mov	%rdx, 16(%rsp)
	mov	%rcx, 24(%rsp)
	mov	%r8, 32(%rsp)
	mov	%r9, 40(%rsp)
	mov	%rax, 48(%rsp)
	mov	%r10, 56(%rsp)
.endm

.macro SAVE_XMM
	movdqu	%xmm0, REC_FRAME_XMM + 0(%rsp)
	movdqu	%xmm1, REC_FRAME_XMM + 16(%rsp)
	movdqu	%xmm2, REC_FRAME_XMM + 32(%rsp)
	movdqu	%xmm3, REC_FRAME_XMM + 48(%rsp)
	movdqu	%xmm4, REC_FRAME_XMM + 64(%rsp)
	movdqu	%xmm5, REC_FRAME_XMM + 80(%rsp)
	movdqu	%xmm6, REC_FRAME_XMM + 96(%rsp)
	movdqu	%xmm7, REC_FRAME_XMM + 112(%rsp)
.endm

.macro RESTORE_ARGS
	mov	0(%rsp), %rdi
	mov	8(%rsp), %rsi
	mov	16(%rsp), %rdx
	mov	24(%rsp), %rcx
	mov	32(%rsp), %r8
	mov	40(%rsp), %r9
	mov	48(%rsp), %rax
	mov	56(%rsp), %r10
.endm

	.text
	.globl	rec_entry
	.hidden	rec_entry
	.type	rec_entry, @function
	.p2align 4
rec_entry:
	sub	$REC_FRAME_SIZE, %rsp
	SAVE_ARGS
	mov	%r11, 64(%rsp)
	SAVE_XMM
	mov	%rsp, %rdi
	call	rec_enter
	mov	%rax, %r11
	RESTORE_ARGS
	add	$REC_FRAME_SIZE, %rsp
	/* The way out, to the target (the tracer may put an int3 here for
	 * a moment: fasttrap.c, fast_leave). */
	.globl	rec_entry_exit
	.hidden	rec_entry_exit
rec_entry_exit:
	jmp	*%r11
	.size	rec_entry, . - rec_entry

/* rec_xentry: the way in of a function whose entry is patched (-x;
 * fastentry.c): its entry cell pushed the function's index over the
 * return address and jumped here.  That word becomes the frame's last
 * (struct rec_frame's pad, just below the return address); the index
 * goes where rec_enter reads it (r11's slot), r11 into the spare slot.
 * A program-internal callee may have callers built with -fipa-ra that
 * keep values in the caller-saved registers it does not touch: every
 * general register is put back, and the jump to the target (the
 * relocated prologue) goes through the stack (the index's word, in the
 * red zone, which signal delivery skips), as rec_return's does. */
	.globl	rec_xentry
	.hidden	rec_xentry
	.type	rec_xentry, @function
	.p2align 4
rec_xentry:
	sub	$REC_FRAME_SIZE - 8, %rsp
	SAVE_ARGS
	mov	%r11, 72(%rsp)
	mov	REC_FRAME_SIZE - 8(%rsp), %r11
	mov	%r11, 64(%rsp)
	SAVE_XMM
	mov	%rsp, %rdi
	call	rec_enter
	mov	%rax, REC_FRAME_SIZE - 8(%rsp)
	RESTORE_ARGS
	mov	72(%rsp), %r11
	lea	REC_FRAME_SIZE(%rsp), %rsp
	jmp	rec_return_exit
	.size	rec_xentry, . - rec_xentry

	.globl	rec_return
	.hidden	rec_return
	.type	rec_return, @function
	.p2align 4
rec_return:
	sub	$REC_RFRAME_SIZE, %rsp
	mov	%rax, REC_RFRAME_RET + 0(%rsp)
	mov	%rdx, REC_RFRAME_RET + 8(%rsp)
	movdqu	%xmm0, REC_RFRAME_XMM0(%rsp)
	mov	%rcx, REC_RFRAME_KEEP + 0(%rsp)
	mov	%rsi, REC_RFRAME_KEEP + 8(%rsp)
	mov	%rdi, REC_RFRAME_KEEP + 16(%rsp)
	mov	%r8, REC_RFRAME_KEEP + 24(%rsp)
	mov	%r9, REC_RFRAME_KEEP + 32(%rsp)
	mov	%r10, REC_RFRAME_KEEP + 40(%rsp)
	mov	%r11, REC_RFRAME_KEEP + 48(%rsp)
	/* The caller's kept registers, as the callee restored them: for
	 * -w's unwinding (rec_leave's C code saves its own). */
	mov	%rbx, REC_RFRAME_KEPT + 0(%rsp)
	mov	%rbp, REC_RFRAME_KEPT + 8(%rsp)
	mov	%r12, REC_RFRAME_KEPT + 16(%rsp)
	mov	%r13, REC_RFRAME_KEPT + 24(%rsp)
	mov	%r14, REC_RFRAME_KEPT + 32(%rsp)
	mov	%r15, REC_RFRAME_KEPT + 40(%rsp)
	mov	%rsp, %rdi
	call	rec_leave
	test	%rax, %rax
	jz	1f
	/* The original return address, back in its own word (the frame's
	 * last); every general register as the callee left it (-fipa-ra
	 * callers, as for rec_xentry). */
	mov	%rax, REC_RFRAME_SIZE - 8(%rsp)
	mov	REC_RFRAME_RET + 0(%rsp), %rax
	mov	REC_RFRAME_RET + 8(%rsp), %rdx
	mov	REC_RFRAME_KEEP + 0(%rsp), %rcx
	mov	REC_RFRAME_KEEP + 8(%rsp), %rsi
	mov	REC_RFRAME_KEEP + 16(%rsp), %rdi
	mov	REC_RFRAME_KEEP + 24(%rsp), %r8
	mov	REC_RFRAME_KEEP + 32(%rsp), %r9
	mov	REC_RFRAME_KEEP + 40(%rsp), %r10
	mov	REC_RFRAME_KEEP + 48(%rsp), %r11
	lea	REC_RFRAME_SIZE(%rsp), %rsp
	/* The way out through the stack, to the caller, and rec_xentry's
	 * to the function (the tracer may put an int3 here for a moment,
	 * as on rec_entry_exit; the target is the word below rsp). */
	.globl	rec_return_exit
	.hidden	rec_return_exit
rec_return_exit:
	jmp	*-8(%rsp)
	/* No shadow entry: trap with the entry's stack pointer in rdi,
	 * here and not inside rec_leave, whose registers are gone now:
	 * the tracer resumes the thread at the call's site, and every
	 * register the callee keeps (rbx, rbp, r12..r15) must be the
	 * program's. */
1:	lea	REC_RFRAME_SIZE - 8(%rsp), %rdi
	jmp	rec_trap_lost
	.size	rec_return, . - rec_return

/* uint64_t rec_copy(void *dst, const void *src, uint64_t n): copy N
 * bytes of the program's memory that the readable ranges' table says
 * can be read (ring.h); returns the bytes copied.  Should SRC fault all
 * the same (unmapped since the tracer read /proc/PID/maps), the thread
 * stops with SIGSEGV or SIGBUS at rec_copy_insn, and the tracer resumes
 * it at rec_copy_fixup: a rep movsb stopped by a fault has copied
 * n - rcx bytes (the registers say how far it got), which is the
 * return.  rdx keeps N; the psABI has the direction flag clear. */
	.globl	rec_copy
	.hidden	rec_copy
	.type	rec_copy, @function
	.p2align 4
rec_copy:
	mov	%rdx, %rcx
	.globl	rec_copy_insn
	.hidden	rec_copy_insn
rec_copy_insn:
	rep movsb
	mov	%rdx, %rax
	ret
	.globl	rec_copy_fixup
	.hidden	rec_copy_fixup
rec_copy_fixup:
	mov	%rdx, %rax
	sub	%rcx, %rax
	ret
	.size	rec_copy, . - rec_copy

/* The ring is full: the tracer drains it at this SIGTRAP (the IP is
 * rec_trap_full + 1) and resumes; the writer then tries again. */
	.globl	rec_trap_full
	.hidden	rec_trap_full
	.type	rec_trap_full, @function
	.p2align 4
rec_trap_full:
	int3
	ret
	.size	rec_trap_full, . - rec_trap_full

/* A record the ring had no room for, written by a signal handler that
 * interrupted a writer of its own thread (ring.h): rdi is its address.
 * The tracer drains the ring, reads it, and resumes the thread. */
	.globl	rec_trap_sync
	.hidden	rec_trap_sync
	.type	rec_trap_sync, @function
	.p2align 4
rec_trap_sync:
	int3
	ret
	.size	rec_trap_sync, . - rec_trap_sync

/* A return with no shadow entry for it (the shadow stack was overwritten
 * or freed under a live call): rdi holds the stack pointer of the call's
 * entry.  The tracer must resume the thread itself at the site of its
 * hooked call with that stack pointer (in its records), with rsp =
 * rdi + 8 and rax, rdx as rec_return saved them (at rdi - 40 and
 * rdi - 32); resumed here, the thread stops on ud2. */
	.globl	rec_trap_lost
	.hidden	rec_trap_lost
	.type	rec_trap_lost, @function
	.p2align 4
rec_trap_lost:
	int3
	ud2
	.size	rec_trap_lost, . - rec_trap_lost

	.section .note.GNU-stack, "", @progbits
