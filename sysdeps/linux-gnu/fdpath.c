/* What a descriptor of a traced thread refers to (fdpath.h): the target
 * of /proc/TID/fd/N as readlink(2) gives it, which is what strace -y
 * shows.  /proc/TID rather than /proc/TGID: a thread that unshared its
 * descriptor table (unshare(CLONE_FILES)) has its own, and a thread's
 * /proc entry stays readable when its group leader has exited. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "fdpath.h"

#define DELETED " (deleted)"

/* "/proc/TID/fd/FD", or "/proc/TID/cwd" for AT_FDCWD, into BUF. */
static void proc_link(char *buf, size_t len, int tid, int fd)
{
	if (fd == FDPATH_AT_FDCWD)
		snprintf(buf, len, "/proc/%d/cwd", tid);
	else
		snprintf(buf, len, "/proc/%d/fd/%d", tid, fd);
}

/* The kernel appends " (deleted)" to the path of an unlinked file
 * (d_path); a file may also be named so.  Taken off only when the file
 * has no link left, as the kernel would have said. */
static void take_deleted(const char *link, struct fdinfo *out)
{
	size_t n = sizeof(DELETED) - 1;
	struct stat st;

	if (out->pathlen < n ||
	    memcmp(out->path + out->pathlen - n, DELETED, n) ||
	    stat(link, &st) < 0 || st.st_nlink)
		return;
	out->pathlen -= n;
	out->path[out->pathlen] = '\0';
	out->deleted = true;
}

/* -yy: a character or block device's numbers, from a stat of the link
 * (which follows it to the open file). */
static void add_dev(const char *link, struct fdinfo *out)
{
	struct stat st;

	if (out->path[0] != '/' || stat(link, &st) < 0)
		return;
	if (!S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
		return;
	out->dev = S_ISCHR(st.st_mode) ? 'c' : 'b';
	out->major = major(st.st_rdev);
	out->minor = minor(st.st_rdev);
}

/* -yy: a socket as strace -yy shows it: its protocol from the
 * "system.sockprotoname" attribute of the link (sock_getxattr), its
 * endpoints from NETLINK_SOCK_DIAG; "socket:[INO]" kept if neither. */
static void add_socket(const char *link, struct fdinfo *out)
{
	unsigned long ino;
	char end;

	if (sscanf(out->path, "socket:[%lu%c", &ino, &end) != 2 || end != ']')
		return;
	ssize_t n = getxattr(link, "system.sockprotoname", out->proto,
			     sizeof(out->proto) - 1);
	if (n <= 0)
		return;
	out->proto[n] = '\0';
	out->ino = ino;
	if (!sockdiag_get(out->proto, ino, out))
		out->kind = FDINFO_PROTO;
}

void fdpath_get(int tid, int fd, unsigned what, struct fdinfo *out)
{
	char link[64];

	out->kind = FDINFO_NONE;
	out->deleted = false;
	out->dev = 0;
	if (tid <= 0 || (fd < 0 && fd != FDPATH_AT_FDCWD))
		return;
	proc_link(link, sizeof(link), tid, fd);
	ssize_t n = readlink(link, out->path, sizeof(out->path) - 1);
	if (n <= 0)
		return;
	out->path[n] = '\0';
	out->pathlen = (size_t)n;
	out->kind = FDINFO_PATH;
	take_deleted(link, out);
	if (what & FDPATH_DEV)
		add_dev(link, out);
	if ((what & FDPATH_SOCKET) && fd != FDPATH_AT_FDCWD)
		add_socket(link, out);
}

bool fdpath_frees(const char *name)
{
	static const char *const names[] = {
		"close",     "close_range", "closefrom", "dup2",
		"dup3",	     "fclose",	    "fcloseall", "freopen",
		"freopen64", "closedir",    "pclose",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}
