/* The demo traced by ./setup: a few everyday libc calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	const char *msg = "hello, ltrace";
	char *copy = malloc(strlen(msg) + 1);

	if (!copy)
		return 1;
	memcpy(copy, msg, strlen(msg) + 1);
	puts(copy);
	printf("%s has %zu bytes\n", copy, strlen(copy));
	free(copy);
	return 0;
}
