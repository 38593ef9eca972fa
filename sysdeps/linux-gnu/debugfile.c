/* Finding a file's debug info: see debugfile.h. */
#include <errno.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "dwlib.h"

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
	if (elf_file_open(&df->dbg, path, NULL, 0))
		return false;
	if (has_debug_info(df->dbg.elf) &&
	    build_ids_match(df->file.elf, df->dbg.elf))
		df->dw = dwarf_begin_elf(df->dbg.elf, DWARF_C_READ, NULL);
	if (df->dw)
		return true;
	elf_file_close(&df->dbg);
	return false;
}

static bool find_by_build_id(struct debugfile *df)
{
	const unsigned char *id;
	ssize_t n = dwelf_elf_gnu_build_id(df->file.elf, (const void **)&id);

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
	const char *link = dwelf_elf_gnu_debuglink(df->file.elf, &crc);

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
	if (has_debug_info(df->file.elf)) {
		df->dw = dwarf_begin_elf(df->file.elf, DWARF_C_READ, NULL);
		return df->dw != NULL;
	}
	return find_by_build_id(df) || find_by_debuglink(df, path);
}

int debugfile_open(struct debugfile *df, const char *path)
{
	memset(df, 0, sizeof(*df));
	int ret = elf_file_open(&df->file, path, NULL, 0);
	if (ret)
		return ret == -ENOEXEC ? -ENODATA : ret;
	if (find_dwarf(df, path))
		return 0;
	debugfile_close(df);
	return -ENODATA;
}

void debugfile_close(struct debugfile *df)
{
	if (df->dw)
		dwarf_end(df->dw);
	if (df->dbg.elf)
		elf_file_close(&df->dbg);
	if (df->file.elf)
		elf_file_close(&df->file);
	memset(df, 0, sizeof(*df));
}
