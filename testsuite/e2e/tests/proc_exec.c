/* exec without -f: "--- Called exec() ---", then the new program's calls,
 * its breakpoints found afresh. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc > 1) {
		printf("second %zu\n", strlen(argv[1]));
		return 6;
	}
	puts("first");
	fflush(stdout);
	execl(argv[0], argv[0], "again", (char *)NULL);
	return 1;
}
