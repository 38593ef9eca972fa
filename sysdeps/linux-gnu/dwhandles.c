/* The C library's handles (dwhandles.h), by name: glibc's, as its
 * headers and its own DWARF name them.  A name in a program's own code
 * is the C library's too: these are reserved or defined by the
 * standard headers. */
#include "dwhandles.h"

#include <stddef.h>
#include <string.h>

/* Typedefs: those of anonymous unions (the pthread objects, sem_t,
 * C11's mtx_t and cnd_t) are known by no other name. */
static const char *const typedefs[] = {
	"FILE",
	"__FILE",
	"DIR",
	"locale_t",
	"__locale_t",
	"jmp_buf",
	"sigjmp_buf",
	"va_list",
	"__gnuc_va_list",
	"pthread_attr_t",
	"pthread_mutex_t",
	"pthread_mutexattr_t",
	"pthread_cond_t",
	"pthread_condattr_t",
	"pthread_rwlock_t",
	"pthread_rwlockattr_t",
	"pthread_barrier_t",
	"pthread_barrierattr_t",
	"sem_t",
	"mtx_t",
	"cnd_t",
};

/* Tags: the structs behind those typedefs, and the library's private
 * structs that its public ones point at (regex_t's compiled pattern). */
static const char *const tags[] = {
	"_IO_FILE",	 "_IO_FILE_plus",   "_IO_wide_data",
	"__dirstream",	 "__locale_struct", "__locale_data",
	"__jmp_buf_tag", "__va_list_tag",   "re_dfa_t",
};

static bool listed(const char *name, const char *const *v, size_t n)
{
	for (size_t i = 0; name && i < n; i++)
		if (!strcmp(name, v[i]))
			return true;
	return false;
}

bool dwhandle_is(const char *typedef_name, const char *tag)
{
	return listed(typedef_name, typedefs,
		      sizeof(typedefs) / sizeof(typedefs[0])) ||
	       listed(tag, tags, sizeof(tags) / sizeof(tags[0]));
}
