/* 20000 calls of strlen on a short string: the tracer's syscalls per
 * traced call are measured on this. */
#include <string.h>

#define N 20000

int main(void)
{
	const char *volatile s = "budget";
	size_t sum = 0;

	for (int i = 0; i < N; i++)
		sum += strlen(s);
	return sum == (size_t)N * 6 ? 0 : 1;
}
