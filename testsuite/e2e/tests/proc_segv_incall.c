/* Killed by SIGSEGV inside a traced call: the call stays unfinished. */
#include <stdio.h>
#include <string.h>

int main(void)
{
	puts("crashing");
	fflush(stdout);
	return (int)strlen((const char *)8);
}
