/* strlen workload: N calls of strlen() on a string of LEN bytes, or with
 * "own", of own_len(), a function of the program itself (no PLT: -x
 * own_len patches or breaks on its entry).
 * usage: strlen_loop N LEN [own]
 * Build with -fno-builtin so every call goes through the PLT; the empty
 * asm with a memory clobber keeps the compiler from merging the calls
 * (glibc declares strlen pure); noinline keeps own_len a call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	int own = argc > 3 && strcmp(argv[3], "own") == 0;
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
		sum += own ? own_len(s) : strlen(s);
	}
	return sum == (unsigned long)n * len ? 0 : 1;
}
