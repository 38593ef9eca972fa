/* A program that destroys the --fast recorder (issue 25): its SIGSEGV
 * handler siglongjmps; after its first calls it makes every anonymous
 * mapping that appeared since read-only (argv[1] "protect") or unmaps it
 * ("unmap"), by system calls of its own, then makes a traced call.
 * Untraced and in ptrace mode there is nothing of the tracer's among
 * them: "labs 5", then "done". */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NMAP 512

struct span {
	unsigned long lo, hi;
};

static sigjmp_buf jb;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(jb, 1);
}

/* A system call with no call through the PLT. */
static long raw3(long nr, long a, long b, long c)
{
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	return ret;
}

/* The anonymous mappings (no path) of this process into S. */
static size_t anon(struct span *s)
{
	char line[512], path[256];
	size_t n = 0;
	FILE *m = fopen("/proc/self/maps", "r");
	while (m && n < NMAP && fgets(line, sizeof(line), m)) {
		char perm[8];
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &s[n].lo,
			   &s[n].hi, perm, path) == 3)
			n++;
	}
	if (m)
		fclose(m);
	return n;
}

/* Make [LO, HI) read-only, or unmap it. */
static void destroy(unsigned long lo, unsigned long hi, int unmap)
{
	if (lo >= hi)
		return;
	if (unmap)
		raw3(SYS_munmap, (long)lo, (long)(hi - lo), 0);
	else
		raw3(SYS_mprotect, (long)lo, (long)(hi - lo), PROT_READ);
}

/* Destroy the pages of X that none of S[0..N) (sorted) held: a new
 * mapping may have merged with an old neighbour. */
static void destroy_new(const struct span *s, size_t n, const struct span *x,
			int unmap)
{
	unsigned long at = x->lo;
	for (size_t i = 0; i < n && at < x->hi; i++) {
		if (s[i].hi <= at || s[i].lo >= x->hi)
			continue;
		destroy(at, s[i].lo, unmap);
		at = s[i].hi;
	}
	destroy(at, x->hi, unmap);
}

int main(int argc, char **argv)
{
	static struct span before[NMAP], after[NMAP];
	int unmap = argc > 1 && !strcmp(argv[1], "unmap");
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	size_t n0 = anon(before);
	long sum = 0;
	for (int i = 0; i < 3; i++)
		sum += labs(-i) + (long)strlen("abc");
	size_t n1 = anon(after);
	for (size_t i = 0; i < n1; i++)
		destroy_new(before, n0, &after[i], unmap);
	if (sigsetjmp(jb, 1) == 0)
		printf("labs %ld\n", labs(-5));
	else
		printf("SIGSEGV\n");
	printf("done %ld\n", sum);
	fflush(stdout);
	/* Held (an argument: a file's name) until that file exists. */
	while (argc > 2 && access(argv[2], F_OK))
		usleep(10000);
	return 0;
}
