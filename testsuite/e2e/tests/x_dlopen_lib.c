/* libxd.so for x_dlopen.c: a global function and a static one it
 * calls. */
static int xd_twice(int v)
{
	return 2 * v;
}

int xd_calc(int i)
{
	return xd_twice(i) + 1;
}
