/* The scaffolding of the unit tests that check an ELF reader against
 * another tool (test_funcs.c, test_library.c): the sources of
 * elf-fixtures/ compiled with gcc into a temporary directory, and nm's
 * listing of a file.  Header only: each test is a single file, with one
 * temporary directory, made by elf_fixtures_begin and removed with what
 * was built in it by elf_fixtures_end. */
#ifndef LTRACE_TEST_ELF_FIXTURES_H
#define LTRACE_TEST_ELF_FIXTURES_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fixtures.h"

static char elf_fixtures_tmp[256];
static char elf_fixtures_src[4096];

/* Finds the sources (see fixtures.h; this header sits beside them) and
 * makes the directory /tmp/TEST.XXXXXX.  False, with a line on stderr,
 * when it cannot. */
static inline bool elf_fixtures_begin(const char *test)
{
	fixture_dir(elf_fixtures_src, sizeof(elf_fixtures_src), "ELF_FIXTURES",
		    "elf-fixtures", __FILE__);
	snprintf(elf_fixtures_tmp, sizeof(elf_fixtures_tmp), "/tmp/%s.XXXXXX",
		 test);
	if (mkdtemp(elf_fixtures_tmp))
		return true;
	fprintf(stderr, "%s: mkdtemp: %s\n", test, strerror(errno));
	return false;
}

static inline void elf_fixtures_end(const char *test)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", elf_fixtures_tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "%s: could not remove %s\n", test,
			elf_fixtures_tmp);
}

/* Whether the installed file PATH (libc, the dynamic linker) can be
 * read; if not, a line on stderr says TEST skips its checks. */
static inline bool elf_fixtures_have(const char *test, const char *path)
{
	if (access(path, R_OK) == 0)
		return true;
	fprintf(stderr, "%s: skip: %s missing\n", test, path);
	return false;
}

/* The path of NAME in the temporary directory, in BUF. */
static inline void elf_fixture_path(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", elf_fixtures_tmp, name);
}

/* elf-fixtures/SRC compiled by `gcc -O0 FLAGS` into the temporary
 * directory as OUT; false when gcc failed. */
static inline bool elf_fixture_build(const char *out, const char *src,
				     const char *flags)
{
	char cmd[8192];
	snprintf(cmd, sizeof(cmd),
		 "gcc -O0 %s -o '%s/%s' '%s/%s' >/dev/null 2>&1", flags,
		 elf_fixtures_tmp, out, elf_fixtures_src, src);
	return system(cmd) == 0;
}

/* Called for each line of nm's listing of PATH: the symbol's address,
 * nm's letter for its type and its name without any @version; returns
 * whether it compared the symbol. */
typedef bool nm_symbol_fn(const void *ctx, const char *path,
			  unsigned long long addr, char type, const char *name);

/* Runs `nm OPTS --defined-only PATH` and calls EACH with CTX on every
 * symbol it lists; returns how many EACH compared (0 when nm cannot
 * run). */
static inline size_t nm_each(const char *path, const char *opts,
			     nm_symbol_fn *each, const void *ctx)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "nm %s --defined-only '%s' 2>/dev/null",
		 opts, path);
	FILE *p = popen(cmd, "r");
	if (!p)
		return 0;
	char line[1024];
	size_t n = 0;
	while (fgets(line, sizeof(line), p)) {
		unsigned long long addr;
		char type;
		char name[512];
		if (sscanf(line, "%llx %c %511[^@\n]", &addr, &type, name) ==
			    3 &&
		    each(ctx, path, addr, type, name))
			n++;
	}
	pclose(p);
	return n;
}

#endif
