/* array(T, N), array(T, argN), arrays of structs, array(string, zero) and
 * array(int, zero(4)). */
#include <stddef.h>
#include "libe2e.h"

int main(void)
{
	int three[] = { 1, -2, 3 };
	int four[] = { 4, 3, 2, 1 };
	int z1[] = { 7, 8, 0, 9, 9 };
	int z2[] = { 1, 2, 3, 4, 5, 6 };
	struct e2e_pt pts[] = { { 1, 2 }, { 3, 4 } };
	const char *argv[] = { "prog", "-v", "file", NULL };
	const char *none[] = { NULL };

	e2e_sum3(three);
	e2e_sum(four, 4);
	e2e_sum(four, 0);
	e2e_points(pts, 2);
	e2e_argv(argv);
	e2e_argv(none);
	e2e_zero4(z1);
	e2e_zero4(z2);
	return 0;
}
