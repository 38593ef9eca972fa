/* What testsuite/completion/run completes -e, -x and -l from: imports
 * (malloc, strlen, cos from libm) and a function of its own. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) double comp_own_func(const char *s)
{
	return cos((double)strlen(s));
}

int main(int argc, char **argv)
{
	char *p = malloc(8);

	(void)argc;
	free(p);
	return comp_own_func(argv[0]) > 2;
}
