/* enum with explicit and continued values, a negative one, a value with no
 * name, and enum[short]. */
#include "libe2e.h"

int main(void)
{
	e2e_color(1);
	e2e_color(10);
	e2e_color(-2);
	e2e_color(5);
	e2e_small(-2);
	e2e_small(2);
	return 0;
}
