/* Calls into a library whose debug info holds cycles (hostile_dwarf_lib.c):
 * the calls are traced, and the program runs as untraced. */
#include <stdio.h>

struct node {
	int v;
	struct inner {
		int w;
	} in;
};

struct pair {
	int a;
	struct other {
		int b;
		int c;
	} o;
};

int hd_sum(struct node *n);
int hd_pair(struct pair *p);
int hd_node_by_value(struct node n);

int main(void)
{
	struct node n = { 2, { 3 } };
	struct pair p = { 1, { 2, 4 } };

	printf("%d %d %d\n", hd_sum(&n), hd_pair(&p), hd_node_by_value(n));
	return 0;
}
