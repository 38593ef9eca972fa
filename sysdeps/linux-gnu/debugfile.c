/* Finding a file's debug info: see debugfile.h. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>

#include "debugfile.h"

#define DEBUG_ROOT "/usr/lib/debug"

static bool has_debug_info(Elf *elf)
{
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return false;
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
			continue;
		const char *name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".debug_info"))
			return true;
	}
	return false;
}

/* False when ELF has a build-id that DBG does not carry. */
static bool build_ids_match(Elf *elf, Elf *dbg)
{
	const void *id1, *id2;
	ssize_t n1 = dwelf_elf_gnu_build_id(elf, &id1);
	ssize_t n2 = dwelf_elf_gnu_build_id(dbg, &id2);

	return n1 <= 0 || (n1 == n2 && !memcmp(id1, id2, (size_t)n1));
}

/* Open PATH as the separate debug file of DF's ELF file; true on
 * success. */
static bool try_debug_file(struct debugfile *df, const char *path)
{
	df->dbgfd = open(path, O_RDONLY | O_CLOEXEC);
	if (df->dbgfd < 0)
		return false;
	df->dbgelf = elf_begin(df->dbgfd, ELF_C_READ_MMAP, NULL);
	if (!df->dbgelf || !has_debug_info(df->dbgelf) ||
	    !build_ids_match(df->elf, df->dbgelf))
		goto err_close;
	df->dw = dwarf_begin_elf(df->dbgelf, DWARF_C_READ, NULL);
	if (df->dw)
		return true;
err_close:
	elf_end(df->dbgelf);
	df->dbgelf = NULL;
	close(df->dbgfd);
	df->dbgfd = -1;
	return false;
}

static bool find_by_build_id(struct debugfile *df)
{
	const unsigned char *id;
	ssize_t n = dwelf_elf_gnu_build_id(df->elf, (const void **)&id);

	if (n < 2 || n > 64)
		return false;
	char path[sizeof(DEBUG_ROOT) + 32 + 2 * 64];
	size_t len = (size_t)snprintf(path, sizeof(path),
				      DEBUG_ROOT "/.build-id/%02x/", id[0]);
	for (size_t i = 1; i < (size_t)n; i++)
		len += (size_t)snprintf(path + len, sizeof(path) - len, "%02x",
					id[i]);
	snprintf(path + len, sizeof(path) - len, ".debug");
	return try_debug_file(df, path);
}

/* gdb's order: beside the file, in .debug/ beside it, under the global
 * debug root mirroring the file's folder. */
static bool find_by_debuglink(struct debugfile *df, const char *file)
{
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(df->elf, &crc);

	if (!link || strchr(link, '/'))
		return false;
	const char *slash = strrchr(file, '/');
	int dlen = slash ? (int)(slash - file) : 1;
	const char *dir = slash ? file : ".";
	char path[4096];
	snprintf(path, sizeof(path), "%.*s/%s", dlen, dir, link);
	if (strcmp(path, file) && try_debug_file(df, path))
		return true;
	snprintf(path, sizeof(path), "%.*s/.debug/%s", dlen, dir, link);
	if (try_debug_file(df, path))
		return true;
	snprintf(path, sizeof(path), DEBUG_ROOT "%s%.*s/%s",
		 dir[0] == '/' ? "" : "/", dlen, dir, link);
	return try_debug_file(df, path);
}

static bool find_dwarf(struct debugfile *df, const char *path)
{
	if (has_debug_info(df->elf)) {
		df->dw = dwarf_begin_elf(df->elf, DWARF_C_READ, NULL);
		return df->dw != NULL;
	}
	return find_by_build_id(df) || find_by_debuglink(df, path);
}

int debugfile_open(struct debugfile *df, const char *path)
{
	*df = (struct debugfile){ .fd = -1, .dbgfd = -1 };
	df->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (df->fd < 0)
		return -errno;
	df->elf = elf_begin(df->fd, ELF_C_READ_MMAP, NULL);
	if (df->elf && elf_kind(df->elf) == ELF_K_ELF && find_dwarf(df, path))
		return 0;
	debugfile_close(df);
	return -ENODATA;
}

void debugfile_close(struct debugfile *df)
{
	if (df->dw)
		dwarf_end(df->dw);
	if (df->dbgelf)
		elf_end(df->dbgelf);
	if (df->elf)
		elf_end(df->elf);
	if (df->dbgfd >= 0)
		close(df->dbgfd);
	if (df->fd >= 0)
		close(df->fd);
	*df = (struct debugfile){ .fd = -1, .dbgfd = -1 };
}
