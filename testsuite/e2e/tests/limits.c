/* A long string and an array for -s, -A and absurd array lengths. */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char s[101];

	memset(s, 'x', 100);
	s[100] = 0;
	size_t n = strlen(s);
	char *p = memchr("abcdefghij", 'j', 10);
	return n == 100 && p ? 0 : 1;
}
