/* ltrace: trace the library calls of a program. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "backend.h"
#include "config.h"
#include "error.h"
#include "options.h"
#include "output.h"
#include "proto.h"
#include "xmalloc.h"

/* PATH lookup as a shell does it: a name with a slash is used as is. */
static char *find_program(const char *name)
{
	if (strchr(name, '/'))
		return xstrdup(name);
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char *copy = xstrdup(path), *save = NULL, *found = NULL;
	char buf[PATH_MAX];
	for (char *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		snprintf(buf, sizeof(buf), "%s/%s", *d ? d : ".", name);
		struct stat sb;
		if (stat(buf, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    access(buf, X_OK) == 0)
			found = xstrdup(buf);
	}
	free(copy);
	if (!found)
		error_msg_and_die("cannot run '%s': command not found", name);
	return found;
}

static int conf_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);
	return n > 5 && strcmp(d->d_name + n - 5, ".conf") == 0;
}

/* Every *.conf of DIR, in name order.  Returns the number of files. */
static int load_dir(struct protolib *pl, const char *dir)
{
	struct dirent **ents;
	int n = scandir(dir, &ents, conf_filter, alphasort);
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		snprintf(path, sizeof(path), "%s/%s", dir, ents[i]->d_name);
		protolib_load_file(pl, path);
		free(ents[i]);
	}
	free(ents);
	return n;
}

static void load_entry(struct protolib *pl, const char *path, bool must)
{
	struct stat sb;
	if (stat(path, &sb)) {
		if (must)
			perror_msg_and_die("cannot read config '%s'", path);
		return;
	}
	if (S_ISDIR(sb.st_mode))
		load_dir(pl, path);
	else
		protolib_load_file(pl, path);
}

/* The shipped prototypes: from the source tree when the binary runs in
 * its build tree (ltrace/ltrace beside etc/), else the installed data
 * directory. */
static void load_shipped(struct protolib *pl)
{
	char exe[PATH_MAX], dir[PATH_MAX + 32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(dir, sizeof(dir), "%s/../etc/libc.so.conf", exe);
		if (access(dir, R_OK) == 0) {
			snprintf(dir, sizeof(dir), "%s/../etc", exe);
			load_dir(pl, dir);
			return;
		}
	}
	load_dir(pl, PKGDATADIR);
}

/* Highest priority first: -F entries, the user's files, the shipped
 * prototypes, the system's /etc/ltrace.conf. */
static struct protolib *load_prototypes(const struct options *o)
{
	struct protolib *pl = protolib_new();
	for (size_t i = 0; i < o->nconfs; i++)
		load_entry(pl, o->confs[i], true);
	char path[PATH_MAX];
	const char *home = getenv("HOME");
	const char *xdg = getenv("XDG_CONFIG_HOME");
	if (xdg && *xdg) {
		snprintf(path, sizeof(path), "%s/ltrace", xdg);
		load_entry(pl, path, false);
	} else if (home) {
		snprintf(path, sizeof(path), "%s/.config/ltrace", home);
		load_entry(pl, path, false);
	}
	if (home) {
		snprintf(path, sizeof(path), "%s/.ltrace.conf", home);
		load_entry(pl, path, false);
	}
	load_shipped(pl);
	load_entry(pl, "/etc/ltrace.conf", false);
	return pl;
}

static bool same_file(int a, int b)
{
	struct stat sa, sb;
	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Flush before every block when the trace shares a terminal, a pipe or a
 * file with the program's own output; /dev/null needs no ordering. */
static bool wants_eager_flush(int fd)
{
	struct stat sb;
	if (fstat(fd, &sb))
		return true;
	if (S_ISCHR(sb.st_mode) && sb.st_rdev == makedev(1, 3))
		return false;
	if (isatty(fd) || S_ISFIFO(sb.st_mode))
		return true;
	return same_file(fd, STDOUT_FILENO) || same_file(fd, STDERR_FILENO);
}

static int open_output(const struct options *o)
{
	if (!o->output)
		return STDERR_FILENO;
	int fd = open(o->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		      0666);
	if (fd < 0)
		perror_msg_and_die("can't open %s for writing", o->output);
	return fd;
}

int main(int argc, char **argv)
{
	struct options o;
	options_parse(&o, argc, argv);
	char *path = find_program(o.argv[0]);
	if (backend_check_program(path)) {
		free(path);
		options_destroy(&o);
		return 1;
	}
	struct protolib *pl = load_prototypes(&o);
	int fd = open_output(&o);
	out_init(fd, o.align, o.output != NULL, wants_eager_flush(fd));
	out_set_pid_prefix(o.follow);
	error_set_cleanup(backend_cleanup);
	if (backend_launch(&o, path, o.argv) < 0)
		return 1;
	int status = backend_run(&o, pl);
	protolib_free(pl);
	free(path);
	options_destroy(&o);
	return status;
}
