/* jmploop N: N times, longjmp out of a qsort comparator (abandoning the
 * traced qsort and the comparator's strcmp frames), then calls that must
 * still pair correctly. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static jmp_buf env;

static int cmp(const void *a, const void *b)
{
	if (strcmp(*(char *const *)a, *(char *const *)b) != 0)
		longjmp(env, 1);
	return 0;
}

int main(int argc, char **argv)
{
	long i, n = argc > 1 ? atol(argv[1]) : 1000, jumps = 0;
	for (i = 0; i < n; i++) {
		const char *v[] = { "pear", "apple", "fig" };
		if (setjmp(env) == 0)
			qsort(v, 3, sizeof(v[0]), cmp);
		else
			jumps++;
	}
	printf("jumps %ld len %zu\n", jumps, strlen("done"));
	return 0;
}
