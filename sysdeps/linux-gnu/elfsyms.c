/* Reading what one ELF file exports: the symbols of its .dynsym with
 * global or weak binding that it defines.  They answer -l ("calls into
 * a library": does it define this function?) and name the dynamic
 * linker's rendezvous (_dl_debug_state, _r_debug).
 *
 * The string table is copied once and the symbols point into it, so a
 * table of libc (some 3000 symbols) is two allocations.  Symbol names
 * are bounded by that copy, which is NUL-terminated here whatever the
 * file says. */
#include "elfscan.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Elf_Scn *find_dynsym(Elf *elf)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while ((scn = elf_nextscn(elf, scn)) != NULL)
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_DYNSYM)
			return scn;
	return NULL;
}

/* Copy the string table STRNDX, NUL-terminated; its size in *LEN. */
static char *copy_strings(Elf *elf, size_t strndx, size_t *len)
{
	Elf_Data *d = elf_getdata(elf_getscn(elf, strndx), NULL);
	if (!d || !d->d_buf || d->d_size == 0 || d->d_size == SIZE_MAX)
		return NULL;
	char *s = xmalloc(d->d_size + 1);
	memcpy(s, d->d_buf, d->d_size);
	s[d->d_size] = '\0';
	*len = d->d_size;
	return s;
}

static bool exported(const GElf_Sym *sym)
{
	int bind = GELF_ST_BIND(sym->st_info);
	int type = GELF_ST_TYPE(sym->st_info);
	return sym->st_shndx != SHN_UNDEF && sym->st_name != 0 &&
	       (bind == STB_GLOBAL || bind == STB_WEAK) && type != STT_FILE &&
	       type != STT_SECTION;
}

static int cmp_export(const void *a, const void *b)
{
	const struct elf_export *x = a;
	const struct elf_export *y = b;
	return strcmp(x->name, y->name);
}

/* Fill EX from the symbols of SCN, whose strings are EX->strs (LEN
 * bytes). */
static void collect(struct elf_exports *ex, Elf *elf, Elf_Scn *scn, size_t len)
{
	Elf_Data *data = elf_getdata(scn, NULL);
	size_t ent = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!data || !ent)
		return;
	size_t n = data->d_size / ent;
	ex->v = xreallocarray(NULL, n ? n : 1, sizeof(*ex->v));
	GElf_Sym sym;
	for (size_t i = 1; i < n && gelf_getsym(data, (int)i, &sym); i++) {
		if (!exported(&sym) || sym.st_name >= len)
			continue;
		struct elf_export *e = &ex->v[ex->n++];
		e->name = ex->strs + sym.st_name;
		e->addr = sym.st_value;
		e->func = GELF_ST_TYPE(sym.st_info) == STT_FUNC ||
			  GELF_ST_TYPE(sym.st_info) == STT_GNU_IFUNC;
	}
	qsort(ex->v, ex->n, sizeof(*ex->v), cmp_export);
}

static void read_elf(struct elf_exports *ex, Elf *elf)
{
	Elf_Scn *scn = find_dynsym(elf);
	GElf_Shdr sh;
	if (!scn || !gelf_getshdr(scn, &sh))
		return;
	size_t len = 0;
	ex->strs = copy_strings(elf, sh.sh_link, &len);
	if (ex->strs)
		collect(ex, elf, scn, len);
}

int elf_exports_read(struct elf_exports *ex, const char *path)
{
	memset(ex, 0, sizeof(*ex));
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int ret = -ENOEXEC;
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		read_elf(ex, elf);
		ret = 0;
	}
	elf_end(elf);
	close(fd);
	return ret;
}

const struct elf_export *elf_exports_find(const struct elf_exports *ex,
					  const char *name)
{
	struct elf_export key = { .name = name };
	if (!ex->n)
		return NULL;
	return bsearch(&key, ex->v, ex->n, sizeof(*ex->v), cmp_export);
}

void elf_exports_destroy(struct elf_exports *ex)
{
	free(ex->v);
	free(ex->strs);
	memset(ex, 0, sizeof(*ex));
}
