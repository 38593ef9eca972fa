/* C++ (built with -x c++): an exception thrown from a qsort comparator
 * through the traced qsort, twice; later calls pair correctly. */
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int cmp(const void *a, const void *b)
{
	if (strcmp(*(char *const *)a, *(char *const *)b) != 0)
		throw 42;
	return 0;
}

int main()
{
	int caught = 0;
	for (int i = 0; i < 2; i++) {
		const char *v[] = { "pear", "apple", "fig" };
		try {
			qsort(v, 3, sizeof(v[0]), cmp);
		} catch (int e) {
			caught += e == 42;
		}
	}
	printf("caught %d %zu\n", caught, strlen("done"));
	return 0;
}
