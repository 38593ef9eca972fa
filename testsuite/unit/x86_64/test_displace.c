/* Unit test of sysdeps/linux-gnu/x86_64/displace.c.
 *
 *   gcc -Wall -Wextra -g -I ltrace sysdeps/linux-gnu/x86_64/displace.c \
 *	testsuite/unit/test_displace.c -lZydis
 *
 * Part 1 checks displacements: kind, length, target and the exact bytes for
 * representative instructions, then decodes the generated code again with
 * Zydis to check that its jumps go back to addr+len (and to the branch
 * target) and that a RIP-relative operand still designates the original
 * absolute address.
 *
 * Part 2 executes: each instruction is placed in an RWX page, followed by
 * a landing stub; it is run once natively and once displaced (from a cell
 * page mapped within 2 GiB), from the same registers, flags, stack and
 * data, and the results (all GPRs, status flags, stack, data, which
 * landing was reached) must be identical.
 *
 * Exit status 0 when every check passes; one stderr line per failure. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <Zydis/Zydis.h>

#include "../check.h"
#include "displace.h"

static uint64_t get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* ------------------------------------------------------------------ */
/* Part 1: displacements                                                 */
/* ------------------------------------------------------------------ */

#define A 0x555555554100ULL   /* instruction address */
#define S (A + 0x10000000ULL) /* cell, 256 MiB above */

enum { RC_OK = 0, RC_INVAL = -EINVAL };
#define NOTGT ((uint64_t)-1) /* no target check */

struct pcase {
	const char *name;
	uint8_t insn[16];
	unsigned len; /* bytes given to displace_prepare */
	uint64_t cell;
	int rc;
	enum displace_kind kind;
	unsigned insn_len;
	uint64_t target;  /* JUMP target, or branch target of
					 * the cell code; NOTGT: none */
	const char *code; /* exact bytes, hex; "@X" is the LE
					 * qword X (F: addr+len, T: target) */
};

/* jmp qword [rip+0] and its qword */
#define JABS(q) "ff2500000000" q

/* clang-format off */
static const struct pcase pcases[] = {
	{ "nop", { 0x90 }, 1, S, RC_OK, DISPLACE_COPY, 1, NOTGT,
	  "90" JABS("@F") },
	{ "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, 4, S, RC_OK,
	  DISPLACE_COPY, 4, NOTGT, "f30f1efa" JABS("@F") },
	{ "mov rax,rbx", { 0x48, 0x89, 0xd8 }, 3, S, RC_OK, DISPLACE_COPY,
	  3, NOTGT, "4889d8" JABS("@F") },
	{ "ret", { 0xc3 }, 1, S, RC_OK, DISPLACE_COPY, 1, NOTGT, "c3" },
	{ "ret 16", { 0xc2, 0x10, 0x00 }, 3, S, RC_OK, DISPLACE_COPY, 3,
	  NOTGT, "c21000" },
	{ "syscall", { 0x0f, 0x05 }, 2, S, RC_OK, DISPLACE_COPY, 2, NOTGT,
	  "0f05" JABS("@F") },
	/* the i386 system call gate: a system call, not a trap */
	{ "int 0x80", { 0xcd, 0x80 }, 2, S, RC_OK, DISPLACE_COPY, 2, NOTGT,
	  "cd80" JABS("@F") },
	{ "jmp rax", { 0xff, 0xe0 }, 2, S, RC_OK, DISPLACE_COPY, 2, NOTGT,
	  "ffe0" },
	/* mov eax,[rip+0x1234]: new disp = A+6+0x1234 - (S+6) */
	{ "mov eax,[rip+X]", { 0x8b, 0x05, 0x34, 0x12, 0, 0 }, 15, S, RC_OK,
	  DISPLACE_COPY, 6, NOTGT, "8b05" "341200f0" JABS("@F") },
	{ "lea rdi,[rip+X]", { 0x48, 0x8d, 0x3d, 0, 0, 0x80, 0 }, 7, S,
	  RC_OK, DISPLACE_COPY, 7, NOTGT, NULL },
	{ "cmp byte [rip+X],0", { 0x80, 0x3d, 0x10, 0, 0, 0, 0 }, 7, S,
	  RC_OK, DISPLACE_COPY, 7, NOTGT, "803d" "100000f0" "00" JABS("@F") },
	{ "vmovdqu ymm0,[rip+X]", { 0xc5, 0xfe, 0x6f, 0x05, 0x44, 0x33,
	  0x22, 0x11 }, 8, S, RC_OK, DISPLACE_COPY, 8, NOTGT, NULL },
	{ "vpaddd zmm1,zmm2,[rip+X]", { 0x62, 0xf1, 0x6d, 0x48, 0xfe, 0x0d,
	  0x00, 0x01, 0x00, 0x00 }, 10, S, RC_OK, DISPLACE_COPY, 10, NOTGT,
	  NULL },
	/* 15 bytes: cs cs cs cs mov qword [rip+X], imm32 */
	{ "15-byte rip store", { 0x2e, 0x2e, 0x2e, 0x2e, 0x48, 0xc7, 0x05,
	  0, 1, 0, 0, 0x78, 0x56, 0x34, 0x12 }, 15, S, RC_OK, DISPLACE_COPY,
	  15, NOTGT, NULL },
	{ "jmp rel8", { 0xeb, 0x10 }, 2, S, RC_OK, DISPLACE_JUMP, 2,
	  A + 0x12, "" },
	{ "jmp rel32", { 0xe9, 0x00, 0xf0, 0xff, 0xff }, 5, S, RC_OK,
	  DISPLACE_JUMP, 5, A + 5 - 0x1000, "" },
	{ "call rel32", { 0xe8, 0x00, 0x01, 0x00, 0x00 }, 5, S, RC_OK,
	  DISPLACE_COPY, 5, A + 0x105,
	  "488d6424f8" "c70424@L" "c7442404@H" JABS("@T") },
	{ "jz rel8", { 0x74, 0x20 }, 2, S, RC_OK, DISPLACE_COPY, 2,
	  A + 0x22, "740e" JABS("@F") JABS("@T") },
	{ "jnz rel32", { 0x0f, 0x85, 0x00, 0x00, 0x01, 0x00 }, 6, S, RC_OK,
	  DISPLACE_COPY, 6, A + 0x10006, "750e" JABS("@F") JABS("@T") },
	{ "ds jz rel8 (hint)", { 0x3e, 0x74, 0x20 }, 3, S, RC_OK,
	  DISPLACE_COPY, 3, A + 0x23, "3e740e" JABS("@F") JABS("@T") },
	{ "loop", { 0xe2, 0xfe }, 2, S, RC_OK, DISPLACE_COPY, 2, A,
	  "e20e" JABS("@F") JABS("@T") },
	{ "jecxz", { 0x67, 0xe3, 0x05 }, 3, S, RC_OK, DISPLACE_COPY, 3,
	  A + 8, "67e30e" JABS("@F") JABS("@T") },
	{ "9 prefixes jz rel32", { 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e, 0x2e,
	  0x2e, 0x2e, 0x0f, 0x84, 0, 0, 0, 0 }, 15, S, RC_OK, DISPLACE_COPY,
	  15, A + 15, "2e2e2e2e2e2e2e2e2e740e" JABS("@F") JABS("@T") },
	{ "call rax", { 0xff, 0xd0 }, 2, S, RC_OK, DISPLACE_COPY, 2, NOTGT,
	  "fff0" "ff3424" "c7442408@L" "c744240c@H" "488d642408" "ff6424f8" },
	/* push rsp pushes the value before the push, as call rsp jumps */
	{ "call rsp", { 0xff, 0xd4 }, 2, S, RC_OK, DISPLACE_COPY, 2, NOTGT,
	  "fff4" "ff3424" "c7442408@L" "c744240c@H" "488d642408" "ff6424f8" },
	{ "call [rsp+8]", { 0xff, 0x54, 0x24, 0x08 }, 4, S, RC_OK,
	  DISPLACE_COPY, 4, NOTGT, "ff742408" "ff3424" "c7442408@L"
	  "c744240c@H" "488d642408" "ff6424f8" },
	{ "call [rip+X]", { 0xff, 0x15, 0x00, 0x10, 0x00, 0x00 }, 6, S,
	  RC_OK, DISPLACE_COPY, 6, NOTGT, "ff35" "001000f0" "ff3424"
	  "c7442408@L" "c744240c@H" "488d642408" "ff6424f8" },
	{ "notrack call [r12+rax*8+X]", { 0x3e, 0x41, 0xff, 0x94, 0xc4,
	  0x78, 0x56, 0x34, 0x12 }, 9, S, RC_OK, DISPLACE_COPY, 9, NOTGT,
	  "3e41ffb4c478563412" "ff3424" "c7442408@L" "c744240c@H"
	  "488d642408" "ff6424f8" },
	{ "jmp [rip+X]", { 0xff, 0x25, 0x00, 0x00, 0x00, 0x00 }, 6, S,
	  RC_OK, DISPLACE_COPY, 6, NOTGT, "ff25" "000000f0" },
	/* fallbacks */
	{ "rip too far", { 0x8b, 0x05, 0, 0, 0, 0 }, 6, A + 0xc0000000ULL,
	  RC_OK, DISPLACE_STEP, 6, NOTGT, "" },
	{ "rip too far below", { 0x8b, 0x05, 0, 0, 0, 0 }, 6,
	  A - 0x90000000ULL, RC_OK, DISPLACE_STEP, 6, NOTGT, "" },
	{ "lea eip-relative", { 0x67, 0x48, 0x8d, 0x05, 0, 0, 0, 0 }, 8, S,
	  RC_OK, DISPLACE_STEP, 8, NOTGT, "" },
	{ "xbegin", { 0xc7, 0xf8, 0x10, 0, 0, 0 }, 6, S, RC_OK,
	  DISPLACE_STEP, 6, NOTGT, "" },
	{ "int3", { 0xcc }, 1, S, RC_OK, DISPLACE_STEP, 1, NOTGT, "" },
	{ "66 jz rel32", { 0x66, 0x0f, 0x84, 0, 0, 0, 0 }, 7, S, RC_OK,
	  DISPLACE_STEP, 7, NOTGT, "" },
	{ "66 call rel", { 0x66, 0xe8, 0, 0, 0, 0 }, 15, S, RC_OK,
	  DISPLACE_STEP, 0, NOTGT, "" },
	{ "far call [rax]", { 0xff, 0x18 }, 2, S, RC_OK, DISPLACE_STEP, 2,
	  NOTGT, "" },
	{ "far jmp [rax]", { 0xff, 0x28 }, 2, S, RC_OK, DISPLACE_COPY, 2,
	  NOTGT, "ff28" },
	{ "undecodable push es", { 0x06 }, 1, S, RC_INVAL, DISPLACE_STEP,
	  0, NOTGT, "" },
	{ "truncated", { 0x48, 0x8b, 0x05, 0x01 }, 4, S, RC_INVAL,
	  DISPLACE_STEP, 0, NOTGT, "" },
	{ "empty", { 0 }, 0, S, RC_INVAL, DISPLACE_STEP, 0, NOTGT, "" },
};
/* clang-format on */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	return c - 'a' + 10;
}

/* Expand the expected-code string of P for displacement D into OUT. */
static unsigned expand(const struct pcase *p, const struct displaced *d,
		       uint8_t *out)
{
	uint64_t fall = A + d->insn_len;
	const char *s = p->code;
	unsigned n = 0;

	while (*s && n < 128) {
		if (*s != '@') {
			out[n++] = (uint8_t)(hexval(s[0]) << 4 | hexval(s[1]));
			s += 2;
			continue;
		}
		switch (s[1]) {
		case 'F':
			put_le(out + n, fall, 8);
			n += 8;
			break;
		case 'T':
			put_le(out + n, p->target, 8);
			n += 8;
			break;
		case 'L':
			put_le(out + n, fall, 4);
			n += 4;
			break;
		case 'H':
			put_le(out + n, fall >> 32, 4);
			n += 4;
			break;
		}
		s += 2;
	}
	return n;
}

static void hexdump(char *buf, const uint8_t *p, unsigned n)
{
	for (unsigned i = 0; i < n && i < 80; i++)
		sprintf(buf + 2 * i, "%02x", p[i]);
}

static void check_bytes(const struct pcase *p, const struct displaced *d)
{
	uint8_t exp[160];
	unsigned n = expand(p, d, exp);

	if (n == d->code_len && memcmp(exp, d->code, n) == 0)
		return;
	char a[200] = "";
	char b[200] = "";
	hexdump(a, d->code, d->code_len);
	hexdump(b, exp, n);
	FAIL("%s: code %s, expected %s", p->name, a, b);
}

static int decode(const uint8_t *p, size_t n, ZydisDecodedInstruction *zi,
		  ZydisDecodedOperand *ops)
{
	ZydisDecoder dec;

	ZydisDecoderInit(&dec, ZYDIS_MACHINE_MODE_LONG_64,
			 ZYDIS_STACK_WIDTH_64);
	ZyanStatus st = ZydisDecoderDecodeFull(&dec, p, n, zi, ops);
	return ZYAN_SUCCESS(st) ? 0 : -1;
}

/* Absolute address of a RIP-relative operand of the instruction at
 * P (tracee address AT), or 0. */
static uint64_t rip_abs(const uint8_t *p, size_t n, uint64_t at, int *is_jabs)
{
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	ZyanU64 abs;

	*is_jabs = 0;
	if (decode(p, n, &zi, ops) != 0)
		return 0;
	for (unsigned i = 0; i < zi.operand_count_visible; i++) {
		if (ops[i].type != ZYDIS_OPERAND_TYPE_MEMORY ||
		    ops[i].mem.base != ZYDIS_REGISTER_RIP)
			continue;
		*is_jabs = zi.mnemonic == ZYDIS_MNEMONIC_JMP &&
			   ops[i].mem.disp.value == 0;
		ZydisCalcAbsoluteAddress(&zi, &ops[i], at, &abs);
		return abs;
	}
	return 0;
}

/* Walk the cell code with Zydis: every instruction decodes, every
 * "jmp [rip+0]" goes to addr+len or to the branch target, at least one
 * goes to addr+len unless the instruction never falls through, and a
 * RIP-relative operand designates what the original did. */
static void check_redecode(const struct pcase *p, const struct displaced *d)
{
	int jabs;
	uint64_t orig = rip_abs(p->insn, d->insn_len, A, &jabs);
	uint64_t fall = A + d->insn_len;
	int saw_fall = 0;
	int saw_taken = 0;
	int saw_rip = 0;
	unsigned off = 0;

	while (off < d->code_len) {
		ZydisDecodedInstruction zi;
		ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];

		if (decode(d->code + off, d->code_len - off, &zi, ops) != 0) {
			FAIL("%s: cell code does not decode at +%u", p->name,
			     off);
			return;
		}
		uint64_t abs =
			rip_abs(d->code + off, zi.length, p->cell + off, &jabs);
		if (jabs) {
			uint64_t t = get_le(d->code + off + zi.length, 8);

			saw_fall |= t == fall;
			saw_taken |= t == p->target;
			CHECK(t == fall || t == p->target,
			      "%s: jump to %#" PRIx64, p->name, t);
			off += 8;
		} else if (abs) {
			saw_rip = 1;
			CHECK(abs == orig,
			      "%s: rip operand %#" PRIx64
			      " != original %#" PRIx64,
			      p->name, abs, orig);
		}
		off += zi.length;
	}
	CHECK(!orig || saw_rip, "%s: rip operand lost", p->name);
	if (p->target != NOTGT)
		CHECK(saw_taken, "%s: no jump to target", p->name);
	(void)saw_fall;
}

/* The cell of a call, ret or jmp has no jump back to addr+len: calls
 * store it as their return address instead. */
static int jumps_back(const struct pcase *p)
{
	ZydisDecodedInstruction zi;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];

	if (decode(p->insn, p->len, &zi, ops) != 0)
		return 0;
	ZydisInstructionCategory c = zi.meta.category;
	return c != ZYDIS_CATEGORY_CALL && c != ZYDIS_CATEGORY_RET &&
	       c != ZYDIS_CATEGORY_UNCOND_BR;
}

/* Does the code hold a "jmp qword [rip+0]" to TARGET? */
static int has_jabs_to(const struct displaced *d, uint64_t target)
{
	for (unsigned i = 0; i + 14 <= d->code_len; i++)
		if (memcmp(d->code + i, "\xff\x25\0\0\0\0", 6) == 0 &&
		    get_le(d->code + i + 6, 8) == target)
			return 1;
	return 0;
}

static void run_pcase(const struct pcase *p)
{
	struct displaced d;

	memset(&d, 0xa5, sizeof(d));
	int rc = displace_prepare(p->insn, p->len, A, p->cell, &d);
	CHECK(rc == p->rc, "%s: rc %d, expected %d", p->name, rc, p->rc);
	CHECK(d.kind == p->kind, "%s: kind %d, expected %d", p->name, d.kind,
	      p->kind);
	if (p->insn_len)
		CHECK(d.insn_len == p->insn_len, "%s: len %u, expected %u",
		      p->name, d.insn_len, p->insn_len);
	CHECK(d.code_len <= DISPLACE_CELL_SIZE, "%s: cell overflow", p->name);
	if (d.kind == DISPLACE_JUMP)
		CHECK(d.target == p->target,
		      "%s: target %#" PRIx64 ", expected %#" PRIx64, p->name,
		      d.target, p->target);
	if (d.kind != DISPLACE_COPY) {
		CHECK(d.code_len == 0, "%s: code for non-copy", p->name);
		return;
	}
	/* A thread in a system call of the copy stops just past it. */
	bool sc = !strcmp(p->name, "syscall") || !strcmp(p->name, "int 0x80");
	CHECK(d.syscall_end == (sc ? 2u : 0u), "%s: syscall_end %u", p->name,
	      d.syscall_end);
	if (p->code)
		check_bytes(p, &d);
	check_redecode(p, &d);
	if (jumps_back(p))
		CHECK(has_jabs_to(&d, A + d.insn_len),
		      "%s: no jump back to addr+len", p->name);
}

static void test_plans(void)
{
	for (size_t i = 0; i < sizeof(pcases) / sizeof(pcases[0]); i++)
		run_pcase(&pcases[i]);
}

/* ------------------------------------------------------------------ */
/* Part 2: execution                                                  */
/* ------------------------------------------------------------------ */

/* Register file, in encoding order: rax rcx rdx rbx rsp rbp rsi rdi
 * r8..r15, then rflags (offset 128). */
struct cpu {
	uint64_t r[16];
	uint64_t flags;
};

/* Shared with the asm below ("used": only the asm refers to some). */
#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN __attribute__((used)) uint64_t dt_entry, dt_which, dt_host_rsp, dt_tmp,
	dt_ctx;
HIDDEN void dt_run(struct cpu *c, uint64_t entry);
HIDDEN void dt_land_fall(void);
HIDDEN void dt_land_taken(void);

/* dt_run(cpu, entry): save the callee-saved registers, load every GPR
 * and the flags from *cpu, jump to entry.  The code under test ends up at
 * dt_land_fall or dt_land_taken (through the landing stubs of the code
 * page), which record which, store every GPR and the flags back into
 * *cpu and return from dt_run.  No register is used as scratch between
 * the load and the store. */
__asm__("	.intel_syntax noprefix\n"
	"	.text\n"
	"	.globl dt_run, dt_land_fall, dt_land_taken\n"
	"	.hidden dt_run, dt_land_fall, dt_land_taken\n"
	"dt_run:\n"
	"	push rbp\n	push rbx\n	push r12\n"
	"	push r13\n	push r14\n	push r15\n"
	"	mov [rip + dt_host_rsp], rsp\n"
	"	mov [rip + dt_ctx], rdi\n"
	"	mov [rip + dt_entry], rsi\n"
	"	push qword ptr [rdi + 128]\n"
	"	popfq\n"
	"	mov rax, [rdi + 0]\n	mov rcx, [rdi + 8]\n"
	"	mov rdx, [rdi + 16]\n	mov rbx, [rdi + 24]\n"
	"	mov rsp, [rdi + 32]\n	mov rbp, [rdi + 40]\n"
	"	mov rsi, [rdi + 48]\n	mov r8, [rdi + 64]\n"
	"	mov r9, [rdi + 72]\n	mov r10, [rdi + 80]\n"
	"	mov r11, [rdi + 88]\n	mov r12, [rdi + 96]\n"
	"	mov r13, [rdi + 104]\n	mov r14, [rdi + 112]\n"
	"	mov r15, [rdi + 120]\n	mov rdi, [rdi + 56]\n"
	"	jmp qword ptr [rip + dt_entry]\n"
	"dt_land_fall:\n"
	"	mov qword ptr [rip + dt_which], 1\n"
	"	jmp 1f\n"
	"dt_land_taken:\n"
	"	mov qword ptr [rip + dt_which], 2\n"
	"1:	mov [rip + dt_tmp], rdi\n"
	"	mov rdi, [rip + dt_ctx]\n"
	"	mov [rdi + 0], rax\n	mov [rdi + 8], rcx\n"
	"	mov [rdi + 16], rdx\n	mov [rdi + 24], rbx\n"
	"	mov [rdi + 32], rsp\n	mov [rdi + 40], rbp\n"
	"	mov [rdi + 48], rsi\n	mov [rdi + 64], r8\n"
	"	mov [rdi + 72], r9\n	mov [rdi + 80], r10\n"
	"	mov [rdi + 88], r11\n	mov [rdi + 96], r12\n"
	"	mov [rdi + 104], r13\n	mov [rdi + 112], r14\n"
	"	mov [rdi + 120], r15\n"
	"	mov rax, [rip + dt_tmp]\n"
	"	mov [rdi + 56], rax\n"
	"	pushfq\n"
	"	pop qword ptr [rdi + 128]\n"
	"	cld\n"
	"	mov rsp, [rip + dt_host_rsp]\n"
	"	pop r15\n	pop r14\n	pop r13\n"
	"	pop r12\n	pop rbx\n	pop rbp\n"
	"	ret\n"
	"	.att_syntax prefix\n");

/* Symbolic values, resolved per case: the case's data qword, its
 * "taken" landing stub, or the initial rsp, plus a signed 16-bit offset. */
#define V_DATA 0xd000000000000000ULL
#define V_TAKEN 0xe000000000000000ULL
#define V_STACK 0xf000000000000000ULL
#define DAT(o) (V_DATA | (uint16_t)(o))
#define STK(o) (V_STACK | (uint16_t)(o))

#define F_CF 0x1
#define F_PF 0x4
#define F_ZF 0x40
#define F_SF 0x80
#define F_OF 0x800
#define F_STATUS 0xcd5 /* CF PF AF ZF SF DF OF */

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12 };

struct xcase {
	const char *name;
	uint8_t insn[15];
	unsigned len;
	unsigned fix_off, fix_size; /* rel8/rel32/disp32 to patch */
	uint64_t fix_to;	    /* V_DATA or V_TAKEN */
	struct {
		int reg;
		uint64_t v;
	} regs[2]; /* reg+1; 0: unused */
	uint64_t flags;
	struct {
		int off;
		uint64_t v;
	} stk[2]; /* v == 0: unused */
	uint64_t data;
	int which;	 /* 1: fall-through, 2: taken */
	unsigned ignore; /* registers not compared */
};

#define REG(r, v)            \
	{                    \
		(r) + 1, (v) \
	}

/* clang-format off */
static const struct xcase xcases[] = {
	{ "nop", { 0x90 }, 1, 0, 0, 0, { { 0, 0 } }, 0, { { 0, 0 } }, 0, 1, 0 },
	{ "add rax,rcx", { 0x48, 0x01, 0xc8 }, 3, 0, 0, 0,
	  { REG(RAX, 0x7fffffffffffffffULL), REG(RCX, 1) }, 0, { { 0, 0 } },
	  0, 1, 0 },
	{ "mov rax,[rip+D]", { 0x48, 0x8b, 0x05 }, 7, 3, 4, V_DATA,
	  { { 0, 0 } }, 0, { { 0, 0 } }, 0x1122334455667788ULL, 1, 0 },
	{ "lea rdi,[rip+D]", { 0x48, 0x8d, 0x3d }, 7, 3, 4, V_DATA,
	  { { 0, 0 } }, 0, { { 0, 0 } }, 0, 1, 0 },
	{ "cmp byte [rip+D],0x88", { 0x80, 0x3d, 0, 0, 0, 0, 0x88 }, 7, 2,
	  4, V_DATA, { { 0, 0 } }, 0, { { 0, 0 } }, 0x88, 1, 0 },
	{ "mov dword [rip+D],imm", { 0xc7, 0x05, 0, 0, 0, 0, 0x78, 0x56,
	  0x34, 0x12 }, 10, 2, 4, V_DATA, { { 0, 0 } }, 0, { { 0, 0 } }, 0,
	  1, 0 },
	{ "cmovz rax,[rip+D]", { 0x48, 0x0f, 0x44, 0x05 }, 8, 4, 4, V_DATA,
	  { { 0, 0 } }, F_ZF, { { 0, 0 } }, 0xfeedULL, 1, 0 },
	{ "push qword [rip+D]", { 0xff, 0x35 }, 6, 2, 4, V_DATA,
	  { { 0, 0 } }, 0, { { 0, 0 } }, 0xabcdefULL, 1, 0 },
	{ "push rax; (pop rbx)", { 0x50 }, 1, 0, 0, 0, { { 0, 0 } }, 0,
	  { { 0, 0 } }, 0, 1, 0 },
	{ "pop rbx", { 0x5b }, 1, 0, 0, 0, { { 0, 0 } }, 0,
	  { { 0, 0xabcULL } }, 0, 1, 0 },
	{ "leave", { 0xc9 }, 1, 0, 0, 0, { REG(RBP, STK(32)) }, 0,
	  { { 32, 0x1234 } }, 0, 1, 0 },
	{ "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, 4, 0, 0, 0, { { 0, 0 } },
	  0, { { 0, 0 } }, 0, 1, 0 },
	{ "mov rax,fs:[0]", { 0x64, 0x48, 0x8b, 0x04, 0x25, 0, 0, 0, 0 }, 9,
	  0, 0, 0, { { 0, 0 } }, 0, { { 0, 0 } }, 0, 1, 0 },
	/* syscall leaves the address of the next instruction in rcx */
	{ "syscall getpid", { 0x0f, 0x05 }, 2, 0, 0, 0, { REG(RAX, 39) }, 0,
	  { { 0, 0 } }, 0, 1, 1u << RCX },
	{ "call rel32", { 0xe8 }, 5, 1, 4, V_TAKEN, { { 0, 0 } }, F_CF,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "call [rip+D]", { 0xff, 0x15 }, 6, 2, 4, V_DATA, { { 0, 0 } },
	  F_ZF, { { 0, 0 } }, V_TAKEN, 2, 0 },
	/* the prefixes a -fno-plt call site may have (x86_64/sites.c) */
	{ "notrack call [rip+D]", { 0x3e, 0xff, 0x15 }, 7, 3, 4, V_DATA,
	  { { 0, 0 } }, F_ZF, { { 0, 0 } }, V_TAKEN, 2, 0 },
	{ "cs call [rip+D]", { 0x2e, 0xff, 0x15 }, 7, 3, 4, V_DATA,
	  { { 0, 0 } }, 0, { { 0, 0 } }, V_TAKEN, 2, 0 },
	{ "call rax", { 0xff, 0xd0 }, 2, 0, 0, 0, { REG(RAX, V_TAKEN) }, 0,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "call [rsp+8]", { 0xff, 0x54, 0x24, 0x08 }, 4, 0, 0, 0,
	  { { 0, 0 } }, 0, { { 8, V_TAKEN } }, 0, 2, 0 },
	{ "call [rsp]", { 0xff, 0x14, 0x24 }, 3, 0, 0, 0, { { 0, 0 } }, 0,
	  { { 0, V_TAKEN } }, 0, 2, 0 },
	{ "call [rsp-8]", { 0xff, 0x54, 0x24, 0xf8 }, 4, 0, 0, 0,
	  { { 0, 0 } }, 0, { { -8, V_TAKEN } }, 0, 2, 0 },
	{ "call [rsp+rax*8]", { 0xff, 0x14, 0xc4 }, 3, 0, 0, 0,
	  { REG(RAX, 2) }, 0, { { 16, V_TAKEN } }, 0, 2, 0 },
	{ "call [r12+8]", { 0x41, 0xff, 0x54, 0x24, 0x08 }, 5, 0, 0, 0,
	  { REG(R12, DAT(-8)) }, 0, { { 0, 0 } }, V_TAKEN, 2, 0 },
	{ "jz rel8 taken", { 0x74 }, 2, 1, 1, V_TAKEN, { { 0, 0 } }, F_ZF,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "jz rel8 not taken", { 0x74 }, 2, 1, 1, V_TAKEN, { { 0, 0 } }, 0,
	  { { 0, 0 } }, 0, 1, 0 },
	{ "ds jz rel8 taken", { 0x3e, 0x74 }, 3, 2, 1, V_TAKEN, { { 0, 0 } },
	  F_ZF | F_CF, { { 0, 0 } }, 0, 2, 0 },
	{ "jnz rel32 taken", { 0x0f, 0x85 }, 6, 2, 4, V_TAKEN, { { 0, 0 } },
	  0, { { 0, 0 } }, 0, 2, 0 },
	{ "jnz rel32 not taken", { 0x0f, 0x85 }, 6, 2, 4, V_TAKEN,
	  { { 0, 0 } }, F_ZF, { { 0, 0 } }, 0, 1, 0 },
	{ "jl rel32 taken", { 0x0f, 0x8c }, 6, 2, 4, V_TAKEN, { { 0, 0 } },
	  F_SF, { { 0, 0 } }, 0, 2, 0 },
	{ "jl rel32 not taken", { 0x0f, 0x8c }, 6, 2, 4, V_TAKEN,
	  { { 0, 0 } }, F_SF | F_OF, { { 0, 0 } }, 0, 1, 0 },
	{ "jrcxz taken", { 0xe3 }, 2, 1, 1, V_TAKEN, { REG(RCX, 0) }, 0,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "jrcxz not taken", { 0xe3 }, 2, 1, 1, V_TAKEN, { REG(RCX, 5) }, 0,
	  { { 0, 0 } }, 0, 1, 0 },
	{ "jecxz taken", { 0x67, 0xe3 }, 3, 2, 1, V_TAKEN,
	  { REG(RCX, 0x100000000ULL) }, 0, { { 0, 0 } }, 0, 2, 0 },
	{ "loop taken", { 0xe2 }, 2, 1, 1, V_TAKEN, { REG(RCX, 5) }, 0,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "loop not taken", { 0xe2 }, 2, 1, 1, V_TAKEN, { REG(RCX, 1) }, 0,
	  { { 0, 0 } }, 0, 1, 0 },
	{ "loopne taken", { 0xe0 }, 2, 1, 1, V_TAKEN, { REG(RCX, 2) }, 0,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "jmp rel8", { 0xeb }, 2, 1, 1, V_TAKEN, { { 0, 0 } }, 0,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "jmp rel32", { 0xe9 }, 5, 1, 4, V_TAKEN, { { 0, 0 } }, 0,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "jmp [rip+D]", { 0xff, 0x25 }, 6, 2, 4, V_DATA, { { 0, 0 } }, 0,
	  { { 0, 0 } }, V_TAKEN, 2, 0 },
	{ "bnd jmp [rip+D]", { 0xf2, 0xff, 0x25 }, 7, 3, 4, V_DATA,
	  { { 0, 0 } }, 0, { { 0, 0 } }, V_TAKEN, 2, 0 },
	{ "notrack jmp [rip+D]", { 0x3e, 0xff, 0x25 }, 7, 3, 4, V_DATA,
	  { { 0, 0 } }, F_CF, { { 0, 0 } }, V_TAKEN, 2, 0 },
	{ "jmp rax", { 0xff, 0xe0 }, 2, 0, 0, 0, { REG(RAX, V_TAKEN) }, 0,
	  { { 0, 0 } }, 0, 2, 0 },
	{ "ret", { 0xc3 }, 1, 0, 0, 0, { { 0, 0 } }, 0, { { 0, V_TAKEN } },
	  0, 2, 0 },
	{ "ret 16", { 0xc2, 0x10, 0x00 }, 3, 0, 0, 0, { { 0, 0 } }, F_OF,
	  { { 0, V_TAKEN } }, 0, 2, 0 },
};
/* clang-format on */

#define NXCASES (sizeof(xcases) / sizeof(xcases[0]))
#define CASE_SPAN 64 /* bytes of code page per case */
#define TAKEN_OFF 44 /* taken stub, within the case span */
#define STACK_SIZE 16384

struct env {
	uint8_t *code;	/* cases, 64 bytes each; then data */
	uint8_t *cells; /* one cell per case */
	uint8_t *stack;
	uint64_t rsp0;
};

struct result {
	struct cpu cpu;
	uint64_t which;
	uint64_t data[2];
	uint8_t stack[STACK_SIZE];
};

static uint8_t *case_at(const struct env *e, size_t i)
{
	return e->code + CASE_SPAN * i;
}

static uint64_t *data_at(const struct env *e, size_t i)
{
	return (uint64_t *)(e->code + 4096 + 16 * i);
}

static uint64_t resolve(const struct env *e, size_t i, uint64_t v)
{
	int16_t off = (int16_t)(v & 0xffff);

	switch (v >> 60) {
	case 0xd:
		return (uint64_t)data_at(e, i) + off;
	case 0xe:
		return (uint64_t)case_at(e, i) + TAKEN_OFF;
	case 0xf:
		return e->rsp0 + off;
	}
	return v;
}

static void put_jabs(uint8_t *p, uint64_t target)
{
	memcpy(p, "\xff\x25\0\0\0\0", 6);
	put_le(p + 6, target, 8);
}

/* Lay out case I: instruction with its fixup, fall-through stub right
 * after it, taken stub at TAKEN_OFF. */
static void lay_out(const struct env *e, size_t i)
{
	const struct xcase *x = &xcases[i];
	uint8_t *a = case_at(e, i);
	uint64_t end = (uint64_t)a + x->len;

	memset(a, 0xcc, CASE_SPAN);
	memcpy(a, x->insn, x->len);
	if (x->fix_size)
		put_le(a + x->fix_off, resolve(e, i, x->fix_to) - end,
		       x->fix_size);
	put_jabs(a + x->len, (uint64_t)dt_land_fall);
	put_jabs(a + TAKEN_OFF, (uint64_t)dt_land_taken);
}

/* Same registers, flags, stack and data before each run. */
static void initial(const struct env *e, size_t i, struct cpu *c)
{
	const struct xcase *x = &xcases[i];

	for (unsigned r = 0; r < 16; r++)
		c->r[r] = 0x0101010101010101ULL * (r + 1) ^ 0x8000000000000080;
	c->r[RSP] = e->rsp0;
	c->flags = 0x202 | x->flags;
	for (unsigned k = 0; k < 2; k++)
		if (x->regs[k].reg)
			c->r[x->regs[k].reg - 1] = resolve(e, i, x->regs[k].v);
	for (unsigned k = 0; k < STACK_SIZE; k++)
		e->stack[k] = (uint8_t)(k * 7 + 3);
	for (unsigned k = 0; k < 2; k++)
		if (x->stk[k].v)
			put_le(e->stack + STACK_SIZE / 2 + x->stk[k].off,
			       resolve(e, i, x->stk[k].v), 8);
	data_at(e, i)[0] = resolve(e, i, x->data);
	data_at(e, i)[1] = 0x5555aaaa5555aaaaULL;
}

static void run(const struct env *e, size_t i, struct cpu *c, uint64_t entry,
		struct result *r)
{
	dt_which = 0;
	dt_run(c, entry);
	r->cpu = *c;
	r->which = dt_which;
	memcpy(r->data, data_at(e, i), sizeof(r->data));
	memcpy(r->stack, e->stack, STACK_SIZE);
}

static void compare(const struct xcase *x, const struct result *n,
		    const struct result *d)
{
	for (unsigned r = 0; r < 16; r++)
		if (!(x->ignore & (1u << r)))
			CHECK(n->cpu.r[r] == d->cpu.r[r],
			      "%s: r%u native %#" PRIx64 " displaced %#" PRIx64,
			      x->name, r, n->cpu.r[r], d->cpu.r[r]);
	CHECK(((n->cpu.flags ^ d->cpu.flags) & F_STATUS) == 0,
	      "%s: flags native %#" PRIx64 " displaced %#" PRIx64, x->name,
	      n->cpu.flags, d->cpu.flags);
	CHECK(n->which == (uint64_t)x->which,
	      "%s: native landing %" PRIu64 ", expected %d", x->name, n->which,
	      x->which);
	CHECK(d->which == (uint64_t)x->which,
	      "%s: displaced landing %" PRIu64 ", expected %d", x->name,
	      d->which, x->which);
	CHECK(memcmp(n->data, d->data, sizeof(n->data)) == 0,
	      "%s: data differs", x->name);
	CHECK(memcmp(n->stack, d->stack, STACK_SIZE) == 0, "%s: stack differs",
	      x->name);
}

/* Where the displaced run starts, as the tracer would set RIP. */
static int displaced_entry(const struct env *e, size_t i, struct cpu *c,
			   uint64_t *entry)
{
	uint8_t *a = case_at(e, i);
	uint8_t *cell = e->cells + DISPLACE_CELL_SIZE * i;
	struct displaced d;

	if (displace_prepare(a, 15, (uint64_t)a, (uint64_t)cell, &d) != 0)
		return -1;
	CHECK(d.insn_len == xcases[i].len, "%s: len %u", xcases[i].name,
	      d.insn_len);
	switch (d.kind) {
	case DISPLACE_COPY:
		memcpy(cell, d.code, d.code_len);
		*entry = (uint64_t)cell;
		return 0;
	case DISPLACE_JUMP:
		*entry = d.target;
		return 0;
	case DISPLACE_CALL:
		c->r[RSP] -= 8;
		put_le(e->stack + (c->r[RSP] - (uint64_t)e->stack), d.ret_addr,
		       8);
		*entry = d.target;
		return 0;
	default:
		return -1;
	}
}

static struct result native_res;
static struct result displaced_res;

static void exec_case(const struct env *e, size_t i)
{
	struct cpu c;
	uint64_t entry;

	lay_out(e, i);
	initial(e, i, &c);
	run(e, i, &c, (uint64_t)case_at(e, i), &native_res);
	initial(e, i, &c);
	if (displaced_entry(e, i, &c, &entry) != 0) {
		FAIL("%s: not displaceable", xcases[i].name);
		return;
	}
	run(e, i, &c, entry, &displaced_res);
	compare(&xcases[i], &native_res, &displaced_res);
}

static void *map(void *hint, size_t size, int prot)
{
	void *p = mmap(hint, size, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int set_up(struct env *e)
{
	const int rwx = PROT_READ | PROT_WRITE | PROT_EXEC;

	e->code = map(NULL, 8192, rwx);
	if (e->code == NULL)
		return -1;
	/* The cell page 1 GiB away: rip-relative operands stay in reach. */
	e->cells = map(e->code + (1ULL << 30), 8192, rwx);
	e->stack = map(NULL, STACK_SIZE, PROT_READ | PROT_WRITE);
	if (e->cells == NULL || e->stack == NULL)
		return -1;
	int64_t dist = (int64_t)((uint64_t)e->cells - (uint64_t)e->code);
	if (dist < -(1LL << 31) + 16384 || dist > (1LL << 31) - 16384)
		return -1;
	e->rsp0 = (uint64_t)e->stack + STACK_SIZE / 2;
	return 0;
}

static void test_exec(void)
{
	struct env e;

	_Static_assert(NXCASES * CASE_SPAN <= 4096, "code page");
	_Static_assert(NXCASES * DISPLACE_CELL_SIZE <= 8192, "cell page");
	if (set_up(&e) != 0) {
		FAIL("cannot map code, cell and stack pages");
		return;
	}
	for (size_t i = 0; i < NXCASES; i++)
		exec_case(&e, i);
	munmap(e.code, 8192);
	munmap(e.cells, 8192);
	munmap(e.stack, STACK_SIZE);
}

int main(void)
{
	test_plans();
	test_exec();
	if (!check_failures)
		printf("test_displace: all passed (%zu displacements, %zu executed)\n",
		       sizeof(pcases) / sizeof(pcases[0]), NXCASES);
	return check_exit();
}
