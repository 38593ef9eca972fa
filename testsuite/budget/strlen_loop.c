/* N calls of strlen on a short string (testsuite/budget/run passes
 * -DN): the tracer's syscalls per traced call are measured on this. */
#include <string.h>

#ifndef N
#define N 10000
#endif

int main(void)
{
	const char *volatile s = "budget";
	size_t sum = 0;

	for (int i = 0; i < N; i++)
		sum += strlen(s);
	return sum == (size_t)N * 6 ? 0 : 1;
}
