/* A library whose debug info the hostile_dwarf_* tests make cyclic
 * (hostile_dwarf.py), as hostile_dwarf.h says.  The code is
 * untouched. */
#include "hostile_dwarf.h"

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
