/* N calls (testsuite/budget/run passes -DN) of a function of the
 * program itself, traced with -x: an entry breakpoint must cost what a
 * stub's does. */
#ifndef N
#define N 10000
#endif

__attribute__((noinline)) int work(const char *s)
{
	int n = 0;

	while (s[n])
		n++;
	return n;
}

int main(void)
{
	const char *volatile s = "budget";
	long sum = 0;

	for (int i = 0; i < N; i++)
		sum += work(s);
	return sum == (long)N * 6 ? 0 : 1;
}
