/* A program's own functions named as libc's (dup, sleep): -x shows them
 * with their own prototypes from the program's DWARF, not with libc's
 * from the prototype files, which describe other functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup(const char *s)
{
	char *p = malloc(strlen(s) + 1);
	return p ? strcpy(p, s) : NULL;
}

static long sleep(const char *s, long from)
{
	return (long)strlen(s + from);
}

int main(void)
{
	char *p = dup("hello");
	printf("%ld\n", sleep(p, 2));
	free(p);
	return 0;
}
