/* Failure conditions (ltrace/errcond.h): "errno(...)" after a
 * declaration's parameters, parsed at once and at a lookup alike, its
 * errors reported as the parser's others, and checked against return
 * values: only a return that meets it reads errno, and only a nonzero
 * errno counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>
#include <unistd.h>

#include "callsite.h"
#include "check.h"
#include "conf.h"
#include "errcond.h"
#include "protolib.h"
#include "type.h"

static const char decls[] = "addr fopen(string, string) errno(nil);\n"
			    "int open(string, int) errno(-1 | <0)\n"
			    "long strtol(string, addr, int) errno(changed);\n"
			    "hex(int) g(int) errno(!=0|5|NULL);\n"
			    "char c(int) errno(255);\n"
			    "int plain(int);\n"
			    "double d(int) errno(changed);\n"
			    "int lock(addr) errno(ret);\n";

static void check_decls(struct protolib *pl)
{
	const struct prototype *p = protolib_lookup(pl, "fopen");
	CHECK(p && p->fail.nvalues == 1 && p->fail.values[0] == 0 &&
	      !p->fail.flags);
	p = protolib_lookup(pl, "open");
	CHECK(p && p->nparams == 2 && p->fail.nvalues == 1 &&
	      p->fail.values[0] == -1 && p->fail.flags == ERRCOND_NEG);
	p = protolib_lookup(pl, "strtol");
	CHECK(p && errcond_at_entry(p) && !p->fail.nvalues);
	p = protolib_lookup(pl, "g");
	CHECK(p && p->ret->lens == LENS_HEX && p->fail.nvalues == 2 &&
	      p->fail.flags == ERRCOND_NONZERO && !errcond_at_entry(p));
	p = protolib_lookup(pl, "plain");
	CHECK(p && !p->fail.nvalues && !p->fail.flags);
	CHECK(protolib_lookup(pl, "d") && !protolib_lookup(pl, "errno"));
}

/* TEXT loaded from a file, its function declarations parsed at their
 * lookup (conf.c finds their names before the clause). */
static struct protolib *load_later(const char *text)
{
	char path[] = "/tmp/test_errcond.XXXXXX";
	int fd = mkstemp(path);
	struct protolib *pl = protolib_new();
	CHECK(fd >= 0 &&
	      write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	CHECK(conf_load_file_later(pl, path) == 0);
	unlink(path);
	return pl;
}

static void test_parse(void)
{
	struct protolib *pl = protolib_new();
	CHECK(conf_load_string(pl, "t.conf", decls) == 0);
	check_decls(pl);
	protolib_free(pl);
	pl = load_later(decls);
	check_decls(pl);
	protolib_free(pl);
}

/* Each error, exactly, with its place; the declaration is dropped. */
static const struct {
	const char *text, *msg;
} errors[] = {
	{ "int bad(int) errno(foo);\n",
	  "e.conf:1:20: error: expected an integer, nil, NULL, <0, !=0, "
	  "changed or ret in errno(...)\n" },
	{ "int bad(int) errno -1;\n", "e.conf:1:20: error: expected '('\n" },
	{ "int bad(int) errno(-1;\n", "e.conf:1:22: error: expected ')'\n" },
	{ "int bad(int) errno(<1);\n", "e.conf:1:21: error: expected '0'\n" },
	{ "int bad(int) errno(!0);\n", "e.conf:1:21: error: expected '='\n" },
	{ "int bad(int) errno(1|2|3|4|5);\n",
	  "e.conf:1:28: error: too many values in errno(...)\n" },
	{ "void bad(int) errno(-1);\n",
	  "e.conf:1:20: error: errno(...) compares the return value: an "
	  "integer or pointer return type expected\n" },
	{ "int bad(int) errno(-1) x;\n",
	  "e.conf:1:24: error: expected ';' or the end of the line\n" },
};

static const char *captured(struct protolib *pl, const char *text, int *n)
{
	static char buf[512];
	FILE *f = tmpfile();
	int saved = dup(2);
	fflush(stderr);
	dup2(fileno(f), 2);
	*n = conf_load_string(pl, "e.conf", text);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = 0;
	fclose(f);
	return buf;
}

static void test_errors(void)
{
	for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); i++) {
		struct protolib *pl = protolib_new();
		int n;
		const char *out = captured(pl, errors[i].text, &n);
		CHECK(n == 1 && !strcmp(out, errors[i].msg),
		      "case %zu: %d [%s] want [%s]", i, n, out, errors[i].msg);
		CHECK(!protolib_lookup(pl, "bad"));
		protolib_free(pl);
	}
}

/* A stop whose return register holds RET and whose errno is ERRNO_NOW,
 * counting the reads of errno. */
struct stop {
	struct callsite cs;
	struct user_regs_struct regs;
	int errno_now;
	int reads;
};

static bool stop_errno(struct callsite *cs, int *out)
{
	struct stop *s = (struct stop *)cs;
	s->reads++;
	*out = s->errno_now;
	return true;
}

static int at_return(const struct prototype *p, unsigned long long ret,
		     int errno_now, const int *entry, int *reads)
{
	struct stop s = { .cs = { .regs = &s.regs, .thread_errno = stop_errno },
			  .errno_now = errno_now };
#if defined(__x86_64__)
	s.regs.rax = ret;
#elif defined(__aarch64__)
	s.regs.regs[0] = ret;
#endif
	int e = errcond_errno(p, &s.cs, entry);
	*reads = s.reads;
	return e;
}

static void test_check(void)
{
	struct protolib *pl = protolib_new();
	int r, zero = 0, range = 34;
	CHECK(conf_load_string(pl, "t.conf", decls) == 0);
	const struct prototype *fo = protolib_lookup(pl, "fopen");
	const struct prototype *op = protolib_lookup(pl, "open");
	const struct prototype *st = protolib_lookup(pl, "strtol");
	const struct prototype *c = protolib_lookup(pl, "c");
	CHECK(at_return(fo, 0, 2, NULL, &r) == 2 && r == 1);
	/* success: errno not even read */
	CHECK(at_return(fo, 0x5000, 2, NULL, &r) == 0 && r == 0);
	/* failure but errno 0: nothing */
	CHECK(at_return(fo, 0, 0, NULL, &r) == 0);
	/* an int's -1 in the low 32 bits only; <0 of an int */
	CHECK(at_return(op, 0xffffffffULL, 13, NULL, &r) == 13);
	CHECK(at_return(op, 0xfffffff0ULL, 13, NULL, &r) == 13);
	CHECK(at_return(op, 0x1ffffffffULL - 0x100000000ULL + 3, 13, NULL,
			&r) == 0 &&
	      r == 0);
	/* 255 of a char is its -1 */
	CHECK(at_return(c, 0xff, 9, NULL, &r) == 9);
	CHECK(at_return(c, 0xfe, 9, NULL, &r) == 0);
	/* changed: errno differs from the entry's */
	CHECK(at_return(st, 1, range, &zero, &r) == range);
	CHECK(at_return(st, 12, range, &range, &r) == 0 && r == 1);
	CHECK(at_return(st, 12, range, NULL, &r) == 0);
	/* ret: the return is the error number, errno is never read */
	const struct prototype *lk = protolib_lookup(pl, "lock");
	CHECK(lk && (lk->fail.flags & ERRCOND_RET) && !errcond_reads(lk));
	CHECK(at_return(lk, 16, 5, NULL, &r) == 16 && r == 0);
	CHECK(at_return(lk, 0, 5, NULL, &r) == 0 && r == 0);
	/* pthread_barrier_wait's -1 and numbers past 4095 are no error */
	CHECK(at_return(lk, 0xffffffffULL, 5, NULL, &r) == 0 && r == 0);
	CHECK(at_return(lk, 4096, 5, NULL, &r) == 0 && r == 0);
	/* no clause, no read */
	CHECK(at_return(protolib_lookup(pl, "plain"), -1ULL, 5, NULL, &r) ==
		      0 &&
	      r == 0);
	protolib_free(pl);
}

int main(void)
{
	test_parse();
	test_errors();
	test_check();
	return check_exit();
}
