/* calls N: N traced strlen calls, one after the other (fast_times). */
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;
	const char *volatile s = "a string";
	size_t sum = 0;
	for (long i = 0; i < n; i++)
		sum += strlen(s);
	return sum == (size_t)n * 8 ? 0 : 1;
}
