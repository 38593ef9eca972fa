/* The program's own int3 right after a traced call returns, under the
 * tracer's return breakpoint, with SIGTRAP at its default: it kills the
 * program, as untraced (it used to be stepped over and swallowed). */
#include <stdio.h>

int main(void)
{
	puts("before");
	__asm__ volatile("int3");
	puts("not reached");
	return 0;
}
