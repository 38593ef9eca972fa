/* Loads the address of puts and of qsort in code (a GOTPCREL load) and
 * also calls them directly: the linker then routes the direct calls
 * through .plt.got, whose slots carry R_X86_64_GLOB_DAT relocations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	int (*volatile puts_ptr)(const char *) = puts;
	void (*volatile qsort_ptr)(void *, size_t, size_t,
				   int (*)(const void *, const void *)) = qsort;
	int v[3] = { 3, 1, 2 };
	char *p = malloc(strlen(argv[0]) + 1);

	(void)argc;
	qsort(v, 3, sizeof(v[0]), cmp);
	qsort_ptr(v, 3, sizeof(v[0]), cmp);
	puts(argv[0]);
	puts_ptr(argv[0]);
	free(p);
	return v[0] - 1;
}
