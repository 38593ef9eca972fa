/* System calls (-S) decoded by a syscalls.conf written in the style of
 * ltrace 0.7.91 (syscall_upstream_conf.d/syscalls.conf): a program
 * without libc, so that the trace holds its own system calls only. */
#include "nolibc.h"

static long sys4(long nr, long a, long b, long c, long d)
{
	return sys6(nr, a, b, c, d, 0, 0);
}

#define AT_FDCWD -100
#define O_CLOEXEC 02000000
#define S_IFIFO 0010000
#define SEEK_CUR 1

void cmain(long *sp)
{
	char cwd[64], buf[16];
	int fds[2];

	sys4(__NR_chdir, (long)"/", 0, 0, 0);
	sys4(__NR_getcwd, (long)cwd, sizeof(cwd), 0, 0);
	sys4(__NR_umask, 027, 0, 0, 0);
	sys4(__NR_umask, 022, 0, 0, 0);
	sys4(__NR_openat, AT_FDCWD, (long)"/nonexistent/x", O_CLOEXEC, 0);
	sys4(__NR_mknodat, AT_FDCWD, (long)"/nonexistent/fifo",
	     S_IFIFO | 0644, 0);
	sys4(__NR_pipe2, (long)fds, 0, 0, 0);
	sys4(__NR_write, fds[1], (long)"abc", 3, 0);
	sys4(__NR_read, fds[0], (long)buf, sizeof(buf), 0);
	sys4(__NR_lseek, fds[0], 0, SEEK_CUR, 0);
	sys4(__NR_write, 1, (long)"hi\n", 3, 0);
	sys4(__NR_exit_group, 0, 0, 0, 0);
}
