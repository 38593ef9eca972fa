/* Prototypes written as ltrace 0.7.91 writes its own files, each line
 * without a final ';' (conf_nosemi.conf): typedefs, an import, a
 * declaration over two lines, comments after declarations.  The
 * functions are the program's own, traced with -x; built without debug
 * information, so that only the conf file can describe them. */
#include <stddef.h>

#define NOINLINE __attribute__((noinline))

struct pair {
	int n;
	const char *s;
};

NOINLINE int nsm_mknod(int dirfd, const char *path, unsigned mode,
		       unsigned short dev)
{
	return dirfd < 0 && path ? (int)(mode & 0777) + dev : -1;
}

NOINLINE int nsm_hex(int x)
{
	return x * 16;
}

NOINLINE long nsm_multi(int a, long b, const char *c)
{
	return a + b + (c != NULL);
}

NOINLINE int nsm_pair(const struct pair *p)
{
	return p->n;
}

NOINLINE int nsm_semi(int x)
{
	return x + 1;
}

NOINLINE int nsm_typedef(int x)
{
	return x | 0x100;
}

NOINLINE int nsm_flags(int f)
{
	return f;
}

int main(void)
{
	struct pair p = { 7, "seven" };

	nsm_mknod(-100, "fifo", 010644, 3);
	nsm_hex(255);
	nsm_multi(1, 2, "three");
	nsm_pair(&p);
	nsm_semi(41);
	nsm_typedef(0x2a);
	nsm_flags(2);
	return 0;
}
