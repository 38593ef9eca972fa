/* errno(changed): strtol and strtoul fail with ERANGE on a value whose
 * result is also valid, so the failure is errno changing during the
 * call.  The program clears errno first, as strtol(3) asks; a strtol
 * that succeeds after a failure left errno set shows nothing, nor does
 * one after another function's failure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	errno = 0;
	strtol("99999999999999999999", NULL, 10);
	strtol("12", NULL, 10);
	errno = 0;
	strtoul("99999999999999999999", NULL, 10);
	errno = 0;
	strtol("-99999999999999999999", NULL, 10);
	fopen("/nonexistent", "r");
	strtol("7", NULL, 10);
	return 0;
}
