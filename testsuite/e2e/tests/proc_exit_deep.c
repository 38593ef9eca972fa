/* exit() from deep inside nested traced calls: a qsort comparator calls
 * a function that calls exit; the unfinished calls end with the process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void leave(const char *why)
{
	printf("leaving %zu\n", strlen(why));
	exit(4);
}

static int cmp(const void *a, const void *b)
{
	int r = strcmp(*(char *const *)a, *(char *const *)b);
	leave("deep");
	return r;
}

int main(void)
{
	const char *v[] = { "pear", "apple", "fig" };
	qsort(v, 3, sizeof(v[0]), cmp);
	puts("not reached");
	return 0;
}
