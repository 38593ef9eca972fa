/* An IFUNC of the program itself: the dynamic linker runs its resolver
 * (an IRELATIVE relocation of the program) before main. */
int abc(int a)
{
	return a + 1;
}

static int (*resolve_xyz(void))(int)
{
	return abc;
}

int xyz(int a) __attribute__((ifunc("resolve_xyz")));

int main(int argc, char **argv)
{
	return xyz(xyz(argc)) == 3 ? 0 : 1;
}
