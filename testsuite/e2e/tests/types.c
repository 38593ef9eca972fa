/* Argument and return rendering of each basic type, via libe2e.so. */
#include <stddef.h>
#include "libe2e.h"

int main(void)
{
	int x = 42;

	e2e_int(5, 7);
	e2e_int(-2147483647 - 1, 0);
	e2e_uint(4000000000u);
	e2e_char('A');
	e2e_char('\n');
	e2e_long(-1234567890123L);
	e2e_double(2.5, 0.5f);
	e2e_double(-1e-3, 1000.0f);
	e2e_void();
	e2e_ptr(&x);
	e2e_ptr(NULL);
	e2e_str("hello");
	e2e_str(NULL);
	return 0;
}
