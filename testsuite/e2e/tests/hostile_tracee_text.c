/* A program that rewrites its own text while traced:
 *  1. mprotects a function's page RWX and writes new code over its body
 *     (away from any breakpoint);
 *  2. patches the PLT stub of abs into a direct jump to a function of
 *     its own (a PLT hook: it finds the stub as the loader's code has
 *     it, a `jmp *GOT(%rip)` through abs's slot);
 *  3. maps the file's page over a page of its text that holds the
 *     return site of a traced call (MAP_FIXED, the same file page), so
 *     our int3 there vanishes.
 * Each must behave as untraced.  With two arguments READY STOP, it
 * writes READY after the patches and waits for STOP before calling
 * again: testsuite/proc/tests/hostile_tracee_text.sh detaches the
 * tracer meanwhile, which must not put stale bytes back over what the
 * program wrote. */
#define _GNU_SOURCE
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static long pagesz;

static void *page_of(const void *p)
{
	return (void *)((uintptr_t)p & ~(uintptr_t)(pagesz - 1));
}

static void writable(const void *p, size_t n)
{
	void *lo = page_of(p);
	size_t len = (size_t)((const char *)p + n - (char *)lo);
	if (mprotect(lo, len, PROT_READ | PROT_WRITE | PROT_EXEC)) {
		perror("mprotect");
		exit(2);
	}
}

/* ---- the program's own segments ---- */

struct self {
	uintptr_t bias;
	const ElfW(Phdr) *text; /* the executable PT_LOAD */
	const ElfW(Dyn) *dyn;
};

static int find_self(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct self *s = arg;
	(void)size;
	s->bias = info->dlpi_addr;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
			s->text = ph;
		if (ph->p_type == PT_DYNAMIC)
			s->dyn = (const void *)(info->dlpi_addr + ph->p_vaddr);
	}
	return 1; /* the program is the first object */
}

static uintptr_t dyn_ptr(const struct self *s, uintptr_t v)
{
	/* glibc relocates the d_ptr entries of _DYNAMIC in place. */
	return v < s->bias ? v + s->bias : v;
}

/* The GOT slot of NAME, from the PLT's relocations. */
static uintptr_t got_slot(const struct self *s, const char *name)
{
	const ElfW(Rela) *rel = NULL;
	const ElfW(Sym) *sym = NULL;
	const char *str = NULL;
	size_t sz = 0;
	for (const ElfW(Dyn) *d = s->dyn; d->d_tag != DT_NULL; d++) {
		if (d->d_tag == DT_JMPREL)
			rel = (const void *)dyn_ptr(s, d->d_un.d_ptr);
		else if (d->d_tag == DT_PLTRELSZ)
			sz = d->d_un.d_val;
		else if (d->d_tag == DT_SYMTAB)
			sym = (const void *)dyn_ptr(s, d->d_un.d_ptr);
		else if (d->d_tag == DT_STRTAB)
			str = (const void *)dyn_ptr(s, d->d_un.d_ptr);
	}
	for (size_t i = 0; rel && i < sz / sizeof(*rel); i++)
		if (!strcmp(str + sym[ELF64_R_SYM(rel[i].r_info)].st_name, name))
			return s->bias + rel[i].r_offset;
	fprintf(stderr, "no slot for %s\n", name);
	exit(2);
}

/* Bytes copied by hand: no traced memcpy for each. */
static void copy(void *to, const void *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)to)[i] = ((const unsigned char *)from)[i];
}

/* The `jmp *SLOT(%rip)` (ff 25 rel32) of NAME's stub, found in the file's
 * bytes (as hooking libraries do: a tracer's int3 may sit on the stub in
 * memory). */
static unsigned char *stub_jump(const struct self *s, const char *name)
{
	uintptr_t slot = got_slot(s, name);
	unsigned char *lo = (unsigned char *)(s->bias + s->text->p_vaddr);
	size_t n = s->text->p_filesz;
	unsigned char *file = malloc(n);
	FILE *f = fopen("/proc/self/exe", "rb");
	if (!file || !f || fseek(f, (long)s->text->p_offset, SEEK_SET) ||
	    fread(file, 1, n, f) != n)
		exit(2);
	fclose(f);
	for (size_t i = 0; i + 6 <= n; i++) {
		int32_t rel;
		copy(&rel, file + i + 2, 4);
		if (file[i] == 0xff && file[i + 1] == 0x25 &&
		    (uintptr_t)(lo + i + 6) + rel == slot) {
			free(file);
			return lo + i;
		}
	}
	fprintf(stderr, "no stub for %s\n", name);
	exit(2);
}

/* ---- what it rewrites ---- */

static int answer(void)
{
	return 1;
}

static int hooks;

static int my_abs(int v)
{
	hooks++;
	return v + 1000;
}

/* Alone in its page, which holds the return site of its strlen call. */
__attribute__((aligned(4096), noinline)) static size_t remapped(const char *s)
{
	return strlen(s) + 1;
}

/* Ends remapped's page: nothing else is in it. */
__attribute__((aligned(4096), noinline)) static int page_end(void)
{
	return 0;
}

/* 1: "mov $42, %eax; ret" over answer's body. */
static void patch_answer(void)
{
	static const unsigned char code[] = { 0xb8, 42, 0, 0, 0, 0xc3 };
	writable((void *)answer, sizeof(code));
	copy((void *)answer, code, sizeof(code));
}

/* 2: "jmp my_abs" (e9 rel32) over the stub's jump. */
static void hook_abs_stub(const struct self *s)
{
	unsigned char *j = stub_jump(s, "abs");
	int32_t rel = (int32_t)((uintptr_t)my_abs - (uintptr_t)(j + 5));
	writable(j, 5);
	j[0] = 0xe9;
	copy(j + 1, &rel, 4);
}

/* 3: the file's page over remapped's page. */
static void remap_page(const struct self *s)
{
	uintptr_t page = (uintptr_t)page_of((void *)remapped);
	uintptr_t seg = s->bias + s->text->p_vaddr;
	off_t off = (off_t)(s->text->p_offset + (page - seg));
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0 || mmap((void *)page, pagesz, PROT_READ | PROT_EXEC,
			   MAP_PRIVATE | MAP_FIXED, fd, off) == MAP_FAILED) {
		perror("remap");
		exit(2);
	}
	close(fd);
}

static void wait_for(const char *ready, const char *stop)
{
	FILE *f = fopen(ready, "w");
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	while (access(stop, F_OK))
		usleep(10000);
}

int main(int argc, char **argv)
{
	struct self s = { 0, NULL, NULL };
	pagesz = sysconf(_SC_PAGESIZE);
	dl_iterate_phdr(find_self, &s);
	printf("before: %d %d %zu\n", answer(), abs(-3), remapped("ab"));
	patch_answer();
	hook_abs_stub(&s);
	remap_page(&s);
	printf("after: %d %d %zu\n", answer(), abs(-4), remapped("abc"));
	if (argc == 3)
		wait_for(argv[1], argv[2]);
	printf("later: %d %d %zu\n", answer(), abs(-5), remapped("abcd"));
	fflush(stdout);
	return page_end() + hooks == 2 && answer() == 42 ? 0 : 1;
}
