/* For bad invocations: proves the program was not started. */
#include <stdio.h>

int main(void)
{
	FILE *f = fopen("ran", "w");

	if (f)
		fclose(f);
	return 0;
}
