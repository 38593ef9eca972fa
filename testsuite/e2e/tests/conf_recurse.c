/* A recursive struct type (typedef node = struct; then its definition):
 * a list of three, and a list whose last node points back to the first. */
#include <stddef.h>
#include "libe2e.h"

int main(void)
{
	struct e2e_node c = { 3, NULL }, b = { 2, &c }, a = { 1, &b };
	struct e2e_node y = { 20, NULL }, x = { 10, &y };

	e2e_list(&a);
	y.next = &x;
	e2e_list(&x);
	e2e_list(NULL);
	return 0;
}
