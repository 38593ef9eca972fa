/* libFuzzer target: the DWARF-to-prototype mapping, on any object.  The
 * input (an ELF file with debug info, mutated) is written to a memfd and
 * read through /proc/self/fd/N as the tracer reads a library's DWARF at
 * a function's first call: by name (dwarf_lookup) and, for -x, by
 * address (dwarf_lookup_at), for every function its symbol tables name
 * (elfsyms.c) and a few fixed names of the seed corpus.  Each prototype
 * is walked as the argument classifier and the lenses walk it: sizes,
 * alignments and offsets of every type, pointers and arrays followed to
 * a bounded depth.
 *
 * Sources: fuzz/dwarf.c, sysdeps/linux-gnu/{dwarf,dwarftypes,debugfile,
 * elfsyms}.c, ltrace/{type,expr,hmap,xmalloc,error}.c and what they
 * need (see the fuzz rules of Makefile.am); libs: -ldw -lelf. */
#include "dwarfproto.h"
#include "elfscan.h"
#include "type.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_FUNCS 256
#define MAX_WALK 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const seed_names[] = { "fz_pt",    "fz_lst",	  "fz_str",
					  "fz_ifunc", "dw_point", NULL };

/* What a classifier and a lens compute of T, to depth MAX_WALK. */
static size_t walk_type(const struct type *t, int depth)
{
	if (!t || depth > MAX_WALK)
		return 0;
	size_t sum = type_sizeof(t) + type_alignof(t);
	sum += type_is_integer(t) + type_is_float(t) + type_needs_fp(t);
	for (size_t i = 0; i < t->nfields; i++)
		sum += type_offsetof(t, i) + walk_type(t->fields[i], depth + 1);
	for (size_t i = 0; i < t->nenums; i++)
		sum += strlen(t->enums[i].name);
	if (t->kind == TYPE_ARRAY)
		sum += type_array_is_fixed(t);
	return sum + walk_type(t->elt, depth + 1);
}

static size_t walk_proto(const struct prototype *p)
{
	if (!p)
		return 0;
	size_t sum = strlen(p->name) + walk_type(p->ret, 0) + p->split;
	for (size_t i = 0; i < p->nparams; i++)
		sum += walk_type(p->params[i], 0);
	return sum;
}

static void lookup_all(const char *path)
{
	struct dwarf_protos *d = dwarf_protos_new();
	volatile size_t sum = 0;
	struct elf_funcs fs;

	if (elf_funcs_read(&fs, path) == 0) {
		for (size_t i = 0; i < fs.n && i < MAX_FUNCS; i++) {
			sum += walk_proto(dwarf_lookup(d, path, fs.v[i].name));
			sum += walk_proto(dwarf_lookup_at(d, path, fs.v[i].addr,
							  fs.v[i].name));
		}
		elf_funcs_destroy(&fs);
	}
	for (size_t i = 0; seed_names[i]; i++)
		sum += walk_proto(dwarf_lookup(d, path, seed_names[i]));
	(void)sum;
	dwarf_protos_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-dwarf", MFD_CLOEXEC);
	char path[64];

	if (fd < 0)
		return 0;
	if (!size || write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		lookup_all(path);
	}
	close(fd);
	return 0;
}
