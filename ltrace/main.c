/* ltrace: trace the library calls of a program. */
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
#include "debug.h"
#include "error.h"
#include "options.h"
#include "output.h"
#include "protoset.h"
#include "xmalloc.h"

/* PATH lookup as a shell does it: a name with a slash is used as is. */
static char *find_program(const char *name)
{
	if (strchr(name, '/'))
		return xstrdup(name);
	const char *path = getenv("PATH");
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	char *copy = xstrdup(path);
	char *save = NULL;
	char *found = NULL;
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
	int fd =
		open(o->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		perror_msg_and_die("can't open %s for writing", o->output);
	return fd;
}

/* Dying (error.h) detaches every tracee, then ends the trace: a chrome
 * file stays valid JSON, -c's table is written. */
static void die_cleanup(void)
{
	backend_cleanup();
	output_finish();
}

int main(int argc, char **argv)
{
	struct options o;
	options_parse(&o, argc, argv);
	char *path = o.argv ? find_program(o.argv[0]) : NULL;
	if (path && backend_check_program(path)) {
		free(path);
		options_destroy(&o);
		return 1;
	}
	struct protoset *ps = protoset_new(&o);
	int fd = open_output(&o);
	output_init(fd, o.align, o.output != NULL, wants_eager_flush(fd));
	output_set_pid_prefix(o.follow || o.npids > 1 || (o.npids && path));
	output_set_options(&o);
	debug_init(o.debug);
	error_set_cleanup(die_cleanup);
	backend_init(&o, ps);
	debug_msg(DEBUG_GENERAL, "%zu pids to attach, program %s", o.npids,
		  path ? path : "none");
	int status = 0;
	for (size_t i = 0; i < o.npids && !status; i++)
		if (backend_attach(o.pids[i]) < 0)
			status = 1;
	if (!status && path && backend_launch(&o, path, o.argv) < 0)
		status = 1;
	if (!status) {
		status = backend_run();
		output_finish();
	} else {
		backend_cleanup();
	}
	debug_msg(DEBUG_GENERAL, "done, exit status %d", status);
	protoset_free(ps);
	free(path);
	options_destroy(&o);
	return status;
}
