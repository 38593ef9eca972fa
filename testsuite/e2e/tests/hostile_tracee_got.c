/* A program that hooks its own calls the way hooking libraries do: it
 * finds the GOT slot of a function in its own dynamic relocations
 * (DT_JMPREL), writes the address of a function of its own there, calls
 * through the PLT, and puts the old value back.  The tracer emulates the
 * stub's "jmp *GOT", so it must jump where the slot points at that call:
 * the hook while it is in place, libc again once restored, and lazy
 * binding for a slot hooked and restored before its first call.  Built
 * with -fno-plt (hostile_tracee_got_noplt), the calls go through the
 * same slots from their call sites. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static uintptr_t dyn_ptr(const struct dl_phdr_info *info, uintptr_t v)
{
	/* glibc relocates the d_ptr entries of _DYNAMIC in place. */
	return v < info->dlpi_addr ? v + info->dlpi_addr : v;
}

struct want {
	const char *name;
	void **slot;
};

static void find_in(struct dl_phdr_info *info, const ElfW(Dyn) *d,
		    struct want *w)
{
	const ElfW(Rela) *rel[2] = { NULL, NULL };
	const ElfW(Sym) *sym = NULL;
	const char *str = NULL;
	size_t sz[2] = { 0, 0 };
	for (; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_JMPREL)
			rel[0] = (const void *)dyn_ptr(info, d->d_un.d_ptr);
		else if (d->d_tag == DT_PLTRELSZ)
			sz[0] = d->d_un.d_val;
		else if (d->d_tag == DT_RELA)
			rel[1] = (const void *)dyn_ptr(info, d->d_un.d_ptr);
		else if (d->d_tag == DT_RELASZ)
			sz[1] = d->d_un.d_val;
		else if (d->d_tag == DT_SYMTAB)
			sym = (const void *)dyn_ptr(info, d->d_un.d_ptr);
		else if (d->d_tag == DT_STRTAB)
			str = (const void *)dyn_ptr(info, d->d_un.d_ptr);
	}
	/* The PLT's slots, and with -fno-plt the GLOB_DAT ones. */
	for (int k = 0; k < 2; k++) {
		for (size_t i = 0; rel[k] && i < sz[k] / sizeof(ElfW(Rela)); i++) {
			const ElfW(Rela) *r = &rel[k][i];
			const char *n = str + sym[ELF64_R_SYM(r->r_info)].st_name;
			if (ELF64_R_SYM(r->r_info) && strcmp(n, w->name) == 0)
				w->slot = (void **)(info->dlpi_addr + r->r_offset);
		}
	}
}

/* The program is the first object dl_iterate_phdr reports. */
static int find_slot(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			find_in(info,
				(const void *)(info->dlpi_addr +
					       info->dlpi_phdr[i].p_vaddr),
				arg);
	return 1;
}

/* The slot of NAME, made writable (it is read-only after RELRO with
 * -z now). */
static void **got_slot(const char *name)
{
	struct want w = { name, NULL };
	dl_iterate_phdr(find_slot, &w);
	if (!w.slot) {
		fprintf(stderr, "no GOT slot for %s\n", name);
		exit(2);
	}
	long pg = sysconf(_SC_PAGESIZE);
	void *page = (void *)((uintptr_t)w.slot & ~(uintptr_t)(pg - 1));
	if (mprotect(page, pg, PROT_READ | PROT_WRITE)) {
		perror("mprotect");
		exit(2);
	}
	return w.slot;
}

static int hook_calls;

/* The hook: counts and answers 100 more than the length. */
static size_t my_strlen(const char *s)
{
	size_t n = 0;
	hook_calls++;
	while (s[n])
		n++;
	return n + 100;
}

static int my_abs(int v)
{
	hook_calls++;
	return -v;
}

int main(void)
{
	size_t a = strlen("abc");
	void **slot = got_slot("strlen");
	void *saved = *slot;
	*slot = (void *)my_strlen;
	size_t b = strlen("hooked");
	*slot = saved;
	size_t c = strlen("restored");
	printf("%zu %zu %zu\n", a, b, c);

	/* abs's slot, still unbound under lazy binding: hooked before its
	 * first call, then restored to the lazy stub, then bound. */
	slot = got_slot("abs");
	saved = *slot;
	*slot = (void *)my_abs;
	int d = abs(5);
	*slot = saved;
	int e = abs(-6);
	int f = abs(-7);
	printf("%d %d %d hooks %d\n", d, e, f, hook_calls);
	return hook_calls == 2 && b == 106 && d == -5 ? 0 : 1;
}
