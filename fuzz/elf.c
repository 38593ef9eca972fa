/* libFuzzer target: the ELF reader, on any file.  The input is written
 * to a procmem and read through /proc/self/fd/N with what the tracer runs
 * on a program at exec and on a library at dlopen: the image (segments,
 * stubs, slots), the call sites when it has slots, the exports and,
 * for -x, the functions.  Every result is walked, so that a bad pointer
 * or length in it shows under ASan.
 *
 * Sources: fuzz/elf.c, sysdeps/linux-gnu/{elf,elfdyn,elffile,elfsites,elfsyms}.c,
 * sysdeps/linux-gnu/ARCH/{plt,sites}.c, ltrace/xmalloc.c; libs: -lelf
 * -lZydis. */
#include "elfscan.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A procmem holding DATA, its path in PATH; -1 if it cannot be made. */
static int data_file(const uint8_t *data, size_t size, char *path, size_t len)
{
	int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);
	if (fd < 0)
		return -1;
	if (size && write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return -1;
	}
	snprintf(path, len, "/proc/self/fd/%d", fd);
	return fd;
}

/* Touch every string and entry the readers handed out. */
static size_t walk_image(const struct elf_image *img, const struct elf_sites *s)
{
	size_t sum = img->soname ? strlen(img->soname) : 0;
	sum += img->interp ? strlen(img->interp) : 0;
	for (size_t i = 0; i < img->nplt; i++)
		sum += strlen(img->plt[i].name) + img->plt[i].addr;
	for (size_t i = 0; i < img->nslots; i++)
		sum += strlen(img->slots[i].name) + img->slots[i].got;
	for (size_t i = 0; s && i < s->n; i++)
		sum += strlen(img->slots[s->v[i].slot].name) + s->v[i].len;
	return sum;
}

static size_t walk_syms(const struct elf_exports *ex,
			const struct elf_funcs *fs)
{
	size_t sum = 0;
	for (size_t i = 0; ex && i < ex->n; i++)
		sum += strlen(ex->v[i].name) +
		       (elf_exports_find(ex, ex->v[i].name) != NULL);
	for (size_t i = 0; fs && i < fs->n; i++)
		sum += strlen(fs->v[i].name);
	for (size_t i = 0; fs && i < fs->nirel; i++)
		sum += elf_funcs_irel_slot(fs, fs->irel[i].resolver) != 0;
	return sum;
}

static void read_all(const char *path)
{
	struct elf_image img;
	char err[256];
	volatile size_t sum = 0;

	if (elf_image_read(&img, path, err, sizeof(err)) == 0) {
		struct elf_sites s;
		bool sites = elf_sites_read(&s, path, &img) == 0;
		sum += walk_image(&img, sites ? &s : NULL);
		if (sites)
			elf_sites_destroy(&s);
		elf_image_destroy(&img);
	}
	struct elf_exports ex;
	if (elf_exports_read(&ex, path) == 0) {
		sum += walk_syms(&ex, NULL);
		elf_exports_destroy(&ex);
	}
	struct elf_funcs fs;
	if (elf_funcs_read(&fs, path) == 0) {
		sum += walk_syms(NULL, &fs);
		elf_funcs_destroy(&fs);
	}
	(void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[64];
	int fd = data_file(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	read_all(path);
	close(fd);
	return 0;
}
