/* Unit test of the text of a call (ltrace/calltext.c): lenses and the
 * x86_64 argument fetch over a fake memory source and fake register
 * blocks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "callsite.h"
#include "calltext.h"
#include "check.h"
#include "conf.h"
#include "lens.h"
#include "memsrc.h"
#include "protolib.h"
#include "strbuf.h"

#define BASE 0x10000ULL
#define MEMSZ 8192
#define STACK (BASE + 6144) /* rsp at entry */

static unsigned char mem[MEMSZ];
static size_t brk_off; /* bump allocator in mem[0..6144) */

static size_t fake_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	(void)m;
	if (addr < BASE || addr >= BASE + MEMSZ)
		return 0;
	if (len > BASE + MEMSZ - addr)
		len = BASE + MEMSZ - addr;
	memcpy(buf, mem + (addr - BASE), len);
	return len;
}

static struct memsrc fake_mem = { .read = fake_read };
static struct user_regs_struct regs;
static struct user_fpregs_struct fpregs;

static const void *get_fp(struct callsite *cs)
{
	(void)cs;
	return &fpregs;
}

static uint64_t put(const void *data, size_t len)
{
	uint64_t a = BASE + brk_off;

	memcpy(mem + brk_off, data, len);
	brk_off += (len + 15) & ~15UL;
	return a;
}

static uint64_t put_str(const char *s)
{
	return put(s, strlen(s) + 1);
}

static void set_stack(unsigned slot, uint64_t v)
{
	memcpy(mem + (STACK - BASE) + 8 * slot, &v, 8);
}

static void set_xmm(unsigned i, double d)
{
	memcpy(&fpregs.xmm_space[4 * i], &d, 8);
}

static void set_xmmf(unsigned i, float f)
{
	memset(&fpregs.xmm_space[4 * i], 0, 16);
	memcpy(&fpregs.xmm_space[4 * i], &f, 4);
}

static void reset(void)
{
	memset(mem, 0, sizeof(mem));
	memset(&regs, 0, sizeof(regs));
	memset(&fpregs, 0, sizeof(fpregs));
	brk_off = 0;
	regs.rsp = STACK;
}

static struct protolib *pl;
static struct lens_limits opts = { 32, 4, 0 };
static struct calltext *pending;
static struct callsite cs = { .mem = &fake_mem,
			      .regs = &regs,
			      .fpregs = get_fp,
			      .at_entry = true };

/* Show the entry of NAME (NULL prototype when not in the library). */
static void entry(const char *name, const char *want, int line)
{
	struct strbuf sb;

	strbuf_init(&sb);
	cs.at_entry = true;
	pending = calltext_entry(&opts, protolib_lookup(pl, name), &cs, &sb);
	check_str(__FILE__, line, name, sb.s, want);
	strbuf_destroy(&sb);
}

static void ret(const char *want_more, const char *want_ret, int line)
{
	struct strbuf more;
	struct strbuf r;

	strbuf_init(&more);
	strbuf_init(&r);
	cs.at_entry = false;
	calltext_return(pending, &cs, &more, &r);
	pending = NULL;
	check_str(__FILE__, line, "arguments at return", more.s, want_more);
	check_str(__FILE__, line, "return value", r.s, want_ret);
	strbuf_destroy(&more);
	strbuf_destroy(&r);
}

#define ENTRY(n, w) entry((n), (w), __LINE__)
#define RET(m, r) ret((m), (r), __LINE__)

static const char conf[] =
	"int f_str(string);\n"
	"int f_chr(char);\n"
	"int f_arr(array(int, arg2)*, int);\n"
	"typedef pt = struct(int, int);\n"
	"pt mk_pt(int, int);\n"
	"typedef node = struct;\n"
	"typedef node = struct(int, node*);\n"
	"int ll(node*);\n"
	"double scale(double, float);\n"
	"struct(long,long,long) mkbig(long);\n"
	"int bv(bitvec(ulong));\n"
	"int many(int,int,int,int,int,int,int,double,int);\n"
	"int f_sp(pt, struct(long,long,long), int);\n"
	"int printf(format);\n"
	"int g_hex(hex(int), oct(uint), hex(int));\n"
	"int g_en(enum(A, B=5, C), enum[long](X=7));\n"
	"bool g_b(bool);\n"
	"int g_hide(int, hide(int), int);\n"
	"long read(int, +string[retval], ulong);\n"
	"long g_w(int, string[arg3], ulong);\n"
	"addr g_mc(addr, string(array(char, arg3)*), ulong);\n"
	"int g_ip(int*, addr, void*);\n"
	"int g_cp(char*);\n"
	"void g_void(void);\n"
	"int g_sa(array(string, zero)*, int);\n"
	"int snprintf(+string2, ulong, format);\n"
	"int g_fs(struct(float, float), struct(double, int));\n"
	"int g_sarr(struct(ulong, string[elt1])*);\n"
	"int g_wide(string(array(uint, zero)*), string(array(ushort, 3)*), "
	"string(int*));\n"
	"int wprintf(format(string(array(uint, zero)*)));\n"
	"ldouble g_ld(ldouble, double, ldouble);\n"
	"int g_hexd(hex(double), hex(float), oct(long));\n"
	"int g_dyn(struct(ulong, array(int, elt1), int)*);\n"
	"int g_dynz(struct(string(array(char, zero)), int)*);\n"
	"typedef dirent = struct(ulong, hide(long), hide(ushort), hide(char), "
	"string(array(char, zero(256))));\n"
	"int g_dirent(dirent*);\n"
	"int g_bigarr(array(int, arg2)*, ulong);\n"
	"typedef iovec = struct(string(array(char, elt2)*), ulong);\n"
	"long g_iov(int, array(iovec, arg3)*, int);\n"
	"typedef lnode = struct;\n"
	"typedef lnode = struct(ulong, lnode*, string(array(char, elt1)*));\n"
	"int g_lnodes(array(lnode, 2)*);\n"
	"int g_bvp(bitvec(array(char, 2)*), bitvec(struct(uint, uint)));\n"
	"int g_bp(bool(int*), enum[short](N=-1, P=1), hex(char));\n"
	"int g_cs(struct(int, hide(int), char, string(array(char, 4))));\n"
	"typedef tree = struct;\n"
	"typedef tree = struct(int, tree*, tree*);\n"
	"int g_tree(tree*);\n"
	"typedef wide = struct(int, array(array(long, 16), 16)*);\n"
	"int g_wideout(array(wide, 64)*, array(wide, 64)*, "
	"array(wide, 64)*);\n"
	"typedef wchar_t = string(uint);\n"
	"typedef wint_t = string(int);\n"
	"wint_t fputwc(wchar_t, addr);\n"
	"int g_wch(string(ushort), string(long), string(char), "
	"array(wchar_t, 3)*);\n"
	"int g_past(string[arg2]);\n"
	"int g_early(string[retval]);\n";

static void test_strings(void)
{
	reset();
	regs.rdi = put_str("abcd");
	ENTRY("f_str", "\"abcd\"");
	regs.rax = 0;
	RET("", "0");
	opts.strlen = 5;
	ENTRY("f_str", "\"abcd\"");
	calltext_free(pending);
	/* complete: no "..." (ltrace has one) */
	regs.rdi = put_str("abcde");
	ENTRY("f_str", "\"abcde\"");
	calltext_free(pending);
	regs.rdi = put_str("abcdef");
	ENTRY("f_str", "\"abcde\"...");
	calltext_free(pending);
	opts.strlen = 32;
	regs.rdi = put_str("a\"b\\c\n\001\377");
	ENTRY("f_str", "\"a\\\"b\\\\c\\n\\001\\377\"");
	calltext_free(pending);
	regs.rdi = 0;
	ENTRY("f_str", "nil");
	calltext_free(pending);
	regs.rdi = 1;
	ENTRY("f_str", "0x1");
	calltext_free(pending);
	/* explicit lengths show NULs, like ltrace 0.7.3; the ellipsis
	 * only when cut */
	regs.rdi = 0;
	regs.rsi = put("C.UTF-8\0xy", 11);
	regs.rdx = 8;
	ENTRY("g_mc", "nil, \"C.UTF-8\\0\", 8");
	calltext_free(pending);
	opts.strlen = 4;
	regs.rdx = 4;
	ENTRY("g_mc", "nil, \"C.UT\", 4");
	calltext_free(pending);
	regs.rdx = 5;
	ENTRY("g_mc", "nil, \"C.UT\"..., 5");
	calltext_free(pending);
	regs.rdx = 3;
	ENTRY("g_mc", "nil, \"C.U\", 3");
	calltext_free(pending);
	regs.rdi = put_str("abcd");
	ENTRY("f_str", "\"abcd\"");
	calltext_free(pending);
	opts.strlen = 32;
	regs.rdi = BASE + MEMSZ - 3; /* runs into unreadable memory */
	memcpy(mem + MEMSZ - 3, "xyz", 3);
	ENTRY("f_str", "\"xyz\"");
	calltext_free(pending);
}

static void test_chars(void)
{
	static const struct {
		long v;
		const char *s;
	} t[] = {
		{ 'A', "'A'" }, { '\n', "'\\n'" },  { -1, "'\\377'" },
		{ 0, "'\\0'" }, { 200, "'\\310'" }, { '\'', "'''" },
	};

	reset();
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		regs.rdi = (uint64_t)t[i].v;
		ENTRY("f_chr", t[i].s);
		calltext_free(pending);
	}
}

static void test_arrays_structs(void)
{
	int a[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	struct {
		int v;
		uint64_t next;
	} n[3];

	reset();
	regs.rdi = put(a, sizeof(a));
	regs.rsi = 8;
	ENTRY("f_arr", "[ 1, 2, 3, 4... ], 8");
	calltext_free(pending);
	regs.rsi = 3;
	ENTRY("f_arr", "[ 1, 2, 3 ], 3");
	calltext_free(pending);
	regs.rsi = 4;
	ENTRY("f_arr", "[ 1, 2, 3, 4 ], 4");
	calltext_free(pending);
	regs.rdi = 3;
	regs.rsi = 4;
	ENTRY("mk_pt", "3, 4");
	regs.rax = 3 | (4ULL << 32);
	RET("", "{ 3, 4 }");
	n[0].v = 1;
	n[1].v = 2;
	n[2].v = 3;
	regs.rdi = BASE + brk_off;
	n[0].next = regs.rdi + 16;
	n[1].next = regs.rdi + 32;
	n[2].next = regs.rdi;
	put(n, sizeof(n));
	ENTRY("ll", "{ 1, { 2, { 3, recurse^^ } } }");
	calltext_free(pending);
	n[2].next = regs.rdi + 32;
	memcpy(mem + (regs.rdi - BASE), n, sizeof(n));
	ENTRY("ll", "{ 1, { 2, { 3, recurse } } }");
	calltext_free(pending);
}

/* A long linked list stops at -A nested structs of one type. */
static void test_deep_list(void)
{
	struct {
		int v;
		uint64_t next;
	} n[10];

	reset();
	uint64_t base = BASE + brk_off;
	for (int i = 0; i < 10; i++) {
		n[i].v = i;
		n[i].next = i < 9 ? base + 16 * (i + 1) : 0;
	}
	put(n, sizeof(n));
	regs.rdi = base;
	ENTRY("ll", "{ 0, { 1, { 2, { 3, ... } } } }");
	calltext_free(pending);
}

static void test_floats(void)
{
	reset();
	set_xmm(0, 2.5);
	set_xmmf(1, 0.5f);
	ENTRY("scale", "2.500000, 0.500000");
	set_xmm(0, 1.25);
	RET("", "1.250000");
	regs.rdi = 1;
	regs.rsi = 2;
	regs.rdx = 3;
	regs.rcx = 4;
	regs.r8 = 5;
	regs.r9 = 6;
	set_stack(1, 7);
	set_xmm(0, 8.5);
	set_stack(2, 9);
	ENTRY("many", "1, 2, 3, 4, 5, 6, 7, 8.500000, 9");
	calltext_free(pending);
}

static void test_struct_passing(void)
{
	long big[3] = { 7, 8, 9 };
	float ff[2] = { 1.5f, 2.5f };

	reset();
	regs.rdi = 1 | (2ULL << 32);
	set_stack(1, 4);
	set_stack(2, 5);
	set_stack(3, 6);
	regs.rsi = 9;
	ENTRY("f_sp", "{ 1, 2 }, { 4, 5, 6 }, 9");
	calltext_free(pending);
	/* MEMORY-class return: hidden pointer in rdi, then the args */
	regs.rdi = BASE + 4096;
	regs.rsi = 7;
	ENTRY("mkbig", "7");
	put(big, sizeof(big));
	regs.rax = BASE;
	regs.rdi = 0;
	RET("", "{ 7, 8, 9 }");
	/* struct(float,float) in one SSE eightbyte; (double,int) in xmm+gp */
	memcpy(&fpregs.xmm_space[0], ff, 8);
	set_xmm(1, 3.25);
	regs.rdi = 42;
	ENTRY("g_fs", "{ 1.500000, 2.500000 }, { 3.250000, 42 }");
	calltext_free(pending);
}

static void test_lenses(void)
{
	static const struct {
		uint64_t v;
		const char *s;
	} bv[] = {
		{ 0x2c, "<2-3,5>" }, { ~1ULL, "~<0>" },	     { 0, "<>" },
		{ ~0ULL, "~<>" },    { 1ULL << 63, "<63>" },
	};

	reset();
	for (size_t i = 0; i < sizeof(bv) / sizeof(bv[0]); i++) {
		regs.rdi = bv[i].v;
		ENTRY("bv", bv[i].s);
		calltext_free(pending);
	}
	regs.rdi = 44;
	regs.rsi = 0755;
	regs.rdx = 0xffffffff;
	ENTRY("g_hex", "0x2c, 0755, 0xffffffff");
	calltext_free(pending);
	regs.rdi = 1;
	regs.rsi = 7;
	ENTRY("g_en", "1, X");
	calltext_free(pending);
	regs.rdi = 5;
	regs.rsi = 6;
	ENTRY("g_en", "B, 6");
	calltext_free(pending);
	regs.rdi = 6;
	ENTRY("g_en", "C, 6");
	calltext_free(pending);
	regs.rdi = 0;
	ENTRY("g_b", "false");
	regs.rax = 3;
	RET("", "true");
	regs.rdi = 2;
	regs.rsi = 5;
	regs.rdx = 7;
	ENTRY("g_hide", "2, 7");
	calltext_free(pending);
}

static void test_unknown(void)
{
	reset();
	regs.rdi = (uint64_t)-5;
	regs.rsi = (uint64_t)-20000;
	regs.rdx = 10000;
	regs.rcx = 0x7ffea7957c18;
	ENTRY("no_such_function", "-5, 0xffffffffffffb1e0, 10000, "
				  "0x7ffea7957c18");
	regs.rax = 10001;
	RET("", "0x2711");
	ENTRY("g_void", "");
	RET("", "<void>");
}

static void test_pointers(void)
{
	int x = 77;

	reset();
	regs.rdi = put(&x, sizeof(x));
	regs.rsi = regs.rdi;
	regs.rdx = 0;
	ENTRY("g_ip", "77, 0x10000, nil");
	calltext_free(pending);
	regs.rdi = 0;
	regs.rsi = 0;
	ENTRY("g_ip", "nil, nil, nil");
	calltext_free(pending);
	regs.rdi = 8;
	ENTRY("g_ip", "0x8, nil, nil");
	calltext_free(pending);
	regs.rdi = put_str("xyz");
	ENTRY("g_cp", "'x'");
	calltext_free(pending);
}

static void test_arrays_of_strings(void)
{
	uint64_t sa[3];
	struct {
		unsigned long n;
		uint64_t s;
	} st;

	reset();
	sa[0] = put_str("a");
	sa[1] = put_str("bb");
	sa[2] = 0;
	regs.rdi = put(sa, sizeof(sa));
	regs.rsi = 2;
	ENTRY("g_sa", "[ \"a\", \"bb\" ], 2");
	calltext_free(pending);
	st.n = 3;
	st.s = put_str("hello");
	regs.rdi = put(&st, sizeof(st));
	ENTRY("g_sarr", "{ 3, \"hel\" }");
	calltext_free(pending);
}

/* Out-parameters are formatted at return from the entry's register
 * values, reading the memory as it is at the return. */
static void test_out_params(void)
{
	reset();
	uint64_t buf = put("\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", 16);
	regs.rdi = 3;
	regs.rsi = buf;
	regs.rdx = 16;
	ENTRY("read", "3");
	memcpy(mem + (buf - BASE), "filled-data", 11);
	regs.rsi = 0xdead;
	regs.rdi = 0;
	regs.rax = 6;
	RET("\"filled\", 16", "6");
	regs.rdi = 1;
	regs.rsi = put_str("hello world");
	regs.rdx = 5;
	ENTRY("g_w", "1, \"hello\", 5");
	calltext_free(pending);
	opts.strlen = 4;
	ENTRY("g_w", "1, \"hell\"..., 5");
	calltext_free(pending);
	opts.strlen = 32;
}

/* A call's state is a fresh one, whatever the call before left in the
 * state it reuses: g_past has no second argument to cut its string with
 * (the call before had 2), g_early no return value yet (the call before
 * returned 3). */
static void test_reused_states(void)
{
	reset();
	regs.rdi = 1;
	regs.rsi = 2;
	regs.rdx = 3;
	ENTRY("g_hex", "0x1, 02, 0x3");
	regs.rax = 3;
	RET("", "3");
	regs.rdi = put_str("abcdef");
	ENTRY("g_past", "\"abcdef\"");
	RET("", "3");
	ENTRY("g_early", "\"abcdef\"");
	RET("", "3");
}

static void test_format(void)
{
	char longfmt[100];

	reset();
	regs.rdi = put_str("%s %d %f %5.2f %c %x %lu %p %%\n");
	regs.rsi = put_str("fmt");
	regs.rdx = 42;
	set_xmm(0, 1.5);
	set_xmm(1, 2.25);
	regs.rcx = 'q';
	regs.r8 = 255;
	regs.r9 = 7;
	set_stack(1, 0);
	ENTRY("printf", "\"%s %d %f %5.2f %c %x %lu %p %%\\n\", \"fmt\", 42, "
			"1.500000, 2.250000, 'q', 0xff, 7, nil");
	regs.rax = 37;
	RET("", "37");
	opts.strlen = 5;
	ENTRY("printf", "\"%s %d\"..., \"fmt\", 42, 1.500000, 2.250000, "
			"'q', 0xff, 7, nil");
	calltext_free(pending);
	opts.strlen = 32;
	/* a format far longer than -s still decides the arguments */
	memset(longfmt, 'x', sizeof(longfmt));
	strcpy(longfmt + 80, "%d %*d %.*s");
	regs.rdi = put_str(longfmt);
	regs.rsi = 1;
	regs.rdx = 2;
	regs.rcx = 3;
	regs.r8 = 2;
	regs.r9 = put_str("abc");
	/* %.*s shows at most the precision's characters */
	ENTRY("printf", "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"..., 1, 2, 3, "
			"2, \"ab\"");
	calltext_free(pending);
	regs.rdi = put_str("%hhd %hd %lld %o %e %g %s\n");
	regs.rsi = 300;
	regs.rdx = 70000;
	regs.rcx = 5;
	regs.r8 = 8;
	set_xmm(0, 1.5);
	set_xmm(1, 2.5);
	regs.r9 = put_str("z");
	ENTRY("printf", "\"%hhd %hd %lld %o %e %g %s\\n\", ',', 4464, 5, "
			"010, 1.500000, 2.500000, \"z\"");
	calltext_free(pending);
	/* fixed-length strings stop at a NUL */
	regs.rdi = 1;
	regs.rsi = put("ab\0cd\n", 7);
	regs.rdx = 6;
	ENTRY("g_w", "1, \"ab\", 6");
	calltext_free(pending);
	/* snprintf(+string2, ulong, format): all printed at return */
	regs.rdi = put("\0\0\0\0\0\0\0\0", 8);
	regs.rsi = 8;
	regs.rdx = put_str("X=%d");
	regs.rcx = 1;
	ENTRY("snprintf", "");
	memcpy(mem + (regs.rdi - BASE), "X=1", 4);
	regs.rdi = regs.rsi = regs.rdx = regs.rcx = 0;
	regs.rax = 3;
	RET("\"X=1\", 8, \"X=%d\", 1", "3");
}

/* Wide strings print as UTF-8 text; -s counts characters. */
static void test_wide(void)
{
	uint32_t w[] = { 0x427, 0x442, 0x43e, '-', 0x442, 'o', '.', '\n', 0 };
	uint16_t h[] = { 'a', 0xe9, 'c', 'd' };
	int32_t bad[] = { 0xd800, 0x110000, 0x85, 0 };

	reset();
	regs.rdi = put(w, sizeof(w));
	regs.rsi = put(h, sizeof(h));
	regs.rdx = put(bad, sizeof(bad));
	ENTRY("g_wide", "\"\u0427\u0442\u043e-\u0442o.\\n\", \"a\u00e9c\", "
			"\"\\x{d800}\\x{110000}\\x{85}\"");
	calltext_free(pending);
	opts.strlen = 3;
	ENTRY("g_wide", "\"\u0427\u0442\u043e\"..., \"a\u00e9c\", "
			"\"\\x{d800}\\x{110000}\\x{85}\"");
	calltext_free(pending);
	opts.strlen = 32;
	/* UTF-8 of three and four bytes */
	uint32_t far[] = { 0x20ac, 0xffff, 0x10000, 0x1f600, 0 };
	regs.rdi = put(far, sizeof(far));
	ENTRY("g_wide", "\"\u20ac\uffff\U00010000\U0001f600\", \"a\u00e9c\", "
			"\"\\x{d800}\\x{110000}\\x{85}\"");
	calltext_free(pending);
	/* a wide format and its arguments */
	{
		uint32_t f[] = { 0x427, ' ', '%', 'l', 's', ' ', '%', 'd', 0 };

		regs.rdi = put(f, sizeof(f));
		regs.rsi = put(w, sizeof(w));
		regs.rdx = 5;
		ENTRY("wprintf", "\"\u0427 %ls %d\", "
				 "\"\u0427\u0442\u043e-\u0442o.\\n\", 5");
		calltext_free(pending);
	}
}

/* string(T) of an integer T is one character: wide ones as UTF-8, in
 * single quotes, escaped when not printable, WEOF by name. */
static void test_wide_chars(void)
{
	static const struct {
		uint64_t in;
		const char *want;
	} wc[] = {
		{ 0x424, "'\u0424'" },	     { 'a', "'a'" },
		{ '\n', "'\\n'" },	     { 0, "'\\0'" },
		{ 0x1f600, "'\U0001f600'" }, { 0x85, "'\\x{85}'" },
		{ 0xd800, "'\\x{d800}'" },   { 0x110000, "'\\x{110000}'" },
	};
	char want[64];

	reset();
	regs.rsi = 0x1234;
	for (size_t i = 0; i < sizeof(wc) / sizeof(wc[0]); i++) {
		regs.rdi = wc[i].in;
		snprintf(want, sizeof(want), "%s, 0x1234", wc[i].want);
		ENTRY("fputwc", want);
		regs.rax = wc[i].in;
		RET("", wc[i].want);
	}
	regs.rax = 0xffffffff; /* WEOF, an int -1 */
	ENTRY("fputwc", "'\\x{110000}', 0x1234");
	RET("", "WEOF");
	uint32_t arr[] = { 'a', 0x424, 0x20ac };
	regs.rdi = 0xe9;
	regs.rsi = 0x100000000ULL;
	regs.rdx = 'z';
	regs.rcx = put(arr, sizeof(arr));
	ENTRY("g_wch", "'\u00e9', '\\x{100000000}', 'z', "
		       "[ 'a', '\u0424', '\u20ac' ]");
	calltext_free(pending);
}

/* Conversions of every width, the stack after the registers run out,
 * long double, %m, %n, %%, positional arguments. */
static void test_format_more(void)
{
	long double ld = 2.5L;

	reset();
	opts.strlen = 64;
	regs.rdi = put_str("%hhu %hhx %hx %ho %zu %jd %td %qd %Lf %m %n %%");
	regs.rsi = 0x1ff;
	regs.rdx = 0x1ff;
	regs.rcx = 0x12345;
	regs.r8 = 8;
	regs.r9 = (uint64_t)-1;
	/* at entry rsp + 8 is 16-byte aligned (SysV 3.2.2) */
	regs.rsp = STACK - 8;
	set_stack(0, (uint64_t)-2); /* %jd at [rsp+8] */
	set_stack(1, (uint64_t)-3); /* %td */
	set_stack(2, 1ULL << 40);   /* %qd */
	/* %Lf: [rsp+32] is not 16-byte aligned, so [rsp+40] */
	memcpy(mem + (STACK - BASE) + 32, &ld, 10);
	set_stack(6, 0x1234); /* %n: after the long double */
	ENTRY("printf", "\"%hhu %hhx %hx %ho %zu %jd %td %qd %Lf %m %n %%\", "
			"255, 0xff, 0x2345, 010, 18446744073709551615, -2, -3, "
			"1099511627776, 2.500000, 0x1234");
	calltext_free(pending);
	opts.strlen = 32;
	regs.rsp = STACK;
	/* ten doubles: eight in xmm0-7, then the stack */
	regs.rdi = put_str("%f %f %f %f %f %f %f %f %f %f %d");
	for (int i = 0; i < 8; i++)
		set_xmm(i, i + 0.5);
	double d8 = 8.5;
	double d9 = 9.5;
	memcpy(mem + (STACK - BASE) + 8, &d8, 8);
	memcpy(mem + (STACK - BASE) + 16, &d9, 8);
	regs.rsi = 77;
	ENTRY("printf",
	      "\"%f %f %f %f %f %f %f %f %f %f %d\", 0.500000, "
	      "1.500000, 2.500000, 3.500000, 4.500000, 5.500000, 6.500000, "
	      "7.500000, 8.500000, 9.500000, 77");
	calltext_free(pending);
	/* positional: shown in argument order, types from the specs */
	regs.rdi = put_str("%2$s %1$d %3$*1$x");
	regs.rsi = 4;
	regs.rdx = put_str("two");
	regs.rcx = 255;
	ENTRY("printf", "\"%2$s %1$d %3$*1$x\", 4, \"two\", 0xff");
	calltext_free(pending);
	/* an unknown conversion ends the pack; a NULL format is nil */
	regs.rdi = put_str("%d %y %d");
	regs.rsi = 1;
	ENTRY("printf", "\"%d %y %d\", 1");
	calltext_free(pending);
	regs.rdi = 0;
	ENTRY("printf", "nil");
	calltext_free(pending);
	/* %.0s and %.s print no characters */
	regs.rdi = put_str("%.s|%.0s|%5.1s");
	regs.rsi = regs.rdx = regs.rcx = put_str("abc");
	ENTRY("printf", "\"%.s|%.0s|%5.1s\", \"\", \"\", \"a\"");
	calltext_free(pending);
}

static void test_ldouble(void)
{
	long double a = 1.25L;
	long double b = -3.0L;
	unsigned char st[16] = { 0 };

	reset();
	/* long double is MEMORY class: on the stack, 16-byte aligned; the
	 * double in between still goes in xmm0; x87's padding (bytes 10..15)
	 * holds garbage, as it may in the tracee, and is not part of the
	 * value */
	memset(mem + (STACK - BASE) + 16, 0xa5, 16);
	memcpy(mem + (STACK - BASE) + 16, &a, 10);
	memcpy(mem + (STACK - BASE) + 32, &b, 10);
	set_xmm(0, 0.75);
	ENTRY("g_ld", "1.250000, 0.750000, -3.000000");
	/* returned in st(0) */
	memcpy(st, &b, 10);
	memcpy(fpregs.st_space, st, 16);
	RET("", "-3.000000");
	set_xmm(0, 1.0);
	set_xmmf(1, 0.5f);
	regs.rdi = 8;
	ENTRY("g_hexd", "0x1p+0, 0x1p-1, 010");
	calltext_free(pending);
}

/* Struct members whose place depends on an earlier member's value. */
static void test_dynamic_structs(void)
{
	unsigned char b[64] = { 0 };
	uint64_t n = 3;
	int v[] = { 10, 20, 30, 99 };
	struct {
		uint64_t ino;
		long off;
		unsigned short rl;
		char ty;
		char name[256];
	} de;

	reset();
	memcpy(b, &n, 8);
	memcpy(b + 8, v, sizeof(v)); /* 3 ints, then the int member */
	regs.rdi = put(b, sizeof(b));
	ENTRY("g_dyn", "{ 3, [ 10, 20, 30 ], 99 }");
	calltext_free(pending);
	/* more than -A elements: cut, but the next member is still found */
	n = 5;
	memcpy(b, &n, 8);
	memcpy(b + 8 + 5 * 4, &v[3], 4);
	memcpy(mem + (regs.rdi - BASE), b, sizeof(b));
	ENTRY("g_dyn", "{ 5, [ 10, 20, 30, 99... ], 99 }");
	calltext_free(pending);
	/* a corrupt length ends the struct instead of reading gigabytes */
	n = 1ULL << 60;
	memcpy(mem + (regs.rdi - BASE), &n, 8);
	ENTRY("g_dyn", "{ 1152921504606846976, ... }");
	calltext_free(pending);
	/* eltN may name a later member (struct iovec) */
	{
		uint64_t iov[4];

		iov[0] = put_str("header");
		iov[1] = 4;
		iov[2] = put_str("er\nbody");
		iov[3] = 7;
		regs.rdi = 3;
		regs.rsi = put(iov, sizeof(iov));
		regs.rdx = 2;
		ENTRY("g_iov",
		      "3, [ { \"head\", 4 }, { \"er\\nbody\", 7 } ], 2");
		calltext_free(pending);
	}
	/* an element's member shows a struct of the element's type: its
	 * eltN are its own, and the element's after it are the element's
	 * (the array's environment of eltN is set up once, lenses/default.c) */
	{
		uint64_t inner[3], elts[6];

		inner[0] = 2;
		inner[1] = 0;
		inner[2] = put_str("xyz");
		elts[0] = 3;
		elts[1] = put(inner, sizeof(inner));
		elts[2] = put_str("abcd");
		elts[3] = 1;
		elts[4] = 0;
		elts[5] = put_str("q");
		regs.rdi = put(elts, sizeof(elts));
		ENTRY("g_lnodes", "[ { 3, { 2, nil, \"xy\" }, \"abc\" }, "
				  "{ 1, nil, \"q\" } ]");
		calltext_free(pending);
	}
	/* an inline zero-terminated string, then an int right after it */
	memset(b, 0, sizeof(b));
	memcpy(b, "hey", 4);
	v[0] = 7;
	memcpy(b + 4, v, 4);
	regs.rdi = put(b, sizeof(b));
	ENTRY("g_dynz", "{ \"hey\", 7 }");
	calltext_free(pending);
	/* dirent: zero(256) is 256 bytes of storage */
	memset(&de, 0, sizeof(de));
	de.ino = 42;
	strcpy(de.name, "file.txt");
	regs.rdi = put(&de, sizeof(de));
	ENTRY("g_dirent", "{ 42, \"file.txt\" }");
	calltext_free(pending);
}

/* Bounds: a huge array length reads -A + 1 elements; cycles and wide
 * nesting stop; the output of one argument list is bounded. */
static void test_bounds(void)
{
	int a[5] = { 1, 2, 3, 4, 5 };
	struct {
		int v;
		int pad;
		uint64_t l, r;
	} t[3];

	reset();
	regs.rdi = put(a, sizeof(a));
	regs.rsi = 1ULL << 40;
	ENTRY("g_bigarr", "[ 1, 2, 3, 4... ], 1099511627776");
	calltext_free(pending);
	regs.rsi = (uint64_t)-1; /* a negative length is empty */
	ENTRY("g_bigarr", "[  ], 18446744073709551615");
	calltext_free(pending);
	/* a tree whose children point back up: every pointer back to a
	 * node being printed is a recurse */
	uint64_t base = BASE + brk_off;
	t[0] = (typeof(t[0])){ 1, 0, base + 24, base + 48 };
	t[1] = (typeof(t[0])){ 2, 0, base, base + 24 };
	t[2] = (typeof(t[0])){ 3, 0, base + 48, 0 };
	put(t, sizeof(t));
	regs.rdi = base;
	ENTRY("g_tree", "{ 1, { 2, recurse^, recurse }, { 3, recurse, nil } }");
	calltext_free(pending);
	/* -A 64 over 64x64 arrays behind pointers: cut at the budget */
	{
		struct lens_limits saved = opts;
		struct strbuf sb;
		uint64_t b = BASE + 8;

		/* every word points at BASE + 8: struct(int, ptr) elements,
		 * each pointer leading to 16x16 longs, 64 of them, thrice */
		reset();
		for (int i = 0; i < 4096; i += 8)
			memcpy(mem + i, &b, 8);
		opts.arraylen = 64;
		regs.rdi = regs.rsi = regs.rdx = BASE;
		strbuf_init(&sb);
		cs.at_entry = true;
		pending = calltext_entry(
			&opts, protolib_lookup(pl, "g_wideout"), &cs, &sb);
		/* past the budget, and the room for one -A array that each of
		 * the two other arguments has again (lens_arg_start), by at
		 * most one value's text */
		size_t room = lens_budget(&opts) - 65536;
		CHECK(sb.len >= lens_budget(&opts) + room &&
			      sb.len <= lens_budget(&opts) + 2 * room + 4096,
		      "output length %zu, budget %zu, room %zu", sb.len,
		      lens_budget(&opts), room);
		strbuf_destroy(&sb);
		calltext_free(pending);
		opts = saved;
	}
}

static void test_more_lenses(void)
{
	unsigned char bits[2] = { 0x05, 0x80 };
	unsigned x[2] = { 1, 0x80000000u };
	int one = 1;
	struct {
		int a, h;
		char c;
		char s[4];
	} cs1 = { 5, 6, 'z', "abcd" };

	reset();
	regs.rdi = put(bits, 2);
	regs.rsi = x[0] | (uint64_t)x[1] << 32;
	ENTRY("g_bvp", "<0,2,15>, <0,63>");
	calltext_free(pending);
	regs.rdi = put(&one, 4);
	regs.rsi = 0xffff;
	regs.rdx = 0x1ff;
	ENTRY("g_bp", "true, N, 0xff");
	calltext_free(pending);
	regs.rdi = 0;
	regs.rsi = 1;
	regs.rdx = 0;
	ENTRY("g_bp", "false, P, 0");
	calltext_free(pending);
	/* 13 bytes: INTEGER class, in rdi and rsi */
	memcpy(&regs.rdi, &cs1, 8);
	regs.rsi = 0;
	memcpy(&regs.rsi, (char *)&cs1 + 8, 5);
	ENTRY("g_cs", "{ 5, 'z', \"abcd\" }");
	calltext_free(pending);
}

int main(void)
{
	pl = protolib_new();
	if (conf_load_string(pl, "test.conf", conf)) {
		fprintf(stderr, "test_calltext: config errors\n");
		return 1;
	}
	test_strings();
	test_chars();
	test_arrays_structs();
	test_deep_list();
	test_floats();
	test_struct_passing();
	test_lenses();
	test_unknown();
	test_pointers();
	test_arrays_of_strings();
	test_out_params();
	test_reused_states();
	test_format();
	test_wide();
	test_wide_chars();
	test_format_more();
	test_ldouble();
	test_dynamic_structs();
	test_bounds();
	test_more_lenses();
	protolib_free(pl);
	return check_exit();
}
