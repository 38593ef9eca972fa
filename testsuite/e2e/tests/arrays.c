/* Arrays are shown up to -A elements. */
#include "libe2e.h"

int main(void)
{
	int a[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	e2e_sum(a, 8);
	e2e_sum(a, 4);
	e2e_sum(a, 1);
	e2e_sum(a, 0);
	return 0;
}
