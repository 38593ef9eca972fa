/* The program's own trap instruction (int3, brk) right after a traced
 * call returns, under the tracer's return breakpoint, with SIGTRAP at its
 * default: it kills the program, as untraced (it used to be stepped over
 * and swallowed). */
#include <stdio.h>

#include "trap.h"

int main(void)
{
	puts("before");
	TRAP();
	puts("not reached");
	return 0;
}
