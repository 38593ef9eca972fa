/* Integer types of every width, signed and unsigned, and bool, through
 * libe2e.so and lib/e2e.conf. */
#include "libe2e.h"

int main(void)
{
	e2e_char('z');
	e2e_short(-32768 + 1);
	e2e_short(1234);
	e2e_ushort(65534);
	e2e_int(-1, 1);
	e2e_uint(4294967295u);
	e2e_long(-9223372036854775807L);
	e2e_ulong(18446744073709551615UL);
	e2e_llong(-4611686018427387904LL);
	e2e_ullong(18446744073709551614ULL);
	e2e_bool(5);
	e2e_bool(0);
	return 0;
}
