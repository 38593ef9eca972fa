/* Escapes in strings, and truncation at -s. */
#include <stdio.h>

int main(void)
{
	puts("t\tn\nq\"b\\ \001\177\033 \xe9 end");
	puts("0123456789abcdefghijklmnopqrstuvwxyz");
	puts("");
	return 0;
}
