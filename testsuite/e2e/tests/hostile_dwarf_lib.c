/* A library whose debug info the hostile_dwarf_* tests make cyclic
 * (hostile_dwarf.py): node.in becomes a struct node, so that node
 * contains itself by value, and other.c a struct pair, so that pair and
 * other contain each other.  The code is untouched. */
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

int hd_sum(struct node *n)
{
	return n->v + n->in.w;
}

int hd_pair(struct pair *p)
{
	return p->a + p->o.b + p->o.c;
}

int hd_node_by_value(struct node n)
{
	return n.v * n.in.w;
}
