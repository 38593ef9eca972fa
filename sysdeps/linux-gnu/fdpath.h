/* What a traced thread's file descriptor refers to, for -y and -yy
 * (lenses/fd.c shows it): the target of /proc/TID/fd/N, and with -yy a
 * socket's protocol and endpoints (sockdiag.c) and a device's numbers.
 * Nothing is cached: each call asks /proc again (DESIGN.md, "File
 * descriptors"). */
#ifndef LTRACE_FDPATH_H
#define LTRACE_FDPATH_H

#include <stdbool.h>
#include <stddef.h>

/* What to decode (struct lens_limits' fds, from -y, -yy and
 * --decode-fds): strace's --decode-fds sets. */
#define FDPATH_PATH 1u	 /* -y: paths, AT_FDCWD's too */
#define FDPATH_SOCKET 2u /* sockets' protocol and endpoints */
#define FDPATH_DEV 4u	 /* character and block devices' numbers */
#define FDPATH_ALL (FDPATH_PATH | FDPATH_SOCKET | FDPATH_DEV) /* -yy */

/* AT_FDCWD of <fcntl.h>, for code that does not include it. */
#define FDPATH_AT_FDCWD (-100)

enum fdinfo_kind {
	FDINFO_NONE,  /* no descriptor there: only its number is shown */
	FDINFO_PATH,  /* PATH: a file, or "pipe:[N]", "socket:[N]"... */
	FDINFO_PROTO, /* a socket known by protocol only: PROTO:[INO] */
	FDINFO_INET,  /* PROTO:[SRC->DST], PROTO:[SRC] without a peer */
	FDINFO_UNIX,  /* PROTO:[INO->PEER,"PATH"], parts left out if none */
};

/* The text parts are NUL-terminated; PATH may hold other NULs (an
 * abstract socket's name starts with one), hence PATHLEN. */
struct fdinfo {
	enum fdinfo_kind kind;
	char path[4096 + 16];
	size_t pathlen;
	bool deleted; /* PATH was unlinked: " (deleted)" taken off */
	char dev;     /* 'c' or 'b': PATH is that device; else 0 */
	unsigned major, minor;
	char proto[32];		 /* "TCP", "UNIX-STREAM"... */
	unsigned long ino, peer; /* FDINFO_UNIX: 0 if none */
	char src[64], dst[64]; /* "127.0.0.1:80", "[::1]:80"; DST "" if none */
};

/* Fill OUT with what descriptor FD of thread TID is (FDPATH_AT_FDCWD:
 * its working directory), decoded as WHAT (FDPATH_* bits) says.  Costs
 * one readlink; FDPATH_DEV adds a stat, FDPATH_SOCKET on a socket a
 * getxattr and one NETLINK_SOCK_DIAG exchange.  OUT->kind is FDINFO_NONE
 * when FD is negative, closed, or TID gone. */
void fdpath_get(int tid, int fd, unsigned what, struct fdinfo *out);

/* Whether NAME is a C library function that closes or replaces
 * descriptors.  Under -y --fast such functions stay in ptrace mode
 * (fetchplan.c): a recorded call is shown when its record is drained,
 * after the call, but the loop drains every ring before it handles a
 * stop, so what was recorded before one of them is shown while its
 * descriptors still mean what they meant (DESIGN.md, "File
 * descriptors"). */
bool fdpath_frees(const char *name);

/* sockdiag.c: endpoints of socket inode INO of protocol PROTO (its
 * "system.sockprotoname"), through NETLINK_SOCK_DIAG in the tracer's
 * network namespace.  Fills OUT as FDINFO_INET or FDINFO_UNIX and
 * returns true; false (OUT's kind untouched) if PROTO has no diag or the
 * kernel does not know INO. */
bool sockdiag_get(const char *proto, unsigned long ino, struct fdinfo *out);

/* The parsers of sockdiag_get, on one reply message (a struct nlmsghdr
 * and what follows, LEN bytes): true with OUT filled when it describes
 * INO.  Pure, for the unit tests. */
bool sockdiag_parse_inet(const void *msg, size_t len, unsigned long ino,
			 struct fdinfo *out);
bool sockdiag_parse_unix(const void *msg, size_t len, unsigned long ino,
			 struct fdinfo *out);

#endif
