/* ftell is a weak alias of libc's global _IO_ftell: one address, two
 * names. */
#include <stdio.h>

int main(void)
{
	FILE *f = fopen("/dev/null", "r");

	ftell(f);
	fclose(f);
	return 0;
}
