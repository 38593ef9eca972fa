/* What /proc says of a process: its status fields, and the objects mapped
 * into it (for prototype lookup). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfscan.h"
#include "linux.h"
#include "proc.h"
#include "xmalloc.h"

long proc_status_field(pid_t pid, const char *key, int base)
{
	char path[64], line[256];
	size_t klen = strlen(key);
	long v = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, klen) == 0 && line[klen] == ':') {
			v = (long)strtoul(line + klen + 1, NULL, base);
			break;
		}
	fclose(f);
	return v;
}

static bool known(const struct process *p, const char *path)
{
	for (size_t i = 0; i < p->nlibs; i++)
		if (strcmp(p->lib_paths[i], path) == 0)
			return true;
	return false;
}

static void add(struct process *p, const char *path, const char *name)
{
	p->lib_paths = xreallocarray(p->lib_paths, p->nlibs + 1,
				     sizeof(*p->lib_paths));
	p->lib_names = xreallocarray(p->lib_names, p->nlibs + 1,
				     sizeof(*p->lib_names));
	p->lib_paths[p->nlibs] = xstrdup(path);
	p->lib_names[p->nlibs] = xstrdup(name);
	p->nlibs++;
}

/* Name a library by its DT_SONAME, else by its file name. */
static void add_library(struct process *p, const char *path)
{
	struct elf_image img;
	char err[128];
	memset(&img, 0, sizeof(img));
	if (elf_image_read(&img, path, err, sizeof(err)) < 0)
		return;
	const char *base = strrchr(path, '/');
	add(p, path, img.soname ? img.soname : base ? base + 1 : path);
	elf_image_destroy(&img);
}

int process_read_libs(struct process *p)
{
	char path[64], line[PATH_MAX + 128], exe[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)p->pid);
	ssize_t n = readlink(path, exe, sizeof(exe) - 1);
	if (n > 0 && !p->nlibs) {
		exe[n] = '\0';
		const char *base = strrchr(exe, '/');
		add(p, exe, base ? base + 1 : exe);
	}
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)p->pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char perms[8], *file = strchr(line, '/');
		if (!file || sscanf(line, "%*s %7s", perms) != 1 ||
		    perms[2] != 'x')
			continue;
		file[strcspn(file, "\n")] = '\0';
		if (!known(p, file))
			add_library(p, file);
	}
	fclose(f);
	return 0;
}
