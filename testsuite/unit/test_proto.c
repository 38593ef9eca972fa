/* Unit test of the prototype language parser and the protolib. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "expr.h"
#include "proto.h"
#include "type.h"

static int failures;

#define CHECK(cond) check((cond), #cond, __LINE__)

static void check(int ok, const char *what, int line)
{
	if (!ok) {
		fprintf(stderr, "test_proto.c:%d: FAIL: %s\n", line, what);
		failures++;
	}
}

static const char conf[] =
	"; comment\n"
	"# another comment\n"
	"\n"
	"typedef pt = struct(int, int);\n"
	"typedef node = struct;\n"
	"typedef node = struct(int, node*);\n"
	"typedef sigset_t = bitvec(ulong);\n"
	"typedef color = enum(RED, GREEN=5, BLUE);\n"
	"import \"libfoo\";\n"
	"int open(string,int,octal);  ; WARNING: trailing comment\n"
	"long read(int, +string[retval], ulong);\n"
	"long write(int,string3,ulong);\n"
	"void f_void(void);\n"
	"pt mk_pt(int, int);\n"
	"int ll(node*);\n"
	"function int fn(itn, addr, file, format);\n"
	"int e(enum[long](A=-1, B), color, hex(uint), oct(int), hide(int));\n"
	"int arr(array(int, arg2)*, int, array(string, zero(4))*);\n"
	"int s(struct(ulong, array(int, elt1))*, string(char*), bool, bool(int));\n"
	"double d(float, double, llong, ullong, ushort, short, char);\n"
	"int multi(int,\n"
	"          int);\n";

static void test_basic(void)
{
	struct protolib *pl = protolib_new();
	const struct prototype *p;

	CHECK(protolib_load_string(pl, "t.conf", conf) == 0);
	p = protolib_lookup(pl, "open");
	CHECK(p && p->nparams == 3 && p->split == 3);
	CHECK(p && p->params[2]->lens == LENS_OCT &&
	      p->params[2]->kind == TYPE_INT);
	p = protolib_lookup(pl, "read");
	CHECK(p && p->split == 1 && p->params[1]->lens == LENS_STRING);
	/* string[E] and stringN are zero(E), zero(argN), as in ltrace */
	CHECK(p && p->params[1]->elt->len->kind == EXPR_ZERO &&
	      p->params[1]->elt->len->sub->kind == EXPR_RETVAL);
	p = protolib_lookup(pl, "write");
	CHECK(p && p->params[1]->elt->len->kind == EXPR_ZERO &&
	      p->params[1]->elt->len->sub->kind == EXPR_ARG &&
	      p->params[1]->elt->len->sub->num == 3);
	p = protolib_lookup(pl, "f_void");
	CHECK(p && p->nparams == 0 && p->ret->kind == TYPE_VOID);
	p = protolib_lookup(pl, "mk_pt");
	CHECK(p && p->ret->kind == TYPE_STRUCT && type_sizeof(p->ret) == 8);
	p = protolib_lookup(pl, "ll");
	CHECK(p && p->params[0]->elt->nfields == 2 &&
	      p->params[0]->elt->fields[1]->elt == p->params[0]->elt);
	p = protolib_lookup(pl, "fn");
	CHECK(p && p->nparams == 4 && p->params[3]->kind == TYPE_FORMAT);
	CHECK(p && p->params[1]->lens == LENS_ADDR);
	p = protolib_lookup(pl, "e");
	CHECK(p && p->params[0]->kind == TYPE_LONG &&
	      p->params[0]->nenums == 2 && p->params[0]->enums[1].value == 0);
	CHECK(p && p->params[1]->enums[2].value == 6);
	CHECK(p && p->params[4]->lens == LENS_HIDE);
	p = protolib_lookup(pl, "s");
	CHECK(p && p->params[0]->elt->fields[1]->len->kind == EXPR_ELT);
	CHECK(p && p->params[2]->lens == LENS_BOOL);
	p = protolib_lookup(pl, "d");
	CHECK(p && p->nparams == 7 && p->params[0]->kind == TYPE_FLOAT);
	p = protolib_lookup(pl, "multi");
	CHECK(p && p->nparams == 2);
	CHECK(!protolib_lookup(pl, "nonexistent"));
	protolib_free(pl);
}

static const char bad[] =
	"int good1(int);\n"
	"int bad1(int;\n"
	"int bad2(unknowntype);\n"
	"int bad3 int);\n"
	"typedef x = int;\n"
	"typedef x = long;\n"
	"int bad4(array(int));\n"
	"int good2(string);\n";

static void test_errors(void)
{
	struct protolib *pl = protolib_new();
	int fd, saved;
	FILE *f = tmpfile();
	char buf[2048] = "";
	size_t n;

	fflush(stderr);
	saved = dup(2);
	fd = fileno(f);
	dup2(fd, 2);
	CHECK(protolib_load_string(pl, "bad.conf", bad) == 5);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	CHECK(strstr(buf, "bad.conf:2:13: error: expected ')'") != NULL);
	CHECK(strstr(buf, "bad.conf:3:") != NULL);
	CHECK(strstr(buf, "bad.conf:6:") != NULL);
	CHECK(protolib_lookup(pl, "good1") && protolib_lookup(pl, "good2"));
	CHECK(!protolib_lookup(pl, "bad1"));
	protolib_free(pl);
}

/* Earlier definitions win. */
static void test_priority(void)
{
	struct protolib *pl = protolib_new();

	protolib_load_string(pl, "a", "int f(int);\n");
	protolib_load_string(pl, "b", "long f(long, long);\n");
	CHECK(protolib_lookup(pl, "f")->nparams == 1);
	protolib_free(pl);
}

static void test_etc(void)
{
	struct protolib *pl;

	if (access("/etc/ltrace.conf", R_OK)) {
		fprintf(stderr, "test_proto: /etc/ltrace.conf absent, skipped\n");
		return;
	}
	pl = protolib_new();
	CHECK(protolib_load_file(pl, "/etc/ltrace.conf") == 0);
	CHECK(protolib_lookup(pl, "printf") != NULL);
	CHECK(protolib_lookup(pl, "SYS_open") != NULL);
	protolib_free(pl);
}

static void test_shipped(void)
{
	struct protolib *pl = protolib_new();
	const char *path = getenv("LIBC_CONF");

	if (!path)
		path = "etc/libc.so.conf";
	if (access(path, R_OK)) {
		fprintf(stderr, "test_proto: %s absent, skipped\n", path);
		protolib_free(pl);
		return;
	}
	CHECK(protolib_load_file(pl, path) == 0);
	CHECK(protolib_lookup(pl, "malloc") != NULL);
	protolib_free(pl);
}

static void pl_missing(void)
{
	struct protolib *pl = protolib_new();

	CHECK(protolib_load_file(pl, "/nonexistent.conf") == -1);
	protolib_free(pl);
}

int main(void)
{
	test_basic();
	test_errors();
	test_priority();
	test_etc();
	test_shipped();
	pl_missing();
	if (failures)
		fprintf(stderr, "test_proto: %d failures\n", failures);
	return failures ? 1 : 0;
}
