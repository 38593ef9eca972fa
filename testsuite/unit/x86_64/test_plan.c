/* Unit test of the fetch plans: for prototypes parsed by the real conf
 * parser (a test config and etc/libc.so.conf), each call is formatted
 * twice through the real calltext and lenses, once over a fake program
 * memory (what a ptrace stop sees) and once from a record: the compiled
 * plan run by recorder/planrun.h over the same memory, read back through
 * recmem.  The two texts must be byte-identical, with no plan miss.  The
 * memory is random but shaped (words that point into it, small numbers,
 * text with NULs, an unreadable hole), and so are the arguments, so that
 * strings end before, at and after -s, arrays are longer than -A, and
 * pointers lead to the hole.  Prototypes a plan cannot express are
 * refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "callsite.h"
#include "calltext.h"
#include "../check.h"
#include "conf.h"
#include "lens.h"
#include "memsrc.h"
#include "fetchplan.h"
#include "protolib.h"
#include "recmem.h"
#include "recorder/planrun.h"
#include "strbuf.h"
#include "type.h"

#define BASE 0x10000ULL
#define MEMSZ 16384
#define HOLE (BASE + 8192) /* [HOLE, HOLE_END) cannot be read */
#define HOLE_END (HOLE + 4096)
#define STACK (BASE + MEMSZ - 512) /* rsp at entry */

static unsigned char mem[MEMSZ];

static bool readable(uint64_t a)
{
	return a >= BASE && a < BASE + MEMSZ && !(a >= HOLE && a < HOLE_END);
}

static size_t span(uint64_t addr, void *buf, size_t len)
{
	size_t n = 0;

	while (n < len && readable(addr + n)) {
		((unsigned char *)buf)[n] = mem[addr + n - BASE];
		n++;
	}
	return n;
}

static size_t fake_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	(void)m;
	return span(addr, buf, len);
}

static uint64_t fake_copy(void *ctx, uint64_t addr, void *dst, uint64_t len)
{
	(void)ctx;
	return span(addr, dst, len);
}

static struct memsrc fake_mem = { .read = fake_read };
static struct user_regs_struct regs;
static struct user_fpregs_struct fpregs;

static const void *get_fp(struct callsite *cs)
{
	(void)cs;
	return &fpregs;
}

/* A readable address, now and then one just before the hole. */
static uint64_t some_addr(void)
{
	if (rand() % 8 == 0)
		return HOLE - 1 - (uint64_t)(rand() % 40);
	uint64_t a;
	do
		a = BASE + (uint64_t)(rand() % MEMSZ);
	while (!readable(a));
	return a;
}

static uint64_t some_word(void)
{
	switch (rand() % 10) {
	case 0:
		return 0;
	case 1:
		return (uint64_t)(rand() % 12);
	case 2:
		return 0xffffffffULL; /* an int -1 */
	case 3:
		return 0xdeadbeef00000000ULL | (uint64_t)(rand() % 9);
	case 4:
		return HOLE + 8;
	default:
		return some_addr();
	}
}

/* Words that point into the memory, small numbers, text with NULs. */
static void shape_memory(void)
{
	for (size_t i = 0; i < MEMSZ; i += 8) {
		int k = rand() % 10;
		uint64_t w = k < 3 ? some_addr() :
			     k < 5 ? (uint64_t)(rand() % 40) :
				     0;
		memcpy(mem + i, &w, 8);
		if (k < 5)
			continue;
		for (size_t j = 0; j < 8; j++)
			mem[i + j] = rand() % 30 ? 'a' + rand() % 26 : 0;
		if (k == 9)
			memset(mem + i, 0, 8);
	}
}

static void shape_call(void)
{
	unsigned long long *gp[] = { &regs.rdi, &regs.rsi, &regs.rdx,
				     &regs.rcx, &regs.r8,  &regs.r9 };

	memset(&regs, 0, sizeof(regs));
	regs.rsp = STACK;
	for (unsigned i = 0; i < 6; i++)
		*gp[i] = some_word();
	for (unsigned i = 0; i < 16; i++) {
		uint64_t w = some_word();
		memcpy(mem + (STACK - BASE) + 8 + 8 * i, &w, 8);
	}
	for (unsigned i = 0; i < 8; i++) {
		double d = (rand() % 2000 - 1000) / 8.0;
		memcpy(&fpregs.xmm_space[4 * i], &d, 8);
	}
}

/* The text of the entry of P at a "ptrace stop" over the memory. */
static char *text_direct(const struct lens_limits *l, const struct prototype *p)
{
	struct callsite cs = { &fake_mem, &regs, get_fp, true, 0, 0, 0 };
	struct strbuf sb;

	strbuf_init(&sb);
	calltext_free(calltext_entry(l, p, &cs, &sb));
	return sb.s ? sb.s : strdup("");
}

static struct user_fpregs_struct rec_fp;

static const void *rec_fpregs(struct callsite *cs)
{
	struct recmem *m = (struct recmem *)cs->mem;

	memset(&rec_fp, 0, sizeof(rec_fp));
	return recmem_fpr(m, rec_fp.xmm_space) ? &rec_fp : NULL;
}

/* The largest record of the recorder's (reclayout.c). */
#define RECORD_ROOM (1u << 20)

/* Whether the last record was cut at its room (the recorder would hand
 * it over to be read at a stop: REC_CALL_LIVE), and whether that may be. */
static int last_cut, may_cut;

/* Run PLAN as the recorder would, into a record of its bound (at most
 * a record's room: the calls here fit in it, or the check fails, unless
 * MAY_CUT). */
static void *record(const struct fetch_plan *plan, uint64_t *size)
{
	uint64_t args[8] = { regs.rdi, regs.rsi, regs.rdx,
			     regs.rcx, regs.r8,	 regs.r9 };
	uint64_t room = plan->bound < RECORD_ROOM ? plan->bound : RECORD_ROOM;
	void *out = aligned_alloc(8, (room + 7) / 8 * 8 + 8);
	int cut = 0;

	*size = plan_run_cut(plan->ops, args, regs.rsp, fpregs.xmm_space, out,
			     room, fake_copy, NULL, &cut);
	CHECK(!cut || may_cut);
	last_cut |= cut;
	return out;
}

/* The text of the same entry from the record: registers that the
 * recorder keeps only, memory and xmm from the chunks. */
static char *text_recorded(const struct lens_limits *l,
			   const struct prototype *p,
			   const struct fetch_plan *plan, unsigned long *misses)
{
	uint64_t size;
	void *rec = record(plan, &size);
	struct recmem rm;
	struct user_regs_struct r;
	struct strbuf sb;

	memset(&r, 0x5c, sizeof(r)); /* what the record does not hold */
	r.rdi = regs.rdi, r.rsi = regs.rsi, r.rdx = regs.rdx;
	r.rcx = regs.rcx, r.r8 = regs.r8, r.r9 = regs.r9, r.rsp = regs.rsp;
	recmem_init(&rm, rec, size);
	struct callsite cs = { &rm.mem, &r, rec_fpregs, true, 0, 0, 0 };
	strbuf_init(&sb);
	calltext_free(calltext_entry(l, p, &cs, &sb));
	*misses = rm.misses;
	free(rec);
	return sb.s ? sb.s : strdup("");
}

/* The registers and xmm0 at the return (the record holds no more). */
static struct user_regs_struct rregs;
static struct user_fpregs_struct ret_fp;

static const void *get_ret_fp(struct callsite *cs)
{
	(void)cs;
	return &ret_fp;
}

/* Run the return plan RPLAN as the recorder would at the return, with
 * the entry's argument registers and the return value's. */
static void *record_return(const struct fetch_plan *rplan, uint64_t *size)
{
	uint64_t args[8] = { regs.rdi, regs.rsi, regs.rdx,  regs.rcx,
			     regs.r8,  regs.r9,	 rregs.rax, rregs.rdx };
	void *out = aligned_alloc(8, (rplan->bound + 7) / 8 * 8 + 8);

	*size = plan_run(rplan->ops, args, regs.rsp, NULL, out, rplan->bound,
			 fake_copy, NULL);
	return out;
}

/* ENTRY's text, then MORE and RET of the return: one line. */
static char *whole(const struct strbuf *entry, const struct strbuf *more,
		   const struct strbuf *ret)
{
	struct strbuf sb;

	strbuf_init(&sb);
	strbuf_addstr(&sb, entry->s ? entry->s : "");
	strbuf_addstr(&sb, " |");
	strbuf_addstr(&sb, more->s ? more->s : "");
	strbuf_addstr(&sb, "| = ");
	strbuf_addstr(&sb, ret->s ? ret->s : "");
	return sb.s;
}

/* A whole call of P, entry and return, both ways: *DIRECT at "ptrace
 * stops" over the memory, *RECORDED from the records the plans make at
 * the entry and at the return.  Between the two, the call returns
 * random registers and, when it WRITES, changes the memory. */
static void call_both_ways(const struct lens_limits *l,
			   const struct prototype *p,
			   const struct fetch_plan *plan,
			   const struct fetch_plan *rplan, bool writes,
			   char **direct, char **recorded,
			   unsigned long *misses)
{
	struct strbuf e1, m1, r1, e2, m2, r2;
	uint64_t size, rsize;

	strbuf_init(&e1), strbuf_init(&m1), strbuf_init(&r1);
	strbuf_init(&e2), strbuf_init(&m2), strbuf_init(&r2);
	void *rec = record(plan, &size);
	struct callsite cs = { &fake_mem, &regs, get_fp, true, 0, 0, 0 };
	struct calltext *ct = calltext_entry(l, p, &cs, &e1);
	if (writes)
		shape_memory();
	memset(&rregs, 0, sizeof(rregs));
	rregs.rax = some_word();
	rregs.rdx = some_word();
	rregs.rsp = regs.rsp + 8;
	memset(&ret_fp, 0, sizeof(ret_fp));
	double d = (rand() % 2000 - 1000) / 4.0;
	memcpy(&ret_fp.xmm_space[0], &d, 8);
	void *rrec = record_return(rplan, &rsize);
	struct callsite rcs = { &fake_mem, &rregs, get_ret_fp, false, 0, 0, 0 };
	calltext_return(ct, &rcs, &m1, &r1);
	*direct = whole(&e1, &m1, &r1);

	struct recmem rm, rrm;
	struct user_regs_struct r, rr;
	memset(&r, 0x5c, sizeof(r)); /* what the record does not hold */
	r.rdi = regs.rdi, r.rsi = regs.rsi, r.rdx = regs.rdx;
	r.rcx = regs.rcx, r.r8 = regs.r8, r.r9 = regs.r9, r.rsp = regs.rsp;
	recmem_init(&rm, rec, size);
	struct callsite cs2 = { &rm.mem, &r, rec_fpregs, true, 0, 0, 0 };
	ct = calltext_entry(l, p, &cs2, &e2);
	memset(&rr, 0, sizeof(rr));
	rr.rax = rregs.rax, rr.rdx = rregs.rdx, rr.rsp = rregs.rsp;
	recmem_init(&rrm, rrec, rsize);
	struct callsite rcs2 = { &rrm.mem, &rr, get_ret_fp, false, 0, 0, 0 };
	calltext_return(ct, &rcs2, &m2, &r2);
	*recorded = whole(&e2, &m2, &r2);
	*misses = rm.misses + rrm.misses;
	free(rec);
	free(rrec);
	strbuf_destroy(&e1), strbuf_destroy(&m1), strbuf_destroy(&r1);
	strbuf_destroy(&e2), strbuf_destroy(&m2), strbuf_destroy(&r2);
}

static const struct lens_limits limits[] = {
	{ 32, 4, 0 }, { 3, 1, 0 }, { 0, 0, 0 }, { 100, 6, 0 }, { 9, 2, 0 },
};

static unsigned compared, nonempty, cut, rplans;

/* NAME formatted both ways, TRIALS random calls per limits. */
static void same_both_ways_at(const struct protolib *pl, const char *name,
			      int trials, size_t nlimits)
{
	const struct prototype *p = protolib_lookup(pl, name);

	CHECK(p != NULL, "%s", name);
	for (size_t li = 0; p && li < nlimits; li++) {
		struct fetch_plan plan, rplan;
		const char *why;
		if (plan_compile(p, &limits[li], &plan, &rplan, &why) < 0) {
			FAIL("%s -s %zu -A %zu: refused: %s", name,
			     limits[li].strlen, limits[li].arraylen, why);
			return;
		}
		CHECK(plan.bound != PLAN_UNBOUNDED &&
		      rplan.bound != PLAN_UNBOUNDED);
		rplans += rplan.bound > 0;
		for (int t = 0; t < trials; t++) {
			unsigned long misses;
			char *a, *b;
			shape_call();
			call_both_ways(&limits[li], p, &plan, &rplan, t % 2, &a,
				       &b, &misses);
			if (!check_str(__FILE__, __LINE__, name, b, a) ||
			    misses)
				FAIL("%s -s %zu -A %zu: %lu misses [%s]", name,
				     limits[li].strlen, limits[li].arraylen,
				     misses, a);
			compared++;
			nonempty += strchr(a, '"') || strchr(a, '{');
			cut += strstr(a, "...") != NULL;
			free(a);
			free(b);
		}
	}
}

static void same_both_ways(const struct protolib *pl, const char *name,
			   int trials)
{
	same_both_ways_at(pl, name, trials, sizeof(limits) / sizeof(*limits));
}

static void refused_at(const struct protolib *pl, const char *name,
		       const char *want_why, const struct lens_limits *l)
{
	const struct prototype *p = protolib_lookup(pl, name);
	struct fetch_plan plan, rplan;
	const char *why = NULL;

	CHECK(p != NULL, "%s", name);
	if (!p)
		return;
	CHECK(plan_compile(p, l, &plan, &rplan, &why) < 0, "%s", name);
	CHECK(why && strstr(why, want_why), "%s: [%s] want [%s]", name,
	      why ? why : "(null)", want_why);
}

static void refused(const struct protolib *pl, const char *name,
		    const char *want_why)
{
	refused_at(pl, name, want_why, &limits[0]);
}

static const struct lens_limits wide = { 32, 30, 0 };

static const char conf[] =
	"int f_str(string);\n"
	"int f_arr(array(int, arg2)*, int);\n"
	"typedef pt = struct(int, int);\n"
	"int f_pt(pt*, array(pt, 3)*);\n"
	"typedef node = struct;\n"
	"typedef node = struct(int, node*);\n"
	"int ll(node*);\n"
	"double scale(double, float, string);\n"
	"int many(int, int, int, int, int, int, string, long, pt*, "
	"string[arg8]);\n"
	"int f_sp(pt, struct(long, long, long), string);\n"
	"int g_sa(array(string, zero)*, int);\n"
	"int g_sarr(struct(ulong, string[elt1])*);\n"
	"int g_in(struct(int, string, hex(long))*);\n"
	"int g_pp(string*, string**);\n"
	"int g_wide(string(array(uint, zero)*), string(array(ushort, 3)*), "
	"string(int*));\n"
	"int g_bvp(bitvec(array(char, 2)*), bitvec(struct(uint, uint)));\n"
	"int g_ip(int*, addr, void*);\n"
	"typedef iovec = struct(string(array(char, elt2)*), ulong);\n"
	"long g_iov(int, array(iovec, arg3)*, int);\n"
	"typedef dirent = struct(ulong, hide(long), hide(ushort), hide(char), "
	"string(array(char, zero(256))));\n"
	"int g_dirent(dirent*);\n"
	"int g_hexarr(hex(array(uint, arg2))*, ulong);\n"
	"int g_en(enum(A, B=5), bool(int*), array(char, zero(arg3))*, long);\n"
	"int g_n(string(array(char, arg2)*), int, array(long, 2));\n"
	"int g_split(string, +int, +long);\n"
	"int g_zs(string(array(char, zero(arg2))*), ulong);\n"
	"typedef tree = struct;\n"
	"typedef tree = struct(int, tree*, tree*);\n"
	"int g_tree(tree*);\n"
	"int g_sv(struct(string, long), struct(long, string, long), "
	"struct(array(string, 2)));\n"
	"int g_ps(string(array(char, arg2))*, long, "
	"string(array(ushort, zero))*, array(pt, zero(arg2))*);\n"
	/* shown at the return */
	"int g_out(int, +string);\n"
	"string g_rs(int);\n"
	"int g_rn(string[retval]);\n"
	"long g_rl(+string[retval]);\n"
	"long g_rl2(ulong, +array(int, retval)*, +string(array(char, arg1))*);\n"
	"pt* g_rpt(+pt*, string);\n"
	"struct(long, double) g_rsd(+array(string, 2)*);\n"
	/* refused */
	"int printf(format);\n"
	"int g_dyn(struct(ulong, array(int, elt1), int)*);\n"
	"ldouble g_ld(double);\n"
	"struct(long, long, long) g_big(long);\n"
	"struct(string, long) g_sr(long);\n"
	"int g_os(long, long, long, long, long, long, +string);\n";

static const char *const mine[] = {
	"f_str", "f_arr",   "f_pt",   "ll",	  "scale",    "many",
	"f_sp",	 "g_sa",    "g_sarr", "g_in",	  "g_pp",     "g_wide",
	"g_bvp", "g_ip",    "g_iov",  "g_dirent", "g_hexarr", "g_en",
	"g_n",	 "g_split", "g_zs",   "g_sv",	  "g_ps",     "g_out",
	"g_rs",	 "g_rl",    "g_rl2",  "g_rpt",	  "g_rsd",    "g_rn",
};

static const char *const libc[] = {
	"strlen", "memcpy", "write",  "writev",	 "fopen",	"strncpy",
	"setenv", "strcpy", "memset", "qsort",	 "getaddrinfo", "puts",
	"strcmp", "open",   "fwrite", "sendto",	 "pread64",	"read",
	"getenv", "strchr", "stat",   "readdir", "statx",	"fgets",
};

static void test_mine(const struct protolib *pl)
{
	for (size_t i = 0; i < sizeof(mine) / sizeof(*mine); i++)
		same_both_ways(pl, mine[i], 150);
	/* a tree is unrolled -A deep: within a plan up to -A 4 */
	same_both_ways_at(pl, "g_tree", 150, 3);
}

static void test_refused(const struct protolib *pl)
{
	refused(pl, "printf", "printf-style");
	refused(pl, "g_dyn", "variable-length");
	refused(pl, "g_ld", "return value");
	refused(pl, "g_big", "return value");
	refused(pl, "g_sr", "return value");
	refused(pl, "g_os", "on the stack");
	/* unrolled -A deep: more than a plan holds */
	refused_at(pl, "g_tree", "more", &wide);
}

/* An array of structs is one loop (PLAN_LOOP), not one body per
 * element: -A 9999999 fits a plan, and the calls format the same both
 * ways, with -A 30 (the iovecs shown whole) and -A 9999999. */
static void test_loop(const struct protolib *pl)
{
	static const struct lens_limits huge = { 9999999, 9999999, 0 };
	const struct prototype *p = protolib_lookup(pl, "g_iov");
	const struct lens_limits *ls[] = { &wide, &huge };
	struct fetch_plan plan, rplan;
	const char *why = NULL;
	unsigned live = 0, same = 0;

	may_cut = 1;
	for (size_t i = 0; p && i < 2; i++) {
		CHECK(plan_compile(p, ls[i], &plan, &rplan, &why) == 0, "%s",
		      why ? why : "");
		size_t loops = 0;
		for (size_t k = 0; k < plan.nops; k++)
			loops += plan.ops[k].op == PLAN_LOOP;
		CHECK(loops == 1 && plan.nops < 16, "%zu ops", plan.nops);
		for (int t = 0; t < 150; t++) {
			unsigned long misses;
			char *a, *b;
			shape_call();
			last_cut = 0;
			call_both_ways(ls[i], p, &plan, &rplan, t % 2, &a, &b,
				       &misses);
			live += last_cut;
			same += !last_cut;
			if (!last_cut &&
			    (!check_str(__FILE__, __LINE__, "g_iov", b, a) ||
			     misses))
				FAIL("g_iov -A %zu: %lu misses [%s]",
				     ls[i]->arraylen, misses, a);
			compared++;
			free(a);
			free(b);
		}
	}
	may_cut = 0;
	/* a random count of random iovecs passes 1 MiB now and then */
	CHECK(same > 200, "%u formatted from records, %u too big", same, live);
}

static void test_libc(void)
{
	struct protolib *pl = protolib_new();
	const char *path = "etc/libc.so.conf";

	if (conf_load_file(pl, path) < 0) {
		FAIL("%s cannot be read", path);
		protolib_free(pl);
		return;
	}
	for (size_t i = 0; i < sizeof(libc) / sizeof(*libc); i++)
		same_both_ways(pl, libc[i], 150);
	refused(pl, "printf", "printf-style");
	protolib_free(pl);
}

/* The test can fail: a plan missing its last copy shows as misses or
 * another text. */
static void test_detects(const struct protolib *pl)
{
	const struct prototype *p = protolib_lookup(pl, "f_str");
	struct fetch_plan plan, rplan;
	const char *why;
	unsigned long misses = 0;
	unsigned bad = 0;

	CHECK(plan_compile(p, &limits[0], &plan, &rplan, &why) == 0);
	CHECK(plan.nops == 3 && plan.ops[1].op == PLAN_CSTR &&
	      plan.ops[1].a == 33);
	plan.ops[1].a = 5; /* a C string cut short of -s + 1 */
	plan.bound = plan_bound(plan.ops);
	for (int t = 0; t < 200; t++) {
		shape_call();
		char *a = text_direct(&limits[0], p);
		char *b = text_recorded(&limits[0], p, &plan, &misses);
		bad += misses > 0;
		CHECK(strcmp(a, b) == 0 || misses > 0);
		free(a);
		free(b);
	}
	CHECK(bad > 10, "%u", bad);
	/* and a return plan that copies too little */
	p = protolib_lookup(pl, "g_rs");
	CHECK(plan_compile(p, &limits[0], &plan, &rplan, &why) == 0);
	CHECK(rplan.nops == 3 && rplan.ops[0].op == PLAN_ARG &&
	      rplan.ops[0].a == PLAN_ARG_RET0 && rplan.ops[1].op == PLAN_CSTR);
	rplan.ops[1].a = 5;
	rplan.bound = plan_bound(rplan.ops);
	bad = 0;
	for (int t = 0; t < 200; t++) {
		char *a, *b;
		shape_call();
		call_both_ways(&limits[0], p, &plan, &rplan, t % 2, &a, &b,
			       &misses);
		bad += misses > 0;
		CHECK(strcmp(a, b) == 0 || misses > 0);
		free(a);
		free(b);
	}
	CHECK(bad > 10, "%u", bad);
}

/* Hand-made calls, with the text expected, so that the comparison above
 * is known to compare what matters. */
static void test_known(const struct protolib *pl)
{
	const struct prototype *p = protolib_lookup(pl, "g_iov");
	struct fetch_plan plan, rplan;
	const char *why;
	unsigned long misses;
	uint64_t iov[4] = { BASE + 64, 5, HOLE - 2, 6 };

	memset(mem, 0, MEMSZ);
	memcpy(mem + 64, "hello", 5);
	memcpy(mem + (HOLE - 2 - BASE), "ab", 2);
	memcpy(mem + 128, iov, sizeof(iov));
	memset(&regs, 0, sizeof(regs));
	regs.rdi = 1;
	regs.rsi = BASE + 128;
	regs.rdx = 0xffffffff00000002ULL;
	regs.rsp = STACK;
	CHECK(plan_compile(p, &limits[0], &plan, &rplan, &why) == 0 &&
	      rplan.nops == 1);
	char *a = text_direct(&limits[0], p);
	char *b = text_recorded(&limits[0], p, &plan, &misses);
	CHECK_STR(a, "1, [ { \"hello\", 5 }, { \"ab\", 6 } ], 2");
	CHECK_STR(b, a);
	CHECK(misses == 0);
	free(a);
	free(b);
}

/* Append a chunk of LEN bytes of DATA at ADDR, WANTED asked, to OUT. */
static size_t chunk(unsigned char *out, size_t at, uint64_t addr,
		    const char *data, uint32_t len, uint32_t wanted)
{
	struct plan_chunk ch = { addr, len, wanted };

	memcpy(out + at, &ch, sizeof(ch));
	memset(out + at + sizeof(ch), 0, plan_chunk_size(len) - sizeof(ch));
	memcpy(out + at + sizeof(ch), data, len);
	return at + plan_chunk_size(len);
}

/* recmem's answers: copied bytes, short where memory was, misses where
 * the plan copied nothing. */
static void test_recmem(void)
{
	unsigned char rec[512];
	unsigned char xmm[128] = { 1 };
	char buf[64];
	struct recmem m;
	size_t n = chunk(rec, 0, 0x1000, "abc", 3, 3);
	n = chunk(rec, n, 0x1002, "cde", 3, 9); /* unreadable at 0x1005 */
	n = chunk(rec, n, 0x2000, "xy", 2, 2);
	n = chunk(rec, n, 0x3000, "str", 4, 4); /* a C string and its NUL */
	n = chunk(rec, n, 0x4000, "cut", 3, 10 | PLAN_CHUNK_CUT);
	n = chunk(rec, n, PLAN_FPR_ADDR, (const char *)xmm, 128, 128);

	recmem_init(&m, rec, n);
	CHECK(memsrc_read(&m.mem, 0x1000, buf, 5) == 5 &&
	      !memcmp(buf, "abcde", 5));
	CHECK(memsrc_read(&m.mem, 0x1001, buf, 10) == 4 && m.misses == 0);
	CHECK(memsrc_read(&m.mem, 0x3000, buf, 33) == 4 && m.misses == 0);
	CHECK(memsrc_read(&m.mem, PLAN_FPR_ADDR, buf, 8) == 0 && !m.misses);
	CHECK(memsrc_read(&m.mem, 0x2000, buf, 3) == 2 && m.misses == 1);
	CHECK(memsrc_read(&m.mem, 0x4000, buf, 4) == 3 && m.misses == 2);
	CHECK(memsrc_read(&m.mem, 0x5000, buf, 1) == 0 && m.misses == 3);
	unsigned char x[128];
	CHECK(recmem_fpr(&m, x) && x[0] == 1);
	/* a malformed chunk ends the span */
	recmem_init(&m, rec, n - 1);
	CHECK(!recmem_fpr(&m, x));
	srand(3);
	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < sizeof(rec); i++)
			rec[i] = (unsigned char)(rand() % 3 ? rand() : 0);
		recmem_init(&m, rec, (size_t)(rand() % sizeof(rec)));
		uint64_t a = (uint64_t)rand() << (rand() % 40);
		CHECK(memsrc_read(&m.mem, a, buf, sizeof(buf)) <= sizeof(buf));
	}
}

/* Functions without a prototype: four integers, nothing to copy. */
static void test_default_proto(void)
{
	struct fetch_plan plan, rplan;
	const char *why;
	unsigned long misses;

	CHECK(plan_compile(NULL, &limits[0], &plan, &rplan, &why) == 0);
	CHECK(plan.nops == 1 && plan.bound == 0 && rplan.nops == 1);
	shape_call();
	char *a = text_direct(&limits[0], NULL);
	char *b = text_recorded(&limits[0], NULL, &plan, &misses);
	CHECK_STR(b, a);
	free(a);
	free(b);
}

int main(void)
{
	struct protolib *pl = protolib_new();

	if (conf_load_string(pl, "test.conf", conf)) {
		fprintf(stderr, "test_plan: config errors\n");
		return 1;
	}
	srand(7);
	test_known(pl);
	shape_memory();
	test_mine(pl);
	test_refused(pl);
	test_loop(pl);
	test_libc();
	test_detects(pl);
	test_recmem();
	test_default_proto();
	/* most calls showed a string or a struct, not only numbers */
	CHECK(nonempty > compared / 3, "%u of %u", nonempty, compared);
	CHECK(cut > compared / 20, "%u of %u", cut, compared);
	CHECK(rplans >= 40, "%u return plans", rplans);
	printf("%u calls compared, %u with a string or a struct, %u cut by "
	       "-s or -A\n",
	       compared, nonempty, cut);
	protolib_free(pl);
	return check_exit();
}
