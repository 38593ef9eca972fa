/* qsort calls back into the program, whose comparator calls strcmp. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
	const char *v[] = { "pear", "apple", "fig" };

	qsort(v, 3, sizeof(v[0]), cmp);
	puts(v[0]);
	return 0;
}
