#include "protoset.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "config.h"
#include "error.h"
#include "options.h"
#include "protolib.h"
#include "xmalloc.h"

struct cached {
	char *name;	     /* a soname or an imported file's name */
	struct protolib *pl; /* NULL: no file; else one of files */
};

/* A file loaded: once, however many ways lead to it (named by -F, a
 * soname's, an import's, a default file), so that its errors are
 * reported once and its definitions held once. */
struct loaded {
	dev_t dev;
	ino_t ino;
	struct protolib *pl; /* NULL: could not be read */
};

struct protoset {
	struct loaded *files; /* they own the libraries the others name */
	size_t nfiles;
	struct protolib **front; /* -F files */
	size_t nfront;
	struct protolib **back; /* ~/.ltrace.conf, /etc/ltrace.conf */
	size_t nback;
	/* Their paths, loaded at the first lookup that gets to them. */
	char *back_paths[2];
	size_t nback_paths;
	bool back_loaded;
	char **dirs;
	size_t ndirs;
	struct cached *cache;
	size_t ncache;
};

static void add_dir(struct protoset *ps, const char *dir)
{
	struct stat sb;
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode))
		return;
	ps->dirs = xreallocarray(ps->dirs, ps->ndirs + 1, sizeof(*ps->dirs));
	ps->dirs[ps->ndirs++] = xstrdup(dir);
}

static void add_dirf(struct protoset *ps, const char *fmt, const char *a)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), fmt, a);
	add_dir(ps, path);
}

static const struct protolib *resolve_import(void *ctx, const char *name);

/* PATH, loaded once (struct loaded); its "import" statements find
 * NAME.conf in PS's search directories.  A file named by -F (NAMED) is
 * parsed whole at once, so that its errors show at the start; the others
 * (found in a directory, ~/.ltrace.conf, /etc/ltrace.conf) function by
 * function as they are looked up (conf_load_file_later).  The library
 * is in PS's list before it loads: an import cycle back to it finds it
 * (as far as it got). */
static struct protolib *load_with(struct protoset *ps, const char *path,
				  bool named)
{
	struct stat sb;
	if (stat(path, &sb))
		return NULL;
	for (size_t i = 0; i < ps->nfiles; i++)
		if (ps->files[i].dev == sb.st_dev &&
		    ps->files[i].ino == sb.st_ino)
			return ps->files[i].pl;
	struct protolib *pl = protolib_new();
	size_t i = ps->nfiles++;
	ps->files = xreallocarray(ps->files, ps->nfiles, sizeof(*ps->files));
	ps->files[i] = (struct loaded){ sb.st_dev, sb.st_ino, pl };
	protolib_set_import_resolver(pl, resolve_import, ps);
	if ((named ? conf_load_file(pl, path) :
		     conf_load_file_later(pl, path)) < 0) {
		protolib_free(pl);
		ps->files[i].pl = NULL;
		return NULL;
	}
	return pl;
}

static void push(struct protolib ***arr, size_t *n, struct protolib *pl)
{
	if (!pl)
		return;
	*arr = xreallocarray(*arr, *n + 1, sizeof(**arr));
	(*arr)[(*n)++] = pl;
}

/* The shipped prototypes: etc/ of the source tree when the binary runs
 * from its build tree (ltrace/ltrace beside etc/), else PKGDATADIR. */
static void add_shipped_dir(struct protoset *ps)
{
	char exe[PATH_MAX], probe[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(probe, sizeof(probe), "%s/../etc/libc.so.conf", exe);
		if (access(probe, R_OK) == 0) {
			snprintf(probe, sizeof(probe), "%s/../etc", exe);
			add_dir(ps, probe);
			return;
		}
	}
	add_dir(ps, PKGDATADIR);
}

static void add_xdg_dirs(struct protoset *ps, const char *home)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg)
		add_dirf(ps, "%s/ltrace", xdg);
	else if (home)
		add_dirf(ps, "%s/.config/ltrace", home);
	if (home)
		add_dirf(ps, "%s/.ltrace", home);
	const char *dirs = getenv("XDG_CONFIG_DIRS");
	char *copy = xstrdup(dirs && *dirs ? dirs : "/etc/xdg"), *save;
	for (char *d = strtok_r(copy, ":", &save); d;
	     d = strtok_r(NULL, ":", &save))
		if (*d == '/')
			add_dirf(ps, "%s/ltrace", d);
	free(copy);
}

static void add_option(struct protoset *ps, const char *path)
{
	struct stat sb;
	if (stat(path, &sb))
		perror_msg_and_die("cannot read config '%s'", path);
	if (S_ISDIR(sb.st_mode))
		add_dir(ps, path);
	else
		push(&ps->front, &ps->nfront, load_with(ps, path, true));
}

struct protoset *protoset_new(const struct options *o)
{
	struct protoset *ps = xcalloc(1, sizeof(*ps));
	const char *home = getenv("HOME");
	for (size_t i = 0; i < o->nconfs; i++)
		add_option(ps, o->confs[i]);
	add_xdg_dirs(ps, home);
	add_shipped_dir(ps);
	char path[PATH_MAX];
	if (home) {
		snprintf(path, sizeof(path), "%s/.ltrace.conf", home);
		if (access(path, R_OK) == 0)
			ps->back_paths[ps->nback_paths++] = xstrdup(path);
	}
	if (access("/etc/ltrace.conf", R_OK) == 0)
		ps->back_paths[ps->nback_paths++] = xstrdup("/etc/ltrace.conf");
	return ps;
}

/* ~/.ltrace.conf and /etc/ltrace.conf, at the first lookup no -F file
 * and no library's file answers: most runs never need them. */
static void load_back(struct protoset *ps)
{
	if (ps->back_loaded)
		return;
	ps->back_loaded = true;
	for (size_t i = 0; i < ps->nback_paths; i++)
		push(&ps->back, &ps->nback,
		     load_with(ps, ps->back_paths[i], false));
}

void protoset_free(struct protoset *ps)
{
	for (size_t i = 0; i < ps->nfiles; i++)
		protolib_free(ps->files[i].pl);
	for (size_t i = 0; i < ps->ndirs; i++)
		free(ps->dirs[i]);
	for (size_t i = 0; i < ps->nback_paths; i++)
		free(ps->back_paths[i]);
	for (size_t i = 0; i < ps->ncache; i++)
		free(ps->cache[i].name);
	free(ps->files);
	free(ps->front);
	free(ps->back);
	free(ps->dirs);
	free(ps->cache);
	free(ps);
}

/* NAME.conf in the first search directory that has it. */
static struct protolib *find_file(struct protoset *ps, const char *name)
{
	char path[PATH_MAX];
	for (size_t i = 0; i < ps->ndirs; i++) {
		if (snprintf(path, sizeof(path), "%s/%s.conf", ps->dirs[i],
			     name) >= (int)sizeof(path))
			continue;
		if (access(path, R_OK) == 0)
			return load_with(ps, path, false);
	}
	return NULL;
}

/* Try NAME, then snip ".suffix" parts while what is left ends in ".so"
 * or has a ".so." in it: libc.so.6 -> libc.so; never libc. */
static struct protolib *find_library(struct protoset *ps, const char *name)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", name);
	for (;;) {
		struct protolib *pl = find_file(ps, buf);
		if (pl)
			return pl;
		char *dot = strrchr(buf, '.');
		size_t len = strlen(buf);
		if (!dot || (len >= 3 && strcmp(buf + len - 3, ".so") == 0) ||
		    !strstr(buf, ".so."))
			return NULL;
		*dot = '\0';
	}
}

/* The cached library under KEY, else FIND(PS, NAME) cached.  The entry
 * is made before loading, so an import cycle finds it empty. */
static const struct protolib *
cached(struct protoset *ps, const char *key, const char *name,
       struct protolib *(*find)(struct protoset *, const char *))
{
	for (size_t i = 0; i < ps->ncache; i++)
		if (strcmp(ps->cache[i].name, key) == 0)
			return ps->cache[i].pl;
	ps->cache =
		xreallocarray(ps->cache, ps->ncache + 1, sizeof(*ps->cache));
	size_t i = ps->ncache++;
	ps->cache[i].name = xstrdup(key);
	ps->cache[i].pl = NULL;
	struct protolib *pl = find(ps, name);
	ps->cache[i].pl = pl;
	return pl;
}

const struct protolib *protoset_library(struct protoset *ps, const char *soname)
{
	return cached(ps, soname, soname, find_library);
}

/* "import NAME;": NAME.conf in the search directories.  Keys of imports
 * start with '"' so they never meet a soname. */
static const struct protolib *resolve_import(void *ctx, const char *name)
{
	char key[PATH_MAX];
	snprintf(key, sizeof(key), "\"%s", name);
	return cached(ctx, key, name, find_file);
}

const struct prototype *
protoset_lookup_own(struct protoset *ps, const char *name, const char *soname)
{
	const struct prototype *p = NULL;
	for (size_t i = 0; i < ps->nfront && !p; i++)
		p = protolib_lookup(ps->front[i], name);
	const struct protolib *pl = p ? NULL : protoset_library(ps, soname);
	return pl ? protolib_lookup(pl, name) : p;
}

const struct prototype *protoset_lookup(struct protoset *ps, const char *name,
					const char *const *sonames, size_t n)
{
	const struct prototype *p = NULL;
	for (size_t i = 0; i < ps->nfront && !p; i++)
		p = protolib_lookup(ps->front[i], name);
	for (size_t i = 0; i < n && !p; i++) {
		const struct protolib *pl = protoset_library(ps, sonames[i]);
		if (pl)
			p = protolib_lookup(pl, name);
	}
	if (!p)
		load_back(ps);
	for (size_t i = 0; i < ps->nback && !p; i++)
		p = protolib_lookup(ps->back[i], name);
	return p;
}
