/* libnoplt.so, for the noplt_* tests (noplt.sh builds it with
 * -fno-plt, or with a PLT for the twins that check the trace is the
 * same).  Without a PLT, its calls into libc and of its own np_one are
 * `call *GOT(%rip)`, and np_say's is a tail call, `jmp *GOT(%rip)`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Eight integer arguments: the last two are passed on the stack. */
long np_sum8(long a, long b, long c, long d, long e, long f, long g, long h)
{
	return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}

int np_one(void)
{
	return 1;
}

int np_two(void)
{
	return 2;
}

/* Its call of np_one, a function the library exports, goes through the
 * GOT too (a GLOB_DAT slot for a symbol it defines), as it would go
 * through its PLT: another object may interpose np_one. */
size_t np_len(const char *s)
{
	char *d = strdup(s);
	size_t n = strlen(d);

	n *= np_one();
	free(d);
	return n;
}

/* Optimized, whatever the test's flags: the call becomes a jump. */
__attribute__((noinline, optimize("O2"))) int np_say(const char *s)
{
	return puts(s);
}
