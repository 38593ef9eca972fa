/* A program that puts its own hook in its GOT slot of atoi (as PLT
 * hooking libraries do) while traced, and needs it after the tracer has
 * gone.  With --fast the slot held the recorder's trampoline until the
 * program wrote it: the tracer must leave the program's value there.
 *
 *   plthook attach NAME: writes NAME.ready, calls atoi in a loop; at
 *	NAME.act writes its hook in the slot, writes NAME.acted; at
 *	NAME.call (the tracer gone) calls atoi once: prints "ok" and exits
 *	0 if the hook answered (it calls what the slot held before), else
 *	says what did and exits 1.
 *   plthook fork: hooks after 10 calls, forks; the child, let go by a
 *	tracer without -f, calls atoi 100000 times (more records than a
 *	ring holds, were they recorded) and exits 0 if the hook answered
 *	each; prints "ok" if it did, else its wait status, and exits 1. */
#define _GNU_SOURCE
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stepfile.h"

/* What the slot held before the hook: the hook calls it, as PLT
 * hooking libraries do. */
static int (*orig)(const char *);

static int hooked(const char *s)
{
	return orig(s) + 100;
}

static void hook(uintptr_t *slot)
{
	orig = (int (*)(const char *))*slot;
	*slot = (uintptr_t)hooked;
}

struct found {
	const char *name;
	uintptr_t *slot;
};

/* The main program's JUMP_SLOT of NAME, from its dynamic section. */
static int find(struct dl_phdr_info *info, size_t size, void *data)
{
	struct found *fd = data;
	(void)size;
	const ElfW(Dyn) *dyn = NULL;
	for (int i = 0; i < info->dlpi_phnum; i++)
		if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(info->dlpi_addr +
						  info->dlpi_phdr[i].p_vaddr);
	uintptr_t rel = 0, sym = 0, str = 0, relsz = 0;
	for (; dyn && dyn->d_tag != DT_NULL; dyn++) {
		if (dyn->d_tag == DT_JMPREL)
			rel = dyn->d_un.d_ptr;
		else if (dyn->d_tag == DT_PLTRELSZ)
			relsz = dyn->d_un.d_val;
		else if (dyn->d_tag == DT_SYMTAB)
			sym = dyn->d_un.d_ptr;
		else if (dyn->d_tag == DT_STRTAB)
			str = dyn->d_un.d_ptr;
	}
	/* ld.so relocates these entries of the program's dynamic section
	 * in place, but not everywhere. */
	if (rel && rel < info->dlpi_addr)
		rel += info->dlpi_addr, sym += info->dlpi_addr,
			str += info->dlpi_addr;
	const ElfW(Rela) *r = (const ElfW(Rela) *)rel;
	for (size_t i = 0; r && i < relsz / sizeof(*r); i++) {
		const ElfW(Sym) *s = (const ElfW(Sym) *)sym + ELF64_R_SYM(r[i].r_info);
		if (!strcmp((const char *)str + s->st_name, fd->name)) {
			fd->slot = (uintptr_t *)(info->dlpi_addr + r[i].r_offset);
			break;
		}
	}
	return 1; /* the main program comes first */
}

int main(int argc, char **argv)
{
	struct found fd = { "atoi", NULL };
	dl_iterate_phdr(find, &fd);
	if (!fd.slot || atoi("7") != 7) {
		puts("no GOT slot of atoi");
		return 2;
	}
	if (argc > 2 && !strcmp(argv[1], "attach")) {
		step_put(argv[2], "ready");
		while (!step_there(argv[2], "act")) {
			if (atoi("7") != 7)
				return 3;
			usleep(2000);
		}
		hook(fd.slot);
		step_put(argv[2], "acted");
		while (!step_there(argv[2], "call"))
			usleep(2000);
		int v = atoi("5");
		if (v != 105) {
			printf("the hook is gone: atoi gave %d\n", v);
			return 1;
		}
		puts("ok");
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "fork")) {
		for (int i = 0; i < 10; i++)
			if (atoi("7") != 7)
				return 3;
		hook(fd.slot);
		pid_t c = fork();
		if (c == 0) {
			for (int i = 0; i < 100000; i++)
				if (atoi("5") != 105)
					_exit(1);
			_exit(0);
		}
		int st = -1;
		if (c < 0 || waitpid(c, &st, 0) != c || st != 0) {
			printf("child wait status %#x\n", st);
			return 1;
		}
		puts("ok");
		return 0;
	}
	return 2;
}
