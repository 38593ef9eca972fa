/* The attach target with dlopen'd libraries: dlloop READY STOP LIBDIR.
 * dlopens LIBDIR/libtwo.so (RTLD_GLOBAL) and LIBDIR/libone.so (whose
 * one_calc calls libtwo's two_sum through libone's PLT; see
 * tests/attach_dlopen.sh), writes its pid to READY, then loops calling
 * one_calc and checking its result until the file STOP exists; prints
 * "ok" and exits 0 if every result was right. */
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char path[4096], tmp[4096];
	void *one, *two;
	int (*calc)(int);
	FILE *f;
	long i;

	if (argc < 4)
		return 2;
	snprintf(path, sizeof path, "%s/libtwo.so", argv[3]);
	two = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
	snprintf(path, sizeof path, "%s/libone.so", argv[3]);
	one = dlopen(path, RTLD_NOW);
	if (!one || !two) {
		printf("dlopen: %s\n", dlerror());
		return 1;
	}
	calc = (int (*)(int))dlsym(one, "one_calc");
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	f = fopen(tmp, "w");
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	rename(tmp, argv[1]);
	for (i = 0; access(argv[2], F_OK) != 0; i++) {
		if (calc((int)(i % 1000)) != (int)(i % 1000) + 3) {
			puts("wrong result");
			return 1;
		}
	}
	puts("ok");
	return 0;
}
