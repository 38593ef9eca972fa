/* libifn.so for x_ifunc.c: xyz is an IFUNC (STT_GNU_IFUNC) whose
 * resolver picks one of two static implementations. */
static int xyz_add(int a)
{
	return a + 1;
}

static int xyz_sub(int a)
{
	return a - 1;
}

static int (*resolve_xyz(void))(int)
{
	return sizeof(long) == 8 ? xyz_add : xyz_sub;
}

int xyz(int a) __attribute__((ifunc("resolve_xyz")));
