/* strlen, an IFUNC of libc, called by the program and by libc itself
 * (puts measures its string). */
#include <stdio.h>
#include <string.h>

int main(void)
{
	size_t n = strlen("abc");

	puts("hello");
	return n == 3 ? 0 : 1;
}
