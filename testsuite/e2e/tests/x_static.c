/* A statically linked program: its own functions, a static one among
 * them, and a libc function linked into it; exits with status 3. */
#include <stdio.h>
#include <stdlib.h>

static int twice(int v)
{
	return 2 * v;
}

int parse_twice(const char *s)
{
	return twice(atoi(s));
}

int main(void)
{
	printf("%d\n", parse_twice("21"));
	return 3;
}
