/* Calls xyz, an IFUNC of its library libifn.so (x_ifunc_lib.c), twice. */
#include <stdio.h>

int xyz(int a);

int main(int argc, char **argv)
{
	printf("%d\n", xyz(xyz(argc)));
	return 0;
}
