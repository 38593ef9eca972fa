/* The "= " column set by -a. */
#include "libe2e.h"

int main(void)
{
	e2e_int(1, 2);
	e2e_str("a string long enough to pass the column");
	e2e_void();
	return 0;
}
