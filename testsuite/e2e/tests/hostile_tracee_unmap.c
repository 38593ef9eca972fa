/* Out-parameters whose memory is gone by the time the call returns: each
 * function (traced with -x, prototypes in hostile_tracee_unmap.conf, the
 * '+' parameters shown at the return) fills its buffer and then unmaps
 * it, so the tracer reads them at the return from pages that no longer
 * exist.  A string, an array of ints, and a struct on the caller's
 * stack (readable) pointing to an array in an unmapped page.  The
 * pages are unmapped only after a guard page is mapped PROT_NONE in
 * their place, so nothing else can land there. */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#define PG 4096

struct vec {
	int n;
	int *v;
};

/* The page at P replaced by an inaccessible one. */
static void take_away(void *p)
{
	if (mmap(p, PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0) == MAP_FAILED ||
	    munmap(p, PG))
		perror("take_away");
}

__attribute__((noinline)) int fill_str(char *buf, int n)
{
	for (int i = 0; i < n - 1; i++)
		buf[i] = (char)('a' + i % 26);
	buf[n - 1] = 0;
	take_away(buf);
	return n - 1;
}

__attribute__((noinline)) int fill_ints(int *v, int n)
{
	for (int i = 0; i < n; i++)
		v[i] = i * i;
	take_away(v);
	return n;
}

__attribute__((noinline)) int fill_vec(struct vec *s, int *where)
{
	s->n = 3;
	s->v = where;
	for (int i = 0; i < 3; i++)
		where[i] = 7 * i;
	take_away(where);
	return s->n;
}

static void *page(void)
{
	void *p = mmap(NULL, PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

int main(void)
{
	struct vec s = { 0, NULL };
	char *a = page();
	int *b = page(), *c = page();
	if (!a || !b || !c)
		return 1;
	int r1 = fill_str(a, 10);
	int r2 = fill_ints(b, 4);
	int r3 = fill_vec(&s, c);
	printf("%d %d %d %d\n", r1, r2, r3, s.n);
	return 0;
}
