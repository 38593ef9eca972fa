/* The -c table, in ltrace's layout (summary.c:show_summary of 0.7.3)
 * with strace -c's "errors" column, the failed calls (errno shown),
 * blank when there are none, as strace leaves it:
 *
 * % time     seconds  usecs/call     calls    errors function
 * ------ ----------- ----------- --------- --------- --------------------
 *  46.88    0.000735         735         1           qsort
 *  20.10    0.000315         315         1         1 fopen
 * ------ ----------- ----------- --------- --------- --------------------
 * 100.00    0.001568                     5         1 total
 *
 * Times are kept in nanoseconds and shown in microseconds, as ltrace. */
#include "summary.h"

#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "strbuf.h"
#include "xmalloc.h"

struct row {
	char *name;
	uint64_t calls;
	uint64_t errors;
	uint64_t ns;
};

/* name -> struct row (the key is the row's own copy of the name) */
static struct hmap rows;

void summary_account(const char *name, uint64_t ns, bool failed)
{
	struct hent *e = hmap_find(&rows, name, 0);
	if (!e) {
		struct row *r = xcalloc(1, sizeof(*r));
		r->name = xstrdup(name);
		e = hmap_get(&rows, r->name, 0);
		e->ptr = r;
	}
	struct row *r = e->ptr;
	r->calls++;
	r->errors += failed;
	r->ns += ns;
}

static int by_time(const void *a, const void *b)
{
	const struct row *x = *(struct row *const *)a;
	const struct row *y = *(struct row *const *)b;
	if (x->ns / 1000 != y->ns / 1000)
		return x->ns / 1000 < y->ns / 1000 ? 1 : -1;
	return strcmp(x->name, y->name);
}

static const char dashes[] = "------ ----------- ----------- --------- "
			     "--------- --------------------\n";

/* N in strace's errors column: blank for 0. */
static void add_errors(struct strbuf *out, uint64_t n)
{
	if (n)
		strbuf_addf(out, " %9lu ", (unsigned long)n);
	else
		strbuf_addstr(out, "           ");
}

/* One row: ltrace's "%3lu.%02lu %4d.%06d %11lu %9d %s" with the errors
 * before the name, the percentage rounded as ltrace rounds it. */
static void add_row(struct strbuf *out, const struct row *r, uint64_t total)
{
	uint64_t us = r->ns / 1000;
	uint64_t p = total ? 100000000ULL * us / total + 5 : 0;
	strbuf_addf(out, "%3lu.%02lu %4lu.%06lu %11lu %9lu",
		    (unsigned long)(p / 1000000),
		    (unsigned long)(p / 10000 % 100),
		    (unsigned long)(us / 1000000),
		    (unsigned long)(us % 1000000),
		    (unsigned long)(us / r->calls), (unsigned long)r->calls);
	add_errors(out, r->errors);
	strbuf_addf(out, "%s\n", r->name);
}

/* The rows, sorted; *N of them, and in SUM their total time in
 * microseconds (ns), calls and errors.  The array is the caller's to
 * free. */
static struct row **sorted_rows(size_t *n, struct row *sum)
{
	struct row **v = xreallocarray(NULL, rows.n + 1, sizeof(*v));
	*n = 0;
	memset(sum, 0, sizeof(*sum));
	for (struct hent *e = hmap_next(&rows, NULL); e;
	     e = hmap_next(&rows, e)) {
		struct row *r = e->ptr;
		v[(*n)++] = r;
		sum->ns += r->ns / 1000;
		sum->calls += r->calls;
		sum->errors += r->errors;
	}
	qsort(v, *n, sizeof(*v), by_time);
	return v;
}

void summary_write(struct strbuf *out)
{
	size_t n;
	struct row sum;
	struct row **v = sorted_rows(&n, &sum);
	uint64_t us = sum.ns;
	strbuf_addstr(out, "% time     seconds  usecs/call     calls    "
			   "errors function\n");
	strbuf_addstr(out, dashes);
	for (size_t i = 0; i < n; i++)
		add_row(out, v[i], us);
	strbuf_addstr(out, dashes);
	strbuf_addf(out, "100.00 %4lu.%06lu             %9lu",
		    (unsigned long)(us / 1000000),
		    (unsigned long)(us % 1000000), (unsigned long)sum.calls);
	add_errors(out, sum.errors);
	strbuf_addstr(out, "total\n");
	for (size_t i = 0; i < n; i++) {
		free(v[i]->name);
		free(v[i]);
	}
	free(v);
	hmap_destroy(&rows);
	memset(&rows, 0, sizeof(rows));
}
