/* libunwind for -w, loaded at the first backtrace instead of at every
 * start of the tracer: linked, its three libraries cost about 2.8 ms of
 * each start here (mapping them, their relocations), and most runs never
 * unwind.  The functions unwind.c calls, found by dlsym under the names
 * libunwind's headers give them for the architecture built for (unw_step
 * is _Ux86_64_step on x86_64, _Uaarch64_step on aarch64: the macros of
 * <libunwind.h> name them, nothing here does), in the libraries
 * configure found a program linked with it to need. */
#ifndef LTRACE_UNWLIB_H
#define LTRACE_UNWLIB_H

#include <libunwind-ptrace.h>

struct unwlib {
	__typeof__(unw_create_addr_space) *create_addr_space;
	__typeof__(unw_destroy_addr_space) *destroy_addr_space;
	__typeof__(unw_set_caching_policy) *set_caching_policy;
	__typeof__(unw_flush_cache) *flush_cache;
	__typeof__(unw_init_remote) *init_remote;
	__typeof__(unw_step) *step;
	__typeof__(unw_get_reg) *get_reg;
	__typeof__(_UPT_create) *upt_create;
	__typeof__(_UPT_destroy) *upt_destroy;
	__typeof__(_UPT_find_proc_info) *find_proc_info;
	__typeof__(_UPT_put_unwind_info) *put_unwind_info;
	__typeof__(_UPT_get_dyn_info_list_addr) *get_dyn_info_list_addr;
};

/* libunwind's functions, loaded at the first call.  NULL when they cannot
 * be (said once, with dlerror's reason): -w then shows no frames. */
const struct unwlib *unwlib_get(void);

#endif
