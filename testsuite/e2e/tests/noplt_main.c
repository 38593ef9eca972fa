/* A program that calls libc and libnoplt.so (noplt_lib.c) through the
 * GOT when built with -fno-plt: calls, a tail call, a call with stack
 * arguments, and two calls back to back (the first returns onto the
 * second's site).  For the noplt_* tests, whose twins build it with a
 * PLT and expect the same trace. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long np_sum8(long a, long b, long c, long d, long e, long f, long g, long h);
int np_one(void);
int np_two(void);
size_t np_len(const char *s);
int np_say(const char *s);

/* Optimized, whatever the test's flags: the call becomes a jump. */
__attribute__((noinline, optimize("O2"))) int say(const char *s)
{
	return puts(s);
}

int main(void)
{
	char *p = malloc(16);

	strcpy(p, "abc");
	np_one();
	np_two();
	/* In this order on every compiler (arguments' is unspecified). */
	size_t len = np_len(p);
	long sum = np_sum8(1, 2, 3, 4, 5, 6, 7, 8);
	printf("%ld %zu\n", sum, len);
	say("main");
	np_say("lib");
	free(p);
	return 0;
}
