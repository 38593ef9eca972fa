/* libunwind, loaded when first needed (unwlib.h). */
#include "unwlib.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "config.h"
#include "error.h"

#define NAME(f) NAME_(f)
#define NAME_(f) #f
#define SYM(f, field)                                   \
	{                                               \
		NAME(f), offsetof(struct unwlib, field) \
	}

static const struct {
	const char *name;
	size_t at;
} syms[] = {
	SYM(unw_create_addr_space, create_addr_space),
	SYM(unw_destroy_addr_space, destroy_addr_space),
	SYM(unw_set_caching_policy, set_caching_policy),
	SYM(unw_flush_cache, flush_cache),
	SYM(unw_init_remote, init_remote),
	SYM(unw_step, step),
	SYM(unw_get_reg, get_reg),
	SYM(_UPT_create, upt_create),
	SYM(_UPT_destroy, upt_destroy),
	SYM(_UPT_find_proc_info, find_proc_info),
	SYM(_UPT_put_unwind_info, put_unwind_info),
	SYM(_UPT_get_dyn_info_list_addr, get_dyn_info_list_addr),
};

/* The libraries, those others need first (configure lists the ptrace
 * helpers first, as a link does): global, so that each finds the
 * functions of those before it. */
static int load_all(void)
{
	static const char *const libs[] = { UNWLIB_SONAMES };
	size_t n = sizeof(libs) / sizeof(libs[0]);
	for (size_t i = n; i-- > 0;)
		if (!dlopen(libs[i], RTLD_NOW | RTLD_GLOBAL))
			return -1;
	return 0;
}

static int load(struct unwlib *u)
{
	if (load_all())
		return -1;
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *f = dlsym(RTLD_DEFAULT, syms[i].name);
		if (!f)
			return -1;
		memcpy((char *)u + syms[i].at, &f, sizeof(f));
	}
	return 0;
}

const struct unwlib *unwlib_get(void)
{
	static struct unwlib u;
	static int state; /* 0: not tried, 1: loaded, -1: failed */
	if (!state) {
		state = load(&u) ? -1 : 1;
		if (state < 0) {
			const char *why = dlerror();
			error_msg(
				"-w: cannot load libunwind (%s): no backtraces",
				why ? why : "a function is missing");
		}
	}
	return state > 0 ? &u : NULL;
}
