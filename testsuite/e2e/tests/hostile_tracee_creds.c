/* A program that changes its name and credentials while traced: it
 * renames itself (PR_SET_NAME), writes over argv[0], makes itself
 * non-dumpable (so the kernel checks a tracer's access again), drops to
 * nobody when run as root (setgroups, setresgid, setresuid: the tracer
 * may still trace it, as its parent, and root), then dlopens a library
 * (the tracer reads its maps again) and makes more traced calls.  The
 * identity calls go through pointers, untraced, so that the trace is
 * the same whoever runs it; what they did is printed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <grp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#define NOBODY 65534

/* The first line of FILE, NULs as spaces (a cmdline). */
static void show(const char *what, const char *file)
{
	char buf[256];
	FILE *f = fopen(file, "r");
	size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
	if (f)
		fclose(f);
	for (size_t i = 0; i < n; i++)
		if (buf[i] == 0 || buf[i] == '\n')
			buf[i] = ' ';
	buf[n] = 0;
	printf("%s: %s\n", what, buf);
}

/* To nobody, if root. */
static int drop(void)
{
	int (*volatile groups)(size_t, const gid_t *) = setgroups;
	int (*volatile gids)(gid_t, gid_t, gid_t) = setresgid;
	int (*volatile uids)(uid_t, uid_t, uid_t) = setresuid;
	uid_t (*volatile uid)(void) = geteuid;
	if (uid() != 0)
		return uids(uid(), uid(), uid()); /* a change to the same */
	if (groups(0, NULL) || gids(NOBODY, NOBODY, NOBODY))
		return -1;
	return uids(NOBODY, NOBODY, NOBODY);
}

int main(int argc, char **argv)
{
	(void)argc;
	prctl(PR_SET_NAME, "renamed", 0, 0, 0);
	memset(argv[0], 'X', strlen(argv[0]));
	show("comm", "/proc/self/comm");
	show("cmdline", "/proc/self/cmdline");
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	int dropped = drop();
	uid_t now = getuid();
	void *h = dlopen("libm.so.6", RTLD_NOW);
	printf("dropped %d dumpable %d libm %d len %zu\n", dropped,
	       prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), h != NULL,
	       strlen("after the drop"));
	printf("root or nobody now: %d\n", now == 0 || now == NOBODY);
	show("comm", "/proc/self/comm");
	return dropped == 0 && h ? 0 : 1;
}
