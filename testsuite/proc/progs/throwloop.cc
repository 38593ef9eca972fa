// throwloop N: N times, a C++ exception thrown out of a qsort comparator
// through the traced qsort, then calls that must still pair correctly.
#include <cstdio>
#include <cstdlib>
#include <cstring>

static int cmp(const void *a, const void *b)
{
	if (strcmp(*(char *const *)a, *(char *const *)b) != 0)
		throw 42;
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000, caught = 0;
	for (long i = 0; i < n; i++) {
		const char *v[] = { "pear", "apple", "fig" };
		try {
			qsort(v, 3, sizeof(v[0]), cmp);
		} catch (int e) {
			caught += e == 42;
		}
	}
	printf("caught %ld len %zu\n", caught, strlen("done"));
	return 0;
}
