/* Killed by SIGSEGV outside any traced call. */
#include <stdio.h>

int main(void)
{
	puts("crashing");
	*(volatile int *)0 = 1;
	return 0;
}
