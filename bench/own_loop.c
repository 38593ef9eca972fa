/* -x workload: N calls of own_len(), a function of the program itself
 * (no PLT: -x own_len patches or breaks on its entry).
 * usage: own_loop N LEN
 * noinline and the empty asm keep every call a call. */
#include <stdlib.h>

__attribute__((noinline)) unsigned long own_len(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (unsigned long)(p - s);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 200000;
	long len = argc > 2 ? atol(argv[2]) : 11;
	unsigned long sum = 0;
	char *s = malloc(len + 1);
	long i;

	if (!s)
		return 1;
	for (i = 0; i < len; i++)
		s[i] = 'a' + i % 26;
	s[len] = 0;
	for (i = 0; i < n; i++) {
		__asm__ volatile("" ::: "memory");
		sum += own_len(s);
	}
	return sum == (unsigned long)n * len ? 0 : 1;
}
