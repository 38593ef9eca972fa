/* -w across dlopen and dlclose: libbta.so, then libbtb.so at the same
 * address, then libbta.so again (bt_dlopen_lib.c): each strlen's frames
 * name the library loaded at that moment, its function and line, and
 * go on to main. */
#include <dlfcn.h>
#include <stdio.h>

static int call(const char *lib, const char *s)
{
	void *h = dlopen(lib, RTLD_NOW);
	if (!h) {
		printf("dlopen: %s\n", dlerror());
		return -1;
	}
	size_t (*len)(const char *) =
		(size_t(*)(const char *))dlsym(h, "bt_len");
	int n = (int)len(s); /* line 17 */
	dlclose(h);
	return n;
}

int main(void)
{
	int a = call("./libbta.so", "one");	  /* line 24 */
	int b = call("./libbtb.so", "three");	  /* line 25 */
	int c = call("./libbta.so", "fifteen"); /* line 26 */
	return a == 4 && b == 14 && c == 8 ? 0 : 1;
}
