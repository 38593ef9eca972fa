/* A 1 MiB string handed to memchr(s, 0, 0), which reads none of it: the
 * tracer reads it all with -s 9999999 (mem_big.sh). */
#include <stdlib.h>
#include <string.h>

static void *volatile sink;

int main(void)
{
	size_t n = 1 << 20;
	char *s = malloc(n + 1);
	if (!s)
		return 1;
	for (size_t i = 0; i < n; i++)
		s[i] = 'a' + i % 23;
	s[n] = '\0';
	sink = memchr(s, 0, 0);
	return 0;
}
