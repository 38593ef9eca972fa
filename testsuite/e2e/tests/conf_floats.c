/* float and double arguments and returns (XMM registers), and a double
 * and a char reached through pointers. */
#include "libe2e.h"

int main(void)
{
	double d = 0.25;
	char c = 'x';

	e2e_float(1.5f, 2.25);
	e2e_float(-0.125f, 1e10);
	e2e_double(3.0, -2.0f);
	e2e_deref(&d, &c);
	return 0;
}
