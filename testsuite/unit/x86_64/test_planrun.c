/* Unit test of the fetch plan interpreter (recorder/planrun.h): each
 * instruction over a fake program memory with an unreadable hole, the
 * chunks it appends, the room limit, hostile plans, and plan_bound
 * against what random plans append. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "recorder/planrun.h"

#define BASE 0x10000ULL
#define MEMSZ 8192
#define HOLE (BASE + 4096) /* [HOLE, HOLE + 1024) cannot be read */
#define HOLE_END (HOLE + 1024)
#define SP (BASE + 7000)

static unsigned char mem[MEMSZ];
static unsigned copies;

/* The fake COPY: bytes of MEM, short at the hole and past the end. */
static uint64_t fake_copy(void *ctx, uint64_t addr, void *dst, uint64_t len)
{
	uint64_t n = 0;

	(void)ctx;
	copies++;
	while (n < len) {
		uint64_t a = addr + n;
		if (a < BASE || a >= BASE + MEMSZ ||
		    (a >= HOLE && a < HOLE_END))
			break;
		((unsigned char *)dst)[n++] = mem[a - BASE];
	}
	return n;
}

static uint64_t args[8];
static uint64_t outbuf[2048];

static struct plan_op op(uint8_t code, uint8_t dst, uint8_t src, uint32_t a)
{
	return (struct plan_op){ .op = code, .dst = dst, .src = src, .a = a };
}

static uint64_t run(const struct plan_op *plan, const void *xmm, uint64_t room)
{
	memset(outbuf, 0xa5, sizeof(outbuf));
	return plan_run(plan, args, SP, xmm, outbuf, room, fake_copy, NULL);
}

/* The chunk at byte offset *OFF of the output; *OFF moves past it. */
static const struct plan_chunk *chunk_at(uint64_t *off)
{
	const struct plan_chunk *ch =
		(const struct plan_chunk *)((char *)outbuf + *off);
	*off += plan_chunk_size(ch->len);
	return ch;
}

static void check_chunk(const struct plan_chunk *ch, uint64_t addr,
			uint32_t len, uint32_t wanted, int line)
{
	if (ch->addr != addr || ch->len != len || ch->wanted != wanted)
		FAIL("line %d: chunk %#llx %u/%#x, want %#llx %u/%#x", line,
		     (unsigned long long)ch->addr, ch->len, ch->wanted,
		     (unsigned long long)addr, len, wanted);
	else if (len <= PLAN_LEN_MAX && addr != PLAN_FPR_ADDR &&
		 memcmp(ch + 1, mem + (addr - BASE), len))
		FAIL("line %d: chunk bytes differ from memory", line);
	for (uint64_t i = len; i % 8; i++)
		CHECK(((const unsigned char *)(ch + 1))[i] == 0,
		      "line %d: padding byte %llu", line,
		      (unsigned long long)i);
}

#define CHUNK(ch, a, l, w) check_chunk((ch), (a), (l), (w), __LINE__)

static void put(uint64_t addr, const void *p, size_t n)
{
	memcpy(mem + (addr - BASE), p, n);
}

static void test_strings(void)
{
	put(BASE + 16, "hello", 6);
	put(BASE + 64, "abcdefgh", 9);
	memset(mem + (HOLE - 10 - BASE), 'x', 10); /* no NUL before the hole */
	memset(mem + 100, 'y', 300);
	mem[400] = 0;
	args[0] = BASE + 16;
	args[1] = BASE + 64;
	args[2] = HOLE - 10;
	args[3] = BASE + 100;
	struct plan_op plan[] = {
		op(PLAN_ARG, 1, 0, 0),	op(PLAN_CSTR, 0, 1, 33),
		op(PLAN_ARG, 2, 0, 1),	op(PLAN_CSTR, 0, 2, 4),
		op(PLAN_ARG, 3, 0, 2),	op(PLAN_CSTR, 0, 3, 33),
		op(PLAN_ARG, 4, 0, 3),	op(PLAN_CSTR, 0, 4, 1000),
		op(PLAN_CSTR, 0, 5, 8), op(PLAN_END, 0, 0, 0),
	};
	uint64_t used = run(plan, NULL, sizeof(outbuf));
	uint64_t off = 0;
	CHUNK(chunk_at(&off), BASE + 16, 6, 6);	     /* NUL found */
	CHUNK(chunk_at(&off), BASE + 64, 4, 4);	     /* bound first */
	CHUNK(chunk_at(&off), HOLE - 10, 10, 33);    /* ran into the hole */
	CHUNK(chunk_at(&off), BASE + 100, 301, 301); /* two pieces */
	CHUNK(chunk_at(&off), 0, 0, 8);		     /* NULL */
	CHECK(off == used, "%llu != %llu", (unsigned long long)off,
	      (unsigned long long)used);
	CHECK(used <= plan_bound(plan));
}

static void test_mem(void)
{
	args[1] = BASE + 200;
	args[2] = 5; /* elements of 4 bytes */
	args[3] = HOLE - 8;
	struct plan_op plan[] = {
		op(PLAN_ARG, 1, 0, 1),	    op(PLAN_ARG, 2, 0, 2),
		op(PLAN_MULADD, 2, 2, 4),   op(PLAN_MEM, 0, 1, 100),
		op(PLAN_MULADD, 3, 2, 100), /* 2000, capped below */
		op(PLAN_MEM, 0, 1, 64),	    op(PLAN_ARG, 4, 0, 3),
		op(PLAN_FIXED, 0, 4, 24),   op(PLAN_END, 0, 0, 0),
	};
	plan[3].len = 2;
	plan[4].c = 48;
	plan[5].len = 3;
	plan[7].src = 4;
	for (int i = 0; i < 200; i++)
		mem[200 + i] = (unsigned char)(i * 7 + 1);
	uint64_t used = run(plan, NULL, sizeof(outbuf));
	uint64_t off = 0;
	/* 20 and min(48 by C, 64) bytes at one address: one copy of the
	 * span; the copy at the hole's edge, far away, its own (short) */
	CHUNK(chunk_at(&off), BASE + 200, 48, 48);
	CHUNK(chunk_at(&off), HOLE - 8, 8, 24);
	CHECK(off == used);
}

/* Copies near each other go out as one copy of their span when its
 * chunk is no larger than theirs; a span that cannot all be read, or
 * copies far apart, one by one; a word loaded from a waiting copy sees
 * its bytes. */
static void test_runs(void)
{
	uint64_t w = BASE + 300;
	put(BASE + 600, &w, 8);
	for (int i = 0; i < 64; i++)
		mem[300 + i] = (unsigned char)('a' + i % 26);
	args[0] = BASE + 300;
	args[1] = BASE + 310;
	args[2] = BASE + 600;
	args[3] = HOLE - 6;
	struct plan_op plan[] = {
		op(PLAN_ARG, 0, 0, 0),	  op(PLAN_FIXED, 0, 0, 8),
		op(PLAN_ARG, 1, 0, 1),	  op(PLAN_FIXED, 0, 1, 20),
		op(PLAN_ARG, 2, 0, 2),	  op(PLAN_FIXED, 0, 2, 8),
		op(PLAN_LOAD, 3, 2, 0),	  op(PLAN_FIXED, 0, 3, 4),
		op(PLAN_ARG, 4, 0, 3),	  op(PLAN_FIXED, 0, 4, 4),
		op(PLAN_FIXED, 0, 4, 12), op(PLAN_END, 0, 0, 0),
	};
	uint64_t used = run(plan, NULL, sizeof(outbuf));
	uint64_t off = 0;
	/* [300, 330): 8 and 20 bytes 2 apart, one chunk of 30 (46 bytes
	 * against 24 + 40 for two) */
	CHUNK(chunk_at(&off), BASE + 300, 30, 30);
	/* the pointer at 600, flushed by the load through it */
	CHUNK(chunk_at(&off), BASE + 600, 8, 8);
	/* the load's target, then the two at the hole's edge: their span
	 * is cut short, so each is copied alone */
	const struct plan_chunk *ch = chunk_at(&off);
	CHECK(ch->addr == BASE + 300 && ch->len == 4 &&
	      !memcmp(ch + 1, "abcd", 4));
	CHUNK(chunk_at(&off), HOLE - 6, 4, 4);
	CHUNK(chunk_at(&off), HOLE - 6, 6, 12);
	CHECK(off == used && used <= plan_bound(plan));
}

/* Stack words: PLAN_ARG 6 and up, PLAN_STACK; PLAN_LOAD through a
 * pointer, and at the hole's edge (the rest zero). */
static void test_stack_load(void)
{
	uint64_t w[3] = { 0x401000, BASE + 300, 0x1122334455667788ULL };
	put(SP, w, sizeof(w));
	uint64_t p = BASE + 16;
	put(BASE + 300 + 8, &p, 8);
	put(HOLE - 4, "\x01\x02\x03\x04", 4);
	args[0] = HOLE - 4;
	struct plan_op plan[] = {
		op(PLAN_STACK, 0, 0, 24), op(PLAN_ARG, 1, 0, 6),
		op(PLAN_LOAD, 2, 1, 8),	  op(PLAN_CSTR, 0, 2, 33),
		op(PLAN_ARG, 3, 0, 7),	  op(PLAN_MULADD, 4, 3, 1),
		op(PLAN_ARG, 5, 0, 0),	  op(PLAN_LOAD, 6, 5, 0),
		op(PLAN_MULADD, 7, 6, 1), op(PLAN_FIXED, 0, 1, 1),
		op(PLAN_END, 0, 0, 0),
	};
	plan[5].c = 77;
	plan[8].c = 0x10000000;
	plan[9].src = 7; /* FIXED at r7 = 0x04030201 (unreadable) */
	uint64_t used = run(plan, NULL, sizeof(outbuf));
	uint64_t off = 0;
	CHUNK(chunk_at(&off), SP, 24, 24);
	CHUNK(chunk_at(&off), BASE + 16, 6, 6);
	const struct plan_chunk *ch = chunk_at(&off);
	CHECK(ch->addr == 0x04030201 && ch->len == 0 && ch->wanted == 1);
	CHECK(off == used);
}

/* A return plan's words for the return value: args[6] and args[7]. */
static void test_retval(void)
{
	put(BASE + 400, "ret\0", 4);
	memset(args, 0, sizeof(args));
	args[6] = BASE + 400;
	args[7] = 3;
	struct plan_op plan[] = { op(PLAN_ARG, 0, 0, PLAN_ARG_RET0),
				  op(PLAN_ARG, 1, 0, PLAN_ARG_RET1),
				  op(PLAN_CSTR, 0, 0, 64),
				  op(PLAN_MEM, 0, 0, 64),
				  op(PLAN_END, 0, 0, 0) };
	plan[3].len = 1;
	uint64_t used = run(plan, NULL, sizeof(outbuf));
	uint64_t off = 0;
	CHUNK(chunk_at(&off), BASE + 400, 4, 4);
	CHUNK(chunk_at(&off), BASE + 400, 3, 3);
	CHECK(off == used);
	args[6] = args[7] = 0;
}

static void test_xmm(void)
{
	unsigned char x[128];
	for (int i = 0; i < 128; i++)
		x[i] = (unsigned char)(i + 1);
	struct plan_op plan[] = { op(PLAN_FPR, 0, 0, 0),
				  op(PLAN_END, 0, 0, 0) };
	uint64_t used = run(plan, x, sizeof(outbuf));
	const struct plan_chunk *ch = (const struct plan_chunk *)outbuf;
	CHECK(used == plan_chunk_size(128) && used == plan_bound(plan));
	CHECK(ch->addr == PLAN_FPR_ADDR && ch->len == 128 && ch->wanted == 128);
	CHECK(!memcmp(ch + 1, x, 128));
	used = run(plan, NULL, sizeof(outbuf));
	CHECK(used == sizeof(*ch) && ch->len == 0 && ch->wanted == 128);
}

/* A copy that would pass ROOM is cut and flagged; a chunk whose header
 * does not fit is left out; nothing is written past ROOM. */
static void test_room(void)
{
	args[0] = BASE + 100; /* 300 'y' and a NUL */
	struct plan_op plan[] = { op(PLAN_ARG, 1, 0, 0),
				  op(PLAN_CSTR, 0, 1, 1000),
				  op(PLAN_FIXED, 0, 1, 50),
				  op(PLAN_END, 0, 0, 0) };
	uint64_t used = run(plan, NULL, 16 + 103);
	const struct plan_chunk *ch = (const struct plan_chunk *)outbuf;
	CHECK(used == 16 + 96, "%llu", (unsigned long long)used);
	CHECK(ch->len == 96 && ch->wanted == (1000 | PLAN_CHUNK_CUT));
	CHECK(((unsigned char *)outbuf)[16 + 96] == 0xa5);
	plan[1].a = 96;
	used = run(plan, NULL, 16 + 96 + 16 + 20);
	uint64_t off = 0;
	CHUNK(chunk_at(&off), BASE + 100, 96, 96);
	CHUNK(chunk_at(&off), BASE + 100, 16, 50 | PLAN_CHUNK_CUT);
	CHECK(used == off);
	used = run(plan, NULL, 15);
	CHECK(used == 0 && ((unsigned char *)outbuf)[0] == 0xa5);
}

/* Bad registers and opcodes end a plan; no plan runs past PLAN_MAX_OPS
 * instructions. */
static void test_hostile(void)
{
	struct plan_op plan[100];
	args[0] = BASE + 16;
	for (int i = 0; i < 100; i++)
		plan[i] = op(PLAN_CSTR, 0, 0, 1);
	plan[0] = op(PLAN_ARG, 0, 0, 0);
	uint64_t used = run(plan, NULL, sizeof(outbuf));
	CHECK(used == (PLAN_MAX_OPS - 1) * plan_chunk_size(1));
	CHECK(plan_bound(plan) == used);
	plan[3].src = PLAN_NREGS;
	CHECK(run(plan, NULL, sizeof(outbuf)) == 2 * plan_chunk_size(1));
	CHECK(plan_bound(plan) == 2 * plan_chunk_size(1));
	plan[3] = op(PLAN_LOOP + 1, 0, 0, 0);
	CHECK(run(plan, NULL, sizeof(outbuf)) == 2 * plan_chunk_size(1));
	plan[3] = op(PLAN_MEM, 0, 0, 0); /* A = 0: no bound but the room */
	plan[4] = op(PLAN_END, 0, 0, 0);
	CHECK(plan_bound(plan) == PLAN_UNBOUNDED);
	plan[1] = op(PLAN_ARG, 1, 0, 6 + 1000000); /* far above the stack */
	plan[2] = op(PLAN_FIXED, 0, 0, 0xffffffffu);
	plan[3].len = 1;
	used = run(plan, NULL, 4096);
	uint64_t off = 0;
	const struct plan_chunk *ch = chunk_at(&off);
	CHECK(ch->len == 4096 - 16 &&
	      ch->wanted == (PLAN_LEN_MAX | PLAN_CHUNK_CUT));
	CHECK(used == 4096);
}

/* Whether some chunk of the last run's USED bytes holds [ADDR, ADDR +
 * LEN) as memory has it. */
static int covered(uint64_t used, uint64_t addr, uint32_t len)
{
	uint64_t off = 0;

	while (off < used) {
		const struct plan_chunk *ch = chunk_at(&off);
		if (addr >= ch->addr && addr - ch->addr + len <= ch->len)
			return !memcmp((const char *)(ch + 1) +
					       (addr - ch->addr),
				       mem + (addr - BASE), len);
	}
	return 0;
}

static uint64_t run_cut(const struct plan_op *plan, uint64_t room, int *cut)
{
	memset(outbuf, 0xa5, sizeof(outbuf));
	return plan_run_cut(plan, args, SP, NULL, outbuf, room, fake_copy, NULL,
			    cut);
}

/* PLAN_LOOP over writev's iovecs: each element's string copied, as many
 * as the count register says up to C; the bound is C bodies; a hostile
 * loop (no body, a body past the end or holding a loop, a bad register)
 * ends the plan; a count past PLAN_LOOP_MAX and a full room say cut. */
static void test_loop(void)
{
	uint64_t iov[10] = {
		BASE + 900, 3, BASE + 903, 2,	       HOLE - 2,
		5,	    1, 3,	   BASE + 950, 0xffffffffffULL
	};
	memset(mem, 0, MEMSZ);
	put(BASE + 800, iov, sizeof(iov));
	memcpy(mem + 900, "abcde", 5);
	memcpy(mem + (HOLE - 2 - BASE), "xy", 2);
	memcpy(mem + 950, "long", 4);
	args[0] = BASE + 800;
	args[1] = 4;
	struct plan_op plan[] = {
		op(PLAN_ARG, 0, 0, 0),	  op(PLAN_ARG, 1, 0, 1),
		op(PLAN_FIXED, 0, 0, 80), op(PLAN_LOOP, 2, 0, 3),
		op(PLAN_LOAD, 3, 2, 0),	  op(PLAN_LOAD, 4, 2, 8),
		op(PLAN_MEM, 0, 3, 100),  op(PLAN_END, 0, 0, 0),
	};
	plan[3].len = 1;
	plan[3].b = 16;
	plan[3].c = 5;
	plan[6].len = 4;
	int cut = 0;
	uint64_t used = run_cut(plan, sizeof(outbuf), &cut);
	CHECK(!cut && used <= plan_bound(plan));
	CHECK(plan_bound(plan) ==
	      plan_chunk_size(80) + 5 * plan_chunk_size(100));
	CHECK(covered(used, BASE + 800, 80) && covered(used, BASE + 900, 3) &&
	      covered(used, BASE + 903, 2) && covered(used, HOLE - 2, 2));
	CHECK(!covered(used, BASE + 950, 1)); /* the fifth: past the count */
	/* a count above C: C runs; the fifth string up to A */
	args[1] = UINT64_MAX;
	used = run_cut(plan, sizeof(outbuf), &cut);
	CHECK(!cut && covered(used, BASE + 950, 4) && used <= plan_bound(plan));
	/* a bad array pointer: its words read as zero, nothing copied */
	args[0] = 8;
	used = run_cut(plan, sizeof(outbuf), &cut);
	CHECK(used == sizeof(struct plan_chunk));
	args[0] = BASE + 800;
	/* the room runs out: cut, and the loop stops there */
	used = run_cut(plan, plan_chunk_size(80) + 40, &cut);
	CHECK(cut && used <= plan_chunk_size(80) + 40);
	/* hostile loops end the plan before the loop */
	uint64_t before = plan_chunk_size(80);
	plan[3].a = 0;
	CHECK(run_cut(plan, sizeof(outbuf), &cut) == before && !cut);
	CHECK(plan_bound(plan) == before);
	plan[3].a = PLAN_MAX_OPS; /* past the plan's end */
	CHECK(run_cut(plan, sizeof(outbuf), &cut) == before);
	CHECK(plan_bound(plan) == before);
	plan[3].a = 3;
	plan[5] = op(PLAN_LOOP, 2, 0, 1);
	CHECK(run_cut(plan, sizeof(outbuf), &cut) == before);
	plan[5] = op(PLAN_LOAD, 4, 2, 8);
	plan[4].dst = PLAN_NREGS;
	CHECK(run_cut(plan, sizeof(outbuf), &cut) == before);
	plan[4].dst = 3;
	/* huge lengths: the bound saturates nowhere, is C bodies of A */
	plan[3].c = UINT64_MAX;
	plan[6].a = 0xffffffffu;
	CHECK(plan_bound(plan) ==
	      before + (uint64_t)PLAN_LOOP_MAX * plan_chunk_size(PLAN_LEN_MAX));
	/* a count past PLAN_LOOP_MAX, a body that copies nothing: cut */
	struct plan_op spin[] = {
		op(PLAN_ARG, 1, 0, 1),
		op(PLAN_LOOP, 2, 0, 1),
		op(PLAN_MULADD, 3, 2, 1),
		op(PLAN_END, 0, 0, 0),
	};
	spin[1].len = 1;
	spin[1].c = UINT64_MAX;
	args[1] = PLAN_LOOP_MAX + 1ull;
	CHECK(run_cut(spin, sizeof(outbuf), &cut) == 0 && cut);
	args[1] = 1000;
	CHECK(run_cut(spin, sizeof(outbuf), &cut) == 0 && !cut);
}

/* Random plans over random memory: never past the bound, never past
 * the room, chunks well formed. */
static void test_random(void)
{
	srand(12);
	for (int i = 0; i < MEMSZ; i++)
		mem[i] = (unsigned char)(rand() % 4 ? rand() : 0);
	for (int round = 0; round < 2000; round++) {
		struct plan_op plan[PLAN_MAX_OPS];
		for (int i = 0; i < PLAN_MAX_OPS; i++) {
			plan[i] = op((uint8_t)(1 + rand() % PLAN_LOOP),
				     (uint8_t)(rand() % PLAN_NREGS),
				     (uint8_t)(rand() % PLAN_NREGS),
				     (uint32_t)(rand() % 600));
			plan[i].len = (uint8_t)(rand() % PLAN_NREGS);
			if (plan[i].op == PLAN_LOOP)
				plan[i].a %= 8;
			plan[i].b = BASE + (uint64_t)(rand() % MEMSZ);
			plan[i].c = rand() % 2 ? 0 : (uint64_t)(rand() % 700);
		}
		plan[rand() % PLAN_MAX_OPS].op = PLAN_END;
		for (int i = 0; i < 6; i++)
			args[i] = BASE + (uint64_t)(rand() % MEMSZ);
		uint64_t room = (uint64_t)(rand() % 3000);
		uint64_t bound = plan_bound(plan);
		uint64_t used = run(plan, mem, room);
		CHECK(used <= room &&
		      (bound == PLAN_UNBOUNDED || used <= bound));
		CHECK(((unsigned char *)outbuf)[room] == 0xa5);
		uint64_t off = 0;
		while (off < used) {
			const struct plan_chunk *ch = chunk_at(&off);
			CHECK(ch->len <= (ch->wanted & PLAN_LEN_MAX));
		}
		CHECK(off == used);
		used = run(plan, mem, sizeof(outbuf));
		CHECK(bound == PLAN_UNBOUNDED || used <= bound);
	}
}

int main(void)
{
	test_strings();
	test_mem();
	test_stack_load();
	test_retval();
	test_runs();
	test_xmm();
	test_room();
	test_hostile();
	test_loop();
	test_random();
	CHECK(copies > 0);
	return check_exit();
}
