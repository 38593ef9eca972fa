/* The types and functions of hostile_dwarf_lib.c, which the program
 * (hostile_dwarf_self.c) calls.  hostile_dwarf.py makes their debug
 * info cyclic in the library after it is built: node.in becomes a
 * struct node (node contains itself by value), other.c a struct pair
 * (pair and other contain each other). */
#ifndef HOSTILE_DWARF_H
#define HOSTILE_DWARF_H

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

#endif
