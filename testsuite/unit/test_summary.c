/* -c's table (ltrace/summary.c): ltrace's layout to the byte, sorted by
 * time, equal times by name, percentages rounded as ltrace rounds them. */
#include <stdlib.h>

#include "check.h"
#include "strbuf.h"
#include "summary.h"

#define HEAD "% time     seconds  usecs/call     calls    errors function\n"
#define RULE                                        \
	"------ ----------- ----------- --------- " \
	"--------- --------------------\n"

/* The table summary_write gives now is WANT. */
static void check_table(const char *want)
{
	struct strbuf sb;
	strbuf_init(&sb);
	summary_write(&sb);
	CHECK_STR(sb.s, want);
	strbuf_destroy(&sb);
}

static void test_table(void)
{
	summary_account("usleep", 200000000, false);
	summary_account("nanosleep", 100000000, true);
	summary_account("usleep", 100000000, false);
	summary_account("strlen", 2000, false);
	summary_account("strcmp", 2000, false);
	summary_account("strlen", 1999, false);
	check_table(
		HEAD RULE
		" 74.99    0.300000      150000         2           usleep\n"
		" 24.99    0.100000      100000         1         1 nanosleep\n"
		"  0.00    0.000003           1         2           strlen\n"
		"  0.00    0.000002           2         1           strcmp\n" RULE
		"100.00    0.400005                     6         1 total\n");
}

/* Written once, the rows are gone: a second table is empty. */
static void test_empty(void)
{
	check_table(
		HEAD RULE RULE
		"100.00    0.000000                     0           total\n");
}

int main(void)
{
	test_table();
	test_empty();
	return check_exit();
}
