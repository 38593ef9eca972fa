/* The hex, oct and bitvec lenses, hide, and a typedef of a lens. */
#include "libe2e.h"

int main(void)
{
	e2e_mask(0x1200);
	e2e_mask(0);
	e2e_mode(0755);
	e2e_mode(0);
	e2e_bits(0);
	e2e_bits(0x1);
	e2e_bits(0x80000005);
	e2e_bits(0xfffffffe);
	e2e_hide(1, 2, 3);
	e2e_typedef(0xab);
	return 0;
}
