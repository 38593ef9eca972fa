/* Taking puts' address in PIE code gives it a GOT slot (GLOB_DAT), so the
 * direct call goes through a .plt.got stub.  The call through the pointer
 * bypasses every stub and is not traced. */
#include <stdio.h>

int main(void)
{
	int (*volatile fp)(const char *) = puts;

	fp("x");
	puts("y");
	return 0;
}
