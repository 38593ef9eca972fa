/* Calls whose prototypes (hostile_conf_types.conf) the tracer cannot
 * hold: each is still traced, with a plain type in place of the bad one,
 * and the program runs as untraced. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	int a = atoi("12");
	long b = labs(-5);
	long c = atol("7");
	int d = abs(-3);
	size_t e = strlen("hello");
	int f = toupper('a');
	puts("hi");
	return a + b + c + d + e == 32 && f == 'A' ? 0 : 1;
}
