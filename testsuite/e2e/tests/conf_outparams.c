/* Out-parameters (+): printed at return, including a string whose length
 * is the return value, and one whose call is interrupted by a nested
 * traced call so that it is printed "<... resumed>". */
#include "libe2e.h"

static void cb(void)
{
	e2e_void();
}

int main(void)
{
	int q = -1, r = -1, out = 0;
	char buf[32];

	e2e_div(17, 5, &q, &r);
	e2e_fill(buf, 6);
	e2e_fill(buf, 24);
	e2e_later(cb, &out);
	return 0;
}
