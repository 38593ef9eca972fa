/* A format parameter pack: integers of every width, strings, doubles,
 * pointers, characters, hex and octal, %% and %n. */
#include <stddef.h>
#include "libe2e.h"

int main(void)
{
	int n = 0;
	signed char hh = -5;
	short h = -300;

	e2e_printf("int %d %i %u\n", -42, 17, 4000000000u);
	e2e_printf("widths %hhd %hd %ld %lld %zu %jd\n", hh, h,
		   -1234567890123L, 9000000000000000000LL, (size_t)77,
		   (long)-8);
	e2e_printf("hex %x %X %#x %o %#o\n", 255, 0xbeef, 16, 8, 8);
	e2e_printf("str %s|%.3s|%s\n", "hello", "truncate", (char *)NULL);
	e2e_printf("dbl %f %g %e %.2f %5.1f\n", 1.5, 0.25, 12345.678, 3.14159,
		   -2.0);
	e2e_printf("mix %d %f %d %f %d %f %d %f %d %f\n", 1, 1.0, 2, 2.0, 3,
		   3.0, 4, 4.0, 5, 5.0);
	e2e_printf("ptr %p %p chr %c%c 100%%\n", (void *)0x1234, NULL, 'o',
		   'k');
	e2e_printf("star %*d %-*d|\n", 5, 42, 4, 7);
	e2e_printf("count%n done\n", &n);
	return 0;
}
