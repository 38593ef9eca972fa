/* Unit test of sysdeps/linux-gnu/aarch64/fetch.c against the compiler's
 * own AAPCS64: C code calls `cap` through function pointers of many
 * prototypes (mixed integer and float arguments, HFAs, small and large
 * structs, long double, variadic calls, more than the registers hold);
 * `cap`, in assembly, stores x0-x8, sp and v0-v7 as they are at its
 * entry into the aarch64 <sys/user.h> register blocks, then, its
 * caller's stack untouched, calls `inspect`, which fetches every
 * argument from those blocks and the process' own memory and compares
 * the bytes with the values passed.  Return values likewise: `retcap`
 * calls a C function with x8 pointing to a buffer and stores x0, x1 and
 * v0-v3 after it returns.
 *
 * Native aarch64, or on x86_64 under qemu-aarch64:
 *   aarch64-linux-gnu-gcc -Wall -Wextra -g -I ltrace -I lenses \
 *	-I sysdeps/linux-gnu -I sysdeps/linux-gnu/aarch64 \
 *	testsuite/unit/aarch64/test_fetch.c sysdeps/linux-gnu/aarch64/fetch.c \
 *	ltrace/type.c ltrace/expr.c ltrace/xmalloc.c ltrace/error.c
 *   qemu-aarch64 -L /usr/aarch64-linux-gnu ./a.out
 *
 * Exit 0 when every check passes; one stderr line per failure. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/user.h>

#include "../check.h"
#include "callsite.h"
#include "expr.h"
#include "fetch.h"
#include "memsrc.h"
#include "type.h"

struct user_regs_struct g_regs;
struct user_fpsimd_struct g_fp;
void inspect(void);

/* cap: the registers at entry into g_regs/g_fp, then inspect() with the
 * caller's outgoing arguments still in place above sp. */
__asm__(".text\n"
	".global cap\n"
	".type cap, %function\n"
	"cap:\n"
	"	adrp x9, g_regs\n"
	"	add x9, x9, :lo12:g_regs\n"
	"	stp x0, x1, [x9, #0]\n"
	"	stp x2, x3, [x9, #16]\n"
	"	stp x4, x5, [x9, #32]\n"
	"	stp x6, x7, [x9, #48]\n"
	"	str x8, [x9, #64]\n"
	"	mov x10, sp\n"
	"	str x10, [x9, #248]\n"
	"	adrp x9, g_fp\n"
	"	add x9, x9, :lo12:g_fp\n"
	"	stp q0, q1, [x9, #0]\n"
	"	stp q2, q3, [x9, #32]\n"
	"	stp q4, q5, [x9, #64]\n"
	"	stp q6, q7, [x9, #96]\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	mov x29, sp\n"
	"	bl inspect\n"
	"	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".size cap, .-cap\n");

/* retcap(fn, buf): x8 = buf, call fn, then x0-x8 into g_regs and
 * v0-v3 into g_fp. */
__asm__(".text\n"
	".global retcap\n"
	".type retcap, %function\n"
	"retcap:\n"
	"	stp x29, x30, [sp, #-16]!\n"
	"	mov x29, sp\n"
	"	mov x8, x1\n"
	"	blr x0\n"
	"	adrp x9, g_regs\n"
	"	add x9, x9, :lo12:g_regs\n"
	"	stp x0, x1, [x9, #0]\n"
	"	str x8, [x9, #64]\n"
	"	adrp x9, g_fp\n"
	"	add x9, x9, :lo12:g_fp\n"
	"	stp q0, q1, [x9, #0]\n"
	"	stp q2, q3, [x9, #32]\n"
	"	ldp x29, x30, [sp], #16\n"
	"	ret\n"
	".size retcap, .-retcap\n");
void cap(void);
void retcap(void (*fn)(void), void *buf);
/* cap, called through casts to many prototypes: read from a volatile
 * so the compiler treats each call as a call of that prototype. */
static void (*volatile cap_p)(void) = cap;

/* ---- the tracee is this process ---- */

static size_t self_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	(void)m;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return len;
}

static struct memsrc self = { self_read, NULL };
static unsigned fp_reads;

static const void *self_fp(struct callsite *cs)
{
	(void)cs;
	fp_reads++;
	return &g_fp;
}

static struct type_arena arena;

static struct type *basic(enum type_kind k)
{
	return type_basic(&arena, k);
}

/* A struct of N members of kind K. */
static struct type *strukt(unsigned n, const enum type_kind *k)
{
	struct type *t = type_new(&arena, TYPE_STRUCT);

	for (unsigned i = 0; i < n; i++)
		type_add_field(t, basic(k[i]));
	return t;
}

static struct type *array(enum type_kind k, long n)
{
	return type_array(&arena, basic(k),
			  expr_new(&arena, EXPR_NUM, n, NULL));
}

/* ---- arguments ---- */

#define MAXARG 24

/* What inspect() expects: the types of the call and where their values
 * are (each compared over its type's size). */
struct want {
	const char *name;
	unsigned n;
	struct type *t[MAXARG];
	const void *v[MAXARG];
};

static const struct want *want;
static unsigned inspected;

void inspect(void)
{
	struct callsite cs = { .mem = &self,
			       .regs = &g_regs,
			       .fpregs = self_fp,
			       .at_entry = true };
	struct fetch_ctx *f = fetch_begin(&cs, basic(TYPE_VOID), false);
	unsigned char buf[128];

	inspected++;
	for (unsigned i = 0; i < want->n; i++) {
		size_t sz = type_sizeof(want->t[i]);
		CHECK(fetch_bufsize(want->t[i]) <= sizeof(buf));
		memset(buf, 0x5a, sizeof(buf));
		int rc = fetch_arg(f, &cs, want->t[i], buf);
		CHECK(rc == 0, "%s: arg %u: rc %d", want->name, i + 1, rc);
		CHECK(!memcmp(buf, want->v[i], sz),
		      "%s: arg %u: %02x%02x%02x%02x.. differs", want->name,
		      i + 1, buf[0], buf[1], buf[2], buf[3]);
	}
	fetch_free(f);
}

#define ARG(w, T, val, kind)             \
	do {                             \
		static T v_;             \
		v_ = (val);              \
		(w)->t[(w)->n] = (kind); \
		(w)->v[(w)->n++] = &v_;  \
	} while (0)

/* int, long, pointer, double, float, long double, char: interleaved
 * x and v registers. */
static void test_mixed(void)
{
	static struct want w = { .name = "mixed" };
	static char s[] = "str";

	ARG(&w, int, -7, basic(TYPE_INT));
	ARG(&w, double, 2.5, basic(TYPE_DOUBLE));
	ARG(&w, long, 1L << 40, basic(TYPE_LONG));
	ARG(&w, float, 0.125f, basic(TYPE_FLOAT));
	ARG(&w, char *, s, basic(TYPE_POINTER));
	ARG(&w, long double, 1.0L / 3, basic(TYPE_LDOUBLE));
	ARG(&w, char, 'x', basic(TYPE_CHAR));
	want = &w;
	((void (*)(int, double, long, float, char *, long double, char))cap_p)(
		-7, 2.5, 1L << 40, 0.125f, s, 1.0L / 3, 'x');
}

/* Ten ints and ten doubles alternating: the ninth of each kind goes to
 * the stack, in argument order, 8 bytes a slot. */
static void test_overflow(void)
{
	static struct want w = { .name = "overflow" };

	static int iv[10];
	static double dv[10];

	for (int i = 0; i < 10; i++) {
		iv[i] = 100 + i;
		dv[i] = i + 0.5;
		w.t[w.n] = basic(TYPE_INT), w.v[w.n++] = &iv[i];
		w.t[w.n] = basic(TYPE_DOUBLE), w.v[w.n++] = &dv[i];
	}
	want = &w;
	((void (*)(int, double, int, double, int, double, int, double, int,
		   double, int, double, int, double, int, double, int, double,
		   int, double))cap_p)(100, 0.5, 101, 1.5, 102, 2.5, 103, 3.5,
				       104, 4.5, 105, 5.5, 106, 6.5, 107, 7.5,
				       108, 8.5, 109, 9.5);
}

struct f3 {
	float a, b, c;
};
struct d2 {
	double d[2];
};
struct ld2 {
	long double x, y;
};
struct d4 {
	double a, b, c, d;
};

/* HFAs in v registers; one that no longer fits goes to the stack and
 * takes the remaining v registers with it: the double after it is on
 * the stack too. */
static void test_hfa(void)
{
	static const enum type_kind f3k[] = { TYPE_FLOAT, TYPE_FLOAT,
					      TYPE_FLOAT };
	static const enum type_kind ld2k[] = { TYPE_LDOUBLE, TYPE_LDOUBLE };
	static const enum type_kind d4k[] = { TYPE_DOUBLE, TYPE_DOUBLE,
					      TYPE_DOUBLE, TYPE_DOUBLE };
	static struct want w = { .name = "hfa" };
	static struct f3 f3 = { 1.5f, -2.0f, 3.25f };
	static struct d2 d2 = { { 7.0, 8.0 } };
	static struct ld2 ld2 = { 0.1L, 0.2L };
	static struct d4 d4 = { 1, 2, 3, 4 };
	static double after = 9.75;
	static int i1 = 11;

	struct type *d2t = type_new(&arena, TYPE_STRUCT);
	type_add_field(d2t, array(TYPE_DOUBLE, 2));
	w.t[0] = strukt(3, f3k), w.v[0] = &f3;	      /* v0-v2 */
	w.t[1] = d2t, w.v[1] = &d2;		      /* v3-v4 */
	w.t[2] = basic(TYPE_INT), w.v[2] = &i1;	      /* w0 */
	w.t[3] = strukt(2, ld2k), w.v[3] = &ld2;      /* q5-q6 */
	w.t[4] = strukt(4, d4k), w.v[4] = &d4;	      /* stack: 1 v left */
	w.t[5] = basic(TYPE_DOUBLE), w.v[5] = &after; /* stack */
	w.n = 6;
	want = &w;
	((void (*)(struct f3, struct d2, int, struct ld2, struct d4,
		   double))cap_p)(f3, d2, 11, ld2, d4, 9.75);
}

struct s8 {
	int a;
	char b;
};
struct s16 {
	long a, b;
};
struct s12 {
	int a, b, c;
};
struct big {
	long a, b, c;
};

/* Composites up to 16 bytes in x registers; a 16-byte one that does not
 * fit (x7 left) goes to the stack and the int after it too; a 24-byte
 * one by reference, first in a register, then as a stack pointer. */
static void test_composites(void)
{
	static const enum type_kind s8k[] = { TYPE_INT, TYPE_CHAR };
	static const enum type_kind s16k[] = { TYPE_LONG, TYPE_LONG };
	static const enum type_kind s12k[] = { TYPE_INT, TYPE_INT, TYPE_INT };
	static const enum type_kind bigk[] = { TYPE_LONG, TYPE_LONG,
					       TYPE_LONG };
	static struct want w = { .name = "composites" };
	static struct s8 s8 = { 0x11223344, 'q' };
	static struct s16 s16 = { -1, 0x123456789 };
	static struct s12 s12 = { 5, 6, 7 };
	static struct big big1 = { 1, 2, 3 }, big2 = { -4, -5, -6 };
	static int i1 = 1, i2 = 2;

	w.t[0] = strukt(2, s8k), w.v[0] = &s8;	  /* x0 */
	w.t[1] = strukt(2, s16k), w.v[1] = &s16;  /* x1-x2 */
	w.t[2] = strukt(3, bigk), w.v[2] = &big1; /* x3 -> copy */
	w.t[3] = strukt(3, s12k), w.v[3] = &s12;  /* x4-x5 */
	w.t[4] = basic(TYPE_INT), w.v[4] = &i1;	  /* x6 */
	w.t[5] = strukt(2, s16k), w.v[5] = &s16;  /* stack (x7 left) */
	w.t[6] = basic(TYPE_INT), w.v[6] = &i2;	  /* stack */
	w.t[7] = strukt(3, bigk), w.v[7] = &big2; /* stack -> copy */
	w.n = 8;
	want = &w;
	((void (*)(struct s8, struct s16, struct big, struct s12, int,
		   struct s16, int, struct big))cap_p)(s8, s16, big1, s12, 1,
						       s16, 2, big2);
}

/* Variadic arguments follow the named rules on Linux: doubles after a
 * format in v registers, long double in q, the ninth double on the
 * stack, and a long double on the stack 16-aligned. */
static void test_variadic(void)
{
	static struct want w = { .name = "variadic" };
	static const char *fmt = "fmt";

	w.t[0] = basic(TYPE_POINTER), w.v[0] = &fmt, w.n = 1;
	ARG(&w, int, 42, basic(TYPE_INT));
	static double dv[7];

	for (int i = 0; i < 7; i++) {
		dv[i] = i * 1.25;
		w.t[w.n] = basic(TYPE_DOUBLE), w.v[w.n++] = &dv[i];
	}
	ARG(&w, long double, -2.75L, basic(TYPE_LDOUBLE)); /* q7 */
	ARG(&w, double, 99.0, basic(TYPE_DOUBLE));	   /* [sp] */
	ARG(&w, long double, 1e300L * 1e300L, basic(TYPE_LDOUBLE));
	ARG(&w, double, 0.5f, basic(TYPE_DOUBLE)); /* promoted */
	want = &w;
	((void (*)(const char *, ...))cap_p)(fmt, 42, 0 * 1.25, 1 * 1.25,
					     2 * 1.25, 3 * 1.25, 4 * 1.25,
					     5 * 1.25, 6 * 1.25, -2.75L, 99.0,
					     1e300L * 1e300L, 0.5f);
}

/* Floats on the stack take 8 bytes each. */
static void test_stack_floats(void)
{
	static struct want w = { .name = "stack floats" };

	static float fv[11];

	for (int i = 0; i < 11; i++) {
		fv[i] = i + 0.25f;
		w.t[w.n] = basic(TYPE_FLOAT), w.v[w.n++] = &fv[i];
	}
	ARG(&w, char, 'z', basic(TYPE_CHAR));
	want = &w;
	((void (*)(float, float, float, float, float, float, float, float,
		   float, float, float, char))cap_p)(0.25f, 1.25f, 2.25f, 3.25f,
						     4.25f, 5.25f, 6.25f, 7.25f,
						     8.25f, 9.25f, 10.25f, 'z');
}

/* A v-register argument fetched at the return stop without a snapshot at
 * entry: -1, and the bytes zero; with want_fp the entry's are kept. */
static void test_lazy_fp(void)
{
	struct callsite cs = { .mem = &self,
			       .regs = &g_regs,
			       .fpregs = self_fp,
			       .at_entry = true };
	unsigned char buf[16];
	double d = 6.5, late = -1;

	memset(&g_fp, 0, sizeof(g_fp));
	memcpy(&g_fp.vregs[0], &d, 8);
	fp_reads = 0;
	struct fetch_ctx *f = fetch_begin(&cs, basic(TYPE_VOID), false);
	CHECK(fp_reads == 0, "fpregs read before any float");
	struct fetch_ctx *g = fetch_begin(&cs, basic(TYPE_VOID), true);
	CHECK(fp_reads == 1);
	memcpy(&g_fp.vregs[0], &late, 8); /* the callee changed v0 */
	cs.at_entry = false;
	memset(buf, 0x5a, sizeof(buf));
	CHECK(fetch_arg(f, &cs, basic(TYPE_DOUBLE), buf) == -1);
	CHECK(!memcmp(buf, (char[16]){ 0 }, 16), "bytes not zeroed");
	CHECK(fetch_arg(g, &cs, basic(TYPE_DOUBLE), buf) == 0);
	CHECK(!memcmp(buf, &d, 8), "entry v0 not kept");
	fetch_free(f);
	fetch_free(g);
}

/* ---- return values ---- */

static long r_long(void)
{
	return -123456789012L;
}
static double r_double(void)
{
	return 3.5;
}
static float r_float(void)
{
	return -0.75f;
}
static long double r_ldouble(void)
{
	return 1.0L / 7;
}
static struct f3 r_f3(void)
{
	return (struct f3){ 1, 2, 3 };
}
static struct ld2 r_ld2(void)
{
	return (struct ld2){ 5.5L, -6.5L };
}
static struct s12 r_s12(void)
{
	return (struct s12){ 10, 20, 30 };
}
static struct big r_big(void)
{
	return (struct big){ 7, 8, 9 };
}

/* Call FN (returning a value of type T, like WANT) and fetch its value:
 * entry registers have x8 = the result buffer; the return stop's x8 is
 * garbage, as the callee may leave it. */
static void check_ret(const char *name, void *fn, struct type *t,
		      const void *want_v, bool by_x8)
{
	static unsigned char res[64] __attribute__((aligned(16)));
	unsigned char buf[128];
	struct callsite cs = { .mem = &self,
			       .regs = &g_regs,
			       .fpregs = self_fp,
			       .at_entry = true };

	memset(&g_regs, 0, sizeof(g_regs));
	g_regs.regs[8] = (uintptr_t)res;
	struct fetch_ctx *f = fetch_begin(&cs, t, false);
	retcap((void (*)(void))fn, res);
	g_regs.regs[8] = 0xdead0;
	cs.at_entry = false;
	memset(buf, 0x5a, sizeof(buf));
	int rc = fetch_retval(f, &cs, t, buf);
	CHECK(rc == 0, "%s: rc %d", name, rc);
	CHECK(!memcmp(buf, want_v, type_sizeof(t)), "%s: value differs", name);
	fetch_free(f);
	/* begun at the return stop: x8 of the entry is unknown */
	if (by_x8) {
		f = fetch_begin(&cs, t, false);
		CHECK(fetch_retval(f, &cs, t, buf) == -1,
		      "%s: x8 used though unknown", name);
		fetch_free(f);
	}
}

static void test_retval(void)
{
	static const enum type_kind f3k[] = { TYPE_FLOAT, TYPE_FLOAT,
					      TYPE_FLOAT };
	static const enum type_kind ld2k[] = { TYPE_LDOUBLE, TYPE_LDOUBLE };
	static const enum type_kind s12k[] = { TYPE_INT, TYPE_INT, TYPE_INT };
	static const enum type_kind bigk[] = { TYPE_LONG, TYPE_LONG,
					       TYPE_LONG };
	long l = r_long();
	double d = r_double();
	float fl = r_float();
	long double ld = r_ldouble();
	struct f3 f3 = r_f3();
	struct ld2 ld2 = r_ld2();
	struct s12 s12 = r_s12();
	struct big big = r_big();

	check_ret("long", r_long, basic(TYPE_LONG), &l, false);
	check_ret("double", r_double, basic(TYPE_DOUBLE), &d, false);
	check_ret("float", r_float, basic(TYPE_FLOAT), &fl, false);
	check_ret("long double", r_ldouble, basic(TYPE_LDOUBLE), &ld, false);
	check_ret("hfa f3", r_f3, strukt(3, f3k), &f3, false);
	check_ret("hfa ld2", r_ld2, strukt(2, ld2k), &ld2, false);
	check_ret("s12", r_s12, strukt(3, s12k), &s12, false);
	check_ret("big", r_big, strukt(3, bigk), &big, true);
}

int main(void)
{
	void (*tests[])(void) = { test_mixed,	 test_overflow,
				  test_hfa,	 test_composites,
				  test_variadic, test_stack_floats };

	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		unsigned before = inspected;
		tests[i]();
		CHECK(inspected == before + 1, "case %zu not inspected", i);
	}
	test_lazy_fp();
	test_retval();
	type_arena_destroy(&arena);
	return check_exit();
}
