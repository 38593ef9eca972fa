/* A string exactly -s long is complete and gets no "..." (ltrace 0.7.3
 * appends one anyway); one byte longer is truncated. */
#include <stdio.h>

int main(void)
{
	puts("0123456789abcdefghijklmnopqrstuv");
	puts("0123456789abcdefghijklmnopqrstuvw");
	return 0;
}
