/* Calls puts, strlen, malloc, free and qsort through the PLT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(int argc, char **argv)
{
	int v[3] = { 3, 1, 2 };
	char *p = malloc(strlen(argv[0]) + 1);

	(void)argc;
	qsort(v, 3, sizeof(v[0]), cmp);
	puts(argv[0]);
	free(p);
	return v[0] - 1;
}
