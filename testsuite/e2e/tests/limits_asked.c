/* What -A and -s ask for is shown whole, however long: an array of a
 * million ints, and eight strings of 20000 bytes that print 4 bytes each
 * ("\001"), 640 KB together, in an array and as a printf-style pack's
 * arguments. */
#include <stdlib.h>
#include <string.h>

#include "libe2e.h"

#define N 1000000
#define NSTR 8
#define STRLEN 20000

int main(void)
{
	int *a = malloc(N * sizeof(*a));
	char *v[NSTR + 1];

	for (int i = 0; i < N; i++)
		a[i] = i;
	e2e_sum(a, N);
	for (int i = 0; i < NSTR; i++) {
		v[i] = malloc(STRLEN + 1);
		memset(v[i], 1, STRLEN);
		v[i][STRLEN] = 0;
	}
	v[NSTR] = NULL;
	e2e_argv((const char *const *)v);
	e2e_printf("%s %s %s %s %s %s %s %s", v[0], v[1], v[2], v[3], v[4],
		   v[5], v[6], v[7]);
	return 0;
}
