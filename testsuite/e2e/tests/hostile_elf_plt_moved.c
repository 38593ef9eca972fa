/* Calls through the PLT, of functions of different arities, for the
 * hostile_elf_* tests, which edit the section headers of the built
 * program (which the loader ignores) before tracing it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t n = strlen("abcdef");

	printf("%zu %d\n", n, abs(-7));
	puts("done");
	return n == 6 ? 0 : 1;
}
