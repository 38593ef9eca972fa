/* Loads and unloads two libraries of its own 20 times (libs_one.c,
 * libs_two.c; libtwo with RTLD_GLOBAL, so that libone's call to
 * two_sum, through libone's PLT, binds to it) and calls into them in each
 * cycle.  Right after each dlopen it checks that the .text of both, in
 * memory, is what their files hold: no breakpoint byte of an earlier
 * cycle has landed in the new mapping. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char *slurp(const char *file, size_t *len)
{
	struct stat st;
	int fd = open(file, O_RDONLY);
	char *buf;

	if (fd < 0 || fstat(fd, &st) < 0)
		return NULL;
	buf = malloc(st.st_size);
	*len = read(fd, buf, st.st_size) == st.st_size ? st.st_size : 0;
	close(fd);
	return buf;
}

/* Whether the .text of the object loaded as H equals FILE's. */
static int text_intact(void *h, const char *file)
{
	struct link_map *lm;
	size_t len = 0;
	char *buf;
	int ok = 0;

	if (dlinfo(h, RTLD_DI_LINKMAP, &lm) || !(buf = slurp(file, &len)))
		return 0;
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
	const Elf64_Shdr *sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
	const char *names = buf + sh[eh->e_shstrndx].sh_offset;
	for (int i = 0; i < eh->e_shnum; i++)
		if (!strcmp(names + sh[i].sh_name, ".text"))
			ok = !memcmp((char *)lm->l_addr + sh[i].sh_addr,
				     buf + sh[i].sh_offset, sh[i].sh_size);
	free(buf);
	return ok;
}

int main(void)
{
	for (int i = 0; i < 20; i++) {
		void *two = dlopen("./libtwo.so", RTLD_NOW | RTLD_GLOBAL);
		void *one = dlopen("./libone.so", RTLD_NOW);
		if (!one || !two) {
			printf("dlopen: %s\n", dlerror());
			return 1;
		}
		int intact = text_intact(one, "./libone.so") &&
			     text_intact(two, "./libtwo.so");
		int (*calc)(int) = (int (*)(int))dlsym(one, "one_calc");
		printf("cycle %d: %d, %s\n", i, calc(i),
		       intact ? "text intact" : "TEXT CHANGED");
		dlclose(one);
		dlclose(two);
	}
	return 0;
}
