/* The program a test execs: its calls must be traced afresh. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	printf("hello %zu\n", strlen(argc > 1 ? argv[1] : ""));
	return 5;
}
