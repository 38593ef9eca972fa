/* -w through a library: e2e_later (libe2e.so, no debug info) calls back
 * into the program, whose callback calls strlen.  strlen's frames go
 * through the library (its symbol, no source line) back to the program;
 * the library call's own line is interrupted by strlen's and resumed,
 * and its frames follow the resumed line. */
#include <string.h>

#include "libe2e.h"

static int n;

static void later(void)
{
	n = (int)strlen("callback"); /* line 14 */
}

int go(int *out)
{
	return e2e_later(later, out); /* line 19 */
}

int run(int *out)
{
	return go(out) + 1; /* line 24 */
}

int main(void)
{
	int out = 0;

	return run(&out) == 2 && n == 8 && out == 77 ? 0 : 1; /* line 31 */
}
