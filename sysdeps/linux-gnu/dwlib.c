/* libdw, loaded when first needed (dwlib.h). */
#define DWLIB_NO_MACROS
#include "dwlib.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "config.h"
#include "error.h"

static const struct {
	const char *name;
	size_t at;
} functions[] = {
#define DWLIB_ENTRY(f) { #f, offsetof(struct dwlib, f) },
	DWLIB_FUNCTIONS(DWLIB_ENTRY)
#undef DWLIB_ENTRY
};

static struct dwlib dw;
static bool loaded;

const struct dwlib *dwlib(void)
{
	if (loaded)
		return &dw;
	void *h = dlopen(DWLIB_SONAME, RTLD_NOW | RTLD_GLOBAL);
	if (!h)
		error_msg_and_die("cannot load %s: %s", DWLIB_SONAME,
				  dlerror());
	for (size_t i = 0; i < sizeof(functions) / sizeof(functions[0]); i++) {
		void *f = dlsym(h, functions[i].name);
		if (!f)
			error_msg_and_die("%s has no %s", DWLIB_SONAME,
					  functions[i].name);
		memcpy((char *)&dw + functions[i].at, &f, sizeof(f));
	}
	loaded = true;
	return &dw;
}
