/* Unit test of sysdeps/linux-gnu/aarch64/displace.c.
 *
 *   aarch64-linux-gnu-gcc -Wall -Wextra -g -I ltrace \
 *	sysdeps/linux-gnu/aarch64/displace.c \
 *	testsuite/unit/aarch64/test_displace.c
 *   qemu-aarch64 -L /usr/aarch64-linux-gnu ./a.out	(or natively)
 *
 * Part 1 checks displacements: kind, target, return address and that the cell's
 * code is whole instructions and literals.
 *
 * Part 2 executes: each instruction is placed in an RWX code page, with
 * a "fall-through" landing after it and a "taken" landing at its branch
 * target; it runs once there and once displaced from a cell in another
 * page mapped far away (beyond any relative branch), from the same
 * registers, flags, v0 and stack.  The landings record every register;
 * both runs must reach the same landing with the same registers, x16
 * and x17 excepted (the cell's scratch; checked where the instruction
 * writes one of them).
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
#include <unistd.h>

#include "../check.h"
#include "displace.h"

/* The machine state given to and found by a run. */
struct state {
	uint64_t x[31];
	uint64_t nzcv;
	uint64_t sp;
	uint64_t pad;
	unsigned char q0[16];
	uint64_t landing; /* 1 fall-through, 2 taken */
};

struct state g_in, g_out;
uint64_t g_sp;
void run(uint64_t entry);
void land_fall(void);
void land_taken(void);

/* run(entry): every register from g_in (x17 through the stack: the
 * entry stub pops it), then to ENTRY.  A landing stores everything in
 * g_out and returns from run. */
__asm__(".text\n"
	".global run\n"
	"run:\n"
	"	stp x29, x30, [sp, #-96]!\n"
	"	stp x19, x20, [sp, #16]\n"
	"	stp x21, x22, [sp, #32]\n"
	"	stp x23, x24, [sp, #48]\n"
	"	stp x25, x26, [sp, #64]\n"
	"	stp x27, x28, [sp, #80]\n"
	"	adrp x9, g_sp\n"
	"	mov x10, sp\n"
	"	str x10, [x9, :lo12:g_sp]\n"
	"	mov x17, x0\n"
	"	adrp x9, g_in\n"
	"	add x9, x9, :lo12:g_in\n"
	"	ldr x10, [x9, #136]\n"
	"	str x10, [sp, #-16]!\n"
	"	ldr q0, [x9, #272]\n"
	"	ldr x10, [x9, #248]\n"
	"	msr nzcv, x10\n"
	"	ldp x0, x1, [x9, #0]\n"
	"	ldp x2, x3, [x9, #16]\n"
	"	ldp x4, x5, [x9, #32]\n"
	"	ldp x6, x7, [x9, #48]\n"
	"	ldp x10, x11, [x9, #80]\n"
	"	ldp x12, x13, [x9, #96]\n"
	"	ldp x14, x15, [x9, #112]\n"
	"	ldr x16, [x9, #128]\n"
	"	ldp x18, x19, [x9, #144]\n"
	"	ldp x20, x21, [x9, #160]\n"
	"	ldp x22, x23, [x9, #176]\n"
	"	ldp x24, x25, [x9, #192]\n"
	"	ldp x26, x27, [x9, #208]\n"
	"	ldp x28, x29, [x9, #224]\n"
	"	ldr x30, [x9, #240]\n"
	"	ldp x8, x9, [x9, #64]\n"
	"	br x17\n"
	".macro landing id\n"
	"	adrp x0, g_out\n"
	"	add x0, x0, :lo12:g_out\n"
	"	str x1, [x0, #8]\n"
	"	stp x2, x3, [x0, #16]\n"
	"	stp x4, x5, [x0, #32]\n"
	"	stp x6, x7, [x0, #48]\n"
	"	stp x8, x9, [x0, #64]\n"
	"	stp x10, x11, [x0, #80]\n"
	"	stp x12, x13, [x0, #96]\n"
	"	stp x14, x15, [x0, #112]\n"
	"	stp x16, x17, [x0, #128]\n"
	"	stp x18, x19, [x0, #144]\n"
	"	stp x20, x21, [x0, #160]\n"
	"	stp x22, x23, [x0, #176]\n"
	"	stp x24, x25, [x0, #192]\n"
	"	stp x26, x27, [x0, #208]\n"
	"	stp x28, x29, [x0, #224]\n"
	"	mrs x1, nzcv\n"
	"	str x1, [x0, #248]\n"
	"	str q0, [x0, #272]\n"
	"	ldp x1, x2, [sp], #16\n"
	"	str x1, [x0]\n"
	"	str x2, [x0, #240]\n"
	"	mov x1, sp\n"
	"	str x1, [x0, #256]\n"
	"	mov x1, #\\id\n"
	"	str x1, [x0, #288]\n"
	"	b restore\n"
	".endm\n"
	".global land_fall\n"
	"land_fall:\n"
	"	landing 1\n"
	".global land_taken\n"
	"land_taken:\n"
	"	landing 2\n"
	"restore:\n"
	"	adrp x9, g_sp\n"
	"	ldr x9, [x9, :lo12:g_sp]\n"
	"	mov sp, x9\n"
	"	ldp x19, x20, [sp, #16]\n"
	"	ldp x21, x22, [sp, #32]\n"
	"	ldp x23, x24, [sp, #48]\n"
	"	ldp x25, x26, [sp, #64]\n"
	"	ldp x27, x28, [sp, #80]\n"
	"	ldp x29, x30, [sp], #96\n"
	"	ret\n");

/* ---- pages ---- */

#define PAGE 4096
#define P_OFF 0x104   /* the instruction; P + 4 is 8-aligned */
#define T_OFF 0x208   /* branch target: the taken landing */
#define D_OFF 0x300   /* data for ldr literal */
#define E_OFF 0x40    /* native entry stub */
#define CELL_OFF 0x48 /* the cell, after its entry stub */

static uint8_t *code; /* instruction, landings, data */
static uint8_t *far;  /* entry stub and cell */

static void put32(uint8_t *p, uint32_t w)
{
	memcpy(p, &w, 4);
}

static uint64_t at(const uint8_t *base, unsigned off)
{
	return (uint64_t)(uintptr_t)(base + off);
}

/* stp x0, x30, [sp, #-16]!; ldr x30, #12; br x30; nop; .quad TO */
static void put_landing(uint8_t *p, void (*to)(void))
{
	uint64_t a = (uint64_t)(uintptr_t)to;

	put32(p, 0xa9bf7be0);
	put32(p + 4, 0x5800007e);
	put32(p + 8, 0xd61f03c0);
	put32(p + 12, 0xd503201f);
	memcpy(p + 16, &a, 8);
}

/* ldr x17, [sp], #16; b TO (a relative branch within the page) */
static void put_entry(uint8_t *p, uint8_t *to)
{
	int32_t words = (int32_t)(to - (p + 4)) / 4;

	put32(p, 0xf84107f1);
	put32(p + 4, 0x14000000 | ((uint32_t)words & 0x3ffffff));
}

static bool map_pages(void)
{
	int prot = PROT_READ | PROT_WRITE | PROT_EXEC;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;

	code = mmap(NULL, PAGE, prot, flags, -1, 0);
	/* far: 64 GiB away when the kernel agrees, beyond b's 128 MiB */
	far = mmap(code + ((uint64_t)64 << 30), PAGE, prot, flags, -1, 0);
	if (code == MAP_FAILED || far == MAP_FAILED)
		return false;
	put_entry(code + E_OFF, code + P_OFF);
	put_landing(code + P_OFF + 4, land_fall);
	put_landing(code + T_OFF, land_taken);
	put_entry(far + E_OFF, far + CELL_OFF);
	static const uint64_t data[2] = { 0xfedcba9876543210,
					  0x0123456789abcdef };
	memcpy(code + D_OFF, data, sizeof(data));
	return true;
}

static uint64_t addr_p(void)
{
	return at(code, P_OFF);
}

static uint64_t addr_t(void)
{
	return at(code, T_OFF);
}

static uint64_t addr_d(void)
{
	return at(code, D_OFF);
}

/* imm19 field (bits 23:5) for a branch or literal at P to TO */
static uint32_t imm19_to(uint64_t to)
{
	return (uint32_t)(((to - addr_p()) / 4) & 0x7ffff) << 5;
}

/* adr (PAGE 0) or adrp (PAGE 1) of Rd with the 21-bit IMM */
static uint32_t adr_enc(unsigned page, unsigned rd, int32_t imm)
{
	uint32_t u = (uint32_t)imm & 0x1fffff;

	return page << 31 | 0x10000000 | (u & 3) << 29 | (u >> 2) << 5 | rd;
}

static uint32_t imm14_to(uint64_t to)
{
	return (uint32_t)(((to - addr_p()) / 4) & 0x3fff) << 5;
}

/* ---- part 1: displacements ---- */

static int prepare(uint32_t insn, uint64_t addr, uint64_t cell,
		   struct displaced *d)
{
	uint8_t b[4];

	memcpy(b, &insn, 4);
	return displace_prepare(b, sizeof(b), addr, cell, d);
}

static void test_plans(void)
{
	struct displaced d;
	uint64_t a = 0x5555000100, s = 0x7fff00001040;

	CHECK(prepare(0x14000010, a, s, &d) == 0 && d.kind == DISPLACE_JUMP &&
		      d.target == a + 0x40 && d.insn_len == 4,
	      "b +0x40");
	CHECK(prepare(0x17ffffff, a, s, &d) == 0 && d.kind == DISPLACE_JUMP &&
		      d.target == a - 4,
	      "b -4");
	CHECK(prepare(0x94000100, a, s, &d) == 0 && d.kind == DISPLACE_CALL &&
		      d.target == a + 0x400 && d.ret_addr == a + 4,
	      "bl +0x400");
	CHECK(prepare(0x96000000, a, s, &d) == 0 && d.kind == DISPLACE_CALL &&
		      d.target == a - ((uint64_t)1 << 27),
	      "bl -128MiB");
	/* traps, eret, authenticating calls, x16 and x17 both written */
	static const uint32_t step[] = { 0xd4200000, 0xd4400000, 0xd4000002,
					 0xd69f03e0, 0xd73f0820, 0xa9404610,
					 0xd63f081f };
	for (size_t i = 0; i < sizeof(step) / sizeof(step[0]); i++)
		CHECK(prepare(step[i], a, s, &d) == 0 &&
			      d.kind == DISPLACE_STEP && d.insn_len == 4,
		      "%08x stepped", step[i]);
	/* udf, unallocated, misaligned, short */
	CHECK(prepare(0x00000000, a, s, &d) == -EINVAL &&
	      d.kind == DISPLACE_STEP);
	CHECK(prepare(0x02000000, a, s, &d) == -EINVAL);
	CHECK(prepare(0xd503201f, a + 2, s, &d) == -EINVAL);
	CHECK(displace_prepare((const uint8_t *)"\x1f\x20", 2, a, s, &d) ==
	      -EINVAL);
	/* svc: copied first, a thread in it stops just past it */
	CHECK(prepare(0xd4000001, a, s, &d) == 0 && d.kind == DISPLACE_COPY &&
		      d.syscall_end == 4,
	      "svc copied");
	/* nop: the copy, ldr x16, =a+4 (aligned literal), ret x16 */
	CHECK(prepare(0xd503201f, a, s, &d) == 0 && d.kind == DISPLACE_COPY &&
		      d.syscall_end == 0,
	      "nop copied");
	uint32_t w[4];
	uint64_t lit;
	memcpy(w, d.code, 12);
	memcpy(&lit, d.code + d.code_len - 8, 8);
	CHECK(w[0] == 0xd503201f && (w[1] & 0xff00001f) == 0x58000010 &&
		      w[2] == 0xd65f0200 && lit == a + 4 &&
		      (s + d.code_len - 8) % 8 == 0,
	      "nop: %08x %08x %08x lit %#" PRIx64, w[0], w[1], w[2], lit);
	/* mov x16, x0: the branch back goes through x17 */
	CHECK(prepare(0xaa0003f0, a, s, &d) == 0 && d.kind == DISPLACE_COPY);
	memcpy(w, d.code, 12);
	CHECK(w[0] == 0xaa0003f0 && (w[1] & 0x1f) == 17 && w[2] == 0xd65f0220,
	      "mov x16, x0: %08x %08x", w[1], w[2]);
}

/* ---- part 2: execution ---- */

/* Run INSN at P natively, then displaced, from IN; compare. */
static void exec_case(const char *name, uint32_t insn, const struct state *in,
		      uint64_t want_landing, int check_reg)
{
	struct state native, displaced;
	struct displaced d;

	put32(code + P_OFF, insn);
	__builtin___clear_cache((char *)code, (char *)code + PAGE);
	int rc = displace_prepare(code + P_OFF, 4, addr_p(), at(far, CELL_OFF),
				  &d);
	if (rc != 0 || d.kind != DISPLACE_COPY) {
		FAIL("%s: prepare rc %d kind %d", name, rc, d.kind);
		return;
	}
	memcpy(far + CELL_OFF, d.code, d.code_len);
	__builtin___clear_cache((char *)far, (char *)far + PAGE);
	g_in = *in;
	memset(&g_out, 0, sizeof(g_out));
	run(at(code, E_OFF));
	native = g_out;
	g_in = *in;
	memset(&g_out, 0, sizeof(g_out));
	run(at(far, E_OFF));
	displaced = g_out;
	CHECK(native.landing == want_landing, "%s: native landed at %" PRIu64,
	      name, native.landing);
	CHECK(displaced.landing == native.landing,
	      "%s: displaced landed at %" PRIu64, name, displaced.landing);
	for (unsigned r = 0; r < 31; r++)
		CHECK((r == 16 || r == 17) && (int)r != check_reg ?
			      true :
			      native.x[r] == displaced.x[r],
		      "%s: x%u %#" PRIx64 " displaced %#" PRIx64, name, r,
		      native.x[r], displaced.x[r]);
	CHECK(native.nzcv == displaced.nzcv && native.sp == displaced.sp &&
		      !memcmp(native.q0, displaced.q0, 16),
	      "%s: flags, sp or q0 differ", name);
}

static struct state base_state(void)
{
	struct state s;

	memset(&s, 0, sizeof(s));
	for (unsigned r = 0; r < 31; r++)
		s.x[r] = 0x1000 * r + r;
	s.x[1] = 0;
	s.x[2] = 0x8000000000000008;
	s.x[8] = 172; /* getpid, for svc */
	s.x[30] = addr_t();
	return s;
}

struct xcase {
	const char *name;
	uint32_t insn;
	int landing;
	int check_reg; /* x16/x17 written by the instruction, or -1 */
};

static void test_exec(void)
{
	struct state s = base_state();
	uint64_t pt = addr_t(), pd = addr_d();
	const struct xcase cases[] = {
		{ "nop", 0xd503201f, 1, -1 },
		{ "add x0, x1, x2", 0x8b020020, 1, -1 },
		{ "adds x0, x2, x2", 0xab020040, 1, -1 },
		{ "mov x16, x3", 0xaa0303f0, 1, 16 },
		{ "mov x17, x3", 0xaa0303f1, 1, 17 },
		{ "adr x3, T", 0x10000003 | imm19_to(pt), 1, -1 },
		{ "adr x16, -1MiB", adr_enc(0, 16, -0x100000), 1, 16 },
		{ "adr x9, +1MiB-1", adr_enc(0, 9, 0xfffff), 1, -1 },
		{ "adrp x4, +4GiB", adr_enc(1, 4, 0xfffff), 1, -1 },
		{ "adrp x5, -4GiB", adr_enc(1, 5, -0x100000), 1, -1 },
		{ "adrp x17, +3", adr_enc(1, 17, 3), 1, 17 },
		{ "ldr w5, D", 0x18000005 | imm19_to(pd), 1, -1 },
		{ "ldr x6, D", 0x58000006 | imm19_to(pd), 1, -1 },
		{ "ldr x16, D", 0x58000010 | imm19_to(pd), 1, 16 },
		{ "ldrsw x7, D", 0x98000007 | imm19_to(pd), 1, -1 },
		{ "ldr s0, D", 0x1c000000 | imm19_to(pd), 1, -1 },
		{ "ldr d0, D", 0x5c000000 | imm19_to(pd), 1, -1 },
		{ "ldr q0, D", 0x9c000000 | imm19_to(pd), 1, -1 },
		{ "prfm pldl1keep, D", 0xd8000000 | imm19_to(pd), 1, -1 },
		{ "ldr xzr, D", 0x5800001f | imm19_to(pd), 1, -1 },
		{ "b.eq T (Z clear)", 0x54000000 | imm19_to(pt), 1, -1 },
		{ "b.ne T (Z clear)", 0x54000001 | imm19_to(pt), 2, -1 },
		{ "cbz x1, T", 0xb4000001 | imm19_to(pt), 2, -1 },
		{ "cbnz x1, T", 0xb5000001 | imm19_to(pt), 1, -1 },
		{ "cbz w2, T", 0x34000002 | imm19_to(pt), 1, -1 },
		{ "tbz x2, #3, T", 0x36180002 | imm14_to(pt), 1, -1 },
		{ "tbnz x2, #63, T", 0xb7f80002 | imm14_to(pt), 2, -1 },
		{ "tbnz x2, #4, T", 0x37200002 | imm14_to(pt), 1, -1 },
		{ "blr x5", 0xd63f00a0, 2, -1 },
		{ "blr x16", 0xd63f0200, 1, 16 },
		{ "blr x17", 0xd63f0220, 2, 17 },
		{ "blr x30", 0xd63f03c0, 2, -1 },
		{ "br x5", 0xd61f00a0, 2, -1 },
		{ "ret", 0xd65f03c0, 2, -1 },
		{ "ret x16", 0xd65f0200, 1, 16 },
		{ "svc #0 (getpid)", 0xd4000001, 1, -1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct state in = s;
		/* x16 to the other landing: a slip between x16 and the
		 * register the instruction names lands elsewhere */
		in.x[5] = in.x[17] = pt;
		in.x[16] = addr_p() + 4;
		exec_case(cases[i].name, cases[i].insn, &in,
			  (uint64_t)cases[i].landing, cases[i].check_reg);
	}
	CHECK(g_out.x[0] == (uint64_t)getpid(), "svc: x0 %" PRIu64, g_out.x[0]);
}

int main(void)
{
	test_plans();
	if (!map_pages()) {
		perror("test_displace: mmap");
		return 1;
	}
	printf("cell page %#" PRIx64 " bytes from the code\n",
	       (uint64_t)(far - code));
	test_exec();
	return check_exit();
}
