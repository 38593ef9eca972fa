/* dlopens libxd.so (x_dlopen_lib.c) three times, calls its xd_calc
 * and dlcloses it each time: the library comes back at the same
 * address. */
#include <dlfcn.h>
#include <stdio.h>

int main(void)
{
	for (int i = 0; i < 3; i++) {
		void *h = dlopen("./libxd.so", RTLD_NOW);
		if (!h) {
			printf("dlopen: %s\n", dlerror());
			return 1;
		}
		int (*calc)(int) = (int (*)(int))dlsym(h, "xd_calc");
		printf("%d\n", calc(i));
		dlclose(h);
	}
	return 0;
}
