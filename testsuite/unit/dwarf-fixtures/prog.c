/* Calls every function of libdwfix once: the end-to-end demonstration. */
#include <stdio.h>

#include "libdwfix.h"

static int cb(int x, void *data)
{
	return x + (data != NULL);
}

int main(void)
{
	struct point p = { 3, 4, 0.5 };
	struct list c = { 2, NULL }, b = { 1, &c }, a = { 0, &b };
	struct named n = { "widget", { 1, 2, 3, 4 }, { 7 }, 5, 9, 11 };

	dw_char('x');
	dw_short(-3);
	dw_ushort(65000);
	dw_int(-42);
	dw_uint(42);
	dw_long(-1234567890123L);
	dw_ulong(1234567890123UL);
	dw_llong(-5LL);
	dw_ullong(5ULL);
	dw_double(1.5, 2.25f);
	dw_bool(true);
	dw_strlen("hello");
	dw_typedef_str("typedef'd");
	dw_voidp(&p, NULL);
	dw_enum(GREEN);
	dw_point(&p);
	dw_list_sum(&a);
	dw_named(&n);
	dw_apply(cb, 1, &p);
	dw_printf(1, "%s=%d %g\n", "answer", 42, 0.5);
	dw_varargs(2, 10, 20);
	dw_void();
	p = dw_point_by_value(p);
	return p.x == 4 ? 0 : 1;
}
