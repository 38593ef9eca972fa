/* Calls into a library whose debug info describes types of absurd size
 * and depth (hostile_dwarf_size_lib.c): the calls are traced, the
 * tracer warns once per function and shows what it can, and the program
 * runs as untraced. */
#include <stdio.h>

struct big;
struct deep40;
typedef long huge[1UL << 59];

int hs_big(struct big *p);
int hs_huge(huge *p);
int hs_deep(struct deep40 *p);

int main(void)
{
	static long buf[64] = { 3, 4, 5 };
	int n = 0;

	for (int i = 0; i < 2; i++)
		n += hs_big((struct big *)buf) + hs_huge((huge *)buf) +
		     hs_deep((struct deep40 *)buf);
	printf("%d\n", n);
	return 0;
}
