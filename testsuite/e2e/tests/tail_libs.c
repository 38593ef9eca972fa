/* Calls of tl_top, which tail-calls tl_mid in another library, which
 * tail-calls tl_leaf in a third (tail_libs_lib.c): each fills its own
 * part of the buffer, shown at the return (tail_libs.conf). */
#include <stdio.h>
#include <string.h>

int tl_top(char *buf);

int main(void)
{
	char buf[32];
	int s = 0;
	for (int i = 0; i < 3; i++) {
		memset(buf, 0, sizeof(buf));
		s += tl_top(buf);
	}
	printf("%d\n", s);
	return 0;
}
