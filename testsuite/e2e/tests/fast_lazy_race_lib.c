/* libifn.so for fast_lazy_race: ifn_f is an IFUNC, so that the lazy
 * binding of its PLT slot runs code of ours (f_resolve) between the
 * slot's lookup and its write.  The first thread to bind it waits there
 * until the program says (ifn_done); any other binds it at once. */
static volatile int go, done, calls;

/* The spin-wait hint of the CPU (pause; yield). */
#if defined(__x86_64__)
#define spin_hint() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define spin_hint() __asm__ volatile("yield")
#else
#define spin_hint() ((void)0)
#endif

static int f_impl(int x)
{
	return x + 100;
}

static void *f_resolve(void)
{
	if (__atomic_fetch_add(&calls, 1, __ATOMIC_SEQ_CST) == 0) {
		go = 1;
		while (!done)
			spin_hint();
	}
	return (void *)f_impl;
}

int ifn_f(int x) __attribute__((ifunc("f_resolve")));

int ifn_go(void)
{
	return go;
}

void ifn_done(void)
{
	done = 1;
}
