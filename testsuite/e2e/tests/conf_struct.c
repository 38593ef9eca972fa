/* A struct by pointer with a nested struct, a double, a string and a
 * pointer to another struct; a NULL struct pointer; and an array whose
 * length is a field of the same struct (elt1). */
#include <stddef.h>
#include "libe2e.h"

int main(void)
{
	struct e2e_inner other = { 'q', -7 };
	struct e2e_outer o = { 10, { 'k', 300 }, 0.5, "outer", &other };
	struct e2e_outer o2 = { -1, { '\0', 0 }, -2.0, NULL, NULL };
	int v[] = { 5, 6, 7 };
	struct e2e_vec vec = { 3, v };

	e2e_struct(&o);
	e2e_struct(&o2);
	e2e_vec(&vec);
	return 0;
}
