/* The unit tests' assertions, one line on stderr per failure:
 *
 *	CHECK(cond);			"FILE:LINE: FAIL: cond"
 *	CHECK(cond, fmt, ...);		"FILE:LINE: FAIL: cond: message"
 *	CHECK_STR(got, want);		"FILE:LINE: FAIL: got: [...] want [...]"
 *	FAIL(fmt, ...);			"FILE:LINE: FAIL: message"
 *	return check_exit();		in main: 0 if every check held, else 1
 *	return CHECK_SKIP;		testsuite/unit/run counts a skip
 *
 * A failed check does not stop the test: the rest still runs, so one run
 * lists every failure.  Header only: each test is a single file. */
#ifndef LTRACE_TEST_CHECK_H
#define LTRACE_TEST_CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The exit status testsuite/unit/run reports as a skip. */
#define CHECK_SKIP 77

static int check_failures;

/* A failure line is written in three steps: "FILE:LINE: FAIL" (and
 * ": WHAT" unless WHAT is NULL), then any number of ": message", then the
 * newline. */
static inline void check_fail_begin(const char *file, int line,
				    const char *what)
{
	check_failures++;
	fprintf(stderr, "%s:%d: FAIL", file, line);
	if (what)
		fprintf(stderr, ": %s", what);
}

static inline void check_fail_note(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

static inline void check_fail_note(const char *fmt, ...)
{
	fputs(": ", stderr);
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

static inline void check_fail_end(void)
{
	fputc('\n', stderr);
}

#define CHECK(cond, ...)                                             \
	do {                                                         \
		if (!(cond)) {                                       \
			check_fail_begin(__FILE__, __LINE__, #cond); \
			__VA_OPT__(check_fail_note(__VA_ARGS__);)    \
			check_fail_end();                            \
		}                                                    \
	} while (0)

#define FAIL(...)                                           \
	do {                                                \
		check_fail_begin(__FILE__, __LINE__, NULL); \
		check_fail_note(__VA_ARGS__);               \
		check_fail_end();                           \
	} while (0)

/* GOT and WANT are strings; NULL is shown as "(null)" and equals only
 * NULL. */
static inline bool check_str(const char *file, int line, const char *what,
			     const char *got, const char *want)
{
	if (got == want || (got && want && !strcmp(got, want)))
		return true;
	check_fail_begin(file, line, what);
	check_fail_note("[%s] want [%s]", got ? got : "(null)",
			want ? want : "(null)");
	check_fail_end();
	return false;
}

#define CHECK_STR(got, want) check_str(__FILE__, __LINE__, #got, got, want)

/* What main returns: 0 when every check held, else 1 after a count. */
static inline int check_exit(void)
{
	if (!check_failures)
		return 0;
	fprintf(stderr, "%s: %d check(s) failed\n",
		program_invocation_short_name, check_failures);
	return 1;
}

#endif
