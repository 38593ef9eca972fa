#include "demangle.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"

/* The C++ ABI's demangler (libstdc++, libsupc++), with C linkage: the
 * result is malloc'd; *STATUS is 0 on success, -1 when out of memory, -2
 * for a name that is not mangled, -3 for a bad argument. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

char *demangle(const char *name)
{
	/* Only _Z names are C++ (Itanium ABI); skip the runtime's call for
	 * the C symbols that make up most of a program. */
	if (strncmp(name, "_Z", 2) != 0)
		return NULL;
	int status = 0;
	char *out = __cxa_demangle(name, NULL, NULL, &status);
	if (status == -1)
		error_msg_and_die("out of memory demangling %s", name);
	if (status != 0) {
		free(out);
		return NULL;
	}
	return out;
}
