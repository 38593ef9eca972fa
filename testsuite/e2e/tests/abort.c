/* Killed by a signal while inside a traced call. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	puts("aborting");
	abort();
}
