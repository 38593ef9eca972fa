/* A linked list of three nodes passed to the program's own functions
 * (traced with -x), described by a type declared forward and then
 * defined in terms of itself (conf_forward.conf, lines without ';', as
 * ltrace 0.7.91 writes it).  Built without debug information, so that
 * only the conf file describes them. */
#include <stddef.h>

#define NOINLINE __attribute__((noinline))

struct node {
	int v;
	struct node *next;
};

NOINLINE int fwd_head(const struct node *n)
{
	return n ? n->v : -1;
}

NOINLINE int fwd_sum(const struct node *n)
{
	int s = 0;

	for (; n; n = n->next)
		s += n->v;
	return s;
}

int main(void)
{
	struct node c = { 3, NULL }, b = { 2, &c }, a = { 1, &b };

	fwd_head(&a);
	fwd_sum(&a);
	fwd_sum(NULL);
	return 0;
}
