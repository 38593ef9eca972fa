/* A program that jumps into the --fast recorder's trap for a lost
 * return (issue 25): its SIGTRAP handler siglongjmps; after its first
 * calls it looks for the int3; ud2 of rec_trap_lost in the executable
 * anonymous mappings that appeared since, and calls it with a stack
 * pointer no call of its own had (rdi).  Where there is none (untraced,
 * ptrace mode) it runs an int3 of its own.  Either way its handler runs
 * once: "SIGTRAP", then "labs 7" and "done". */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NMAP 512

struct span {
	unsigned long lo, hi;
	int exec;
};

static sigjmp_buf jb;

static void on_trap(int sig)
{
	(void)sig;
	siglongjmp(jb, 1);
}

/* The anonymous mappings (no path) of this process into S. */
static size_t anon(struct span *s)
{
	char line[512], path[256], perm[8];
	size_t n = 0;
	FILE *m = fopen("/proc/self/maps", "r");
	while (m && n < NMAP && fgets(line, sizeof(line), m)) {
		if (sscanf(line, "%lx-%lx %7s %*s %*s %*s %255s", &s[n].lo,
			   &s[n].hi, perm, path) != 3)
			continue;
		s[n].exec = perm[2] == 'x';
		n++;
	}
	if (m)
		fclose(m);
	return n;
}

static int known(const struct span *s, size_t n, const struct span *x)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].lo <= x->lo && x->hi <= s[i].hi)
			return 1;
	return 0;
}

/* The first int3; ud2 in a new executable mapping, or NULL. */
static const unsigned char *find_trap(const struct span *b, size_t nb,
				      const struct span *a, size_t na)
{
	static const unsigned char pat[3] = { 0xcc, 0x0f, 0x0b };
	for (size_t i = 0; i < na; i++) {
		if (!a[i].exec || known(b, nb, &a[i]))
			continue;
		const unsigned char *p = (const unsigned char *)a[i].lo;
		for (; p + 3 <= (const unsigned char *)a[i].hi; p++)
			if (p[0] == pat[0] && p[1] == pat[1] && p[2] == pat[2])
				return p;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	static struct span before[NMAP], after[NMAP];
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_trap;
	sigaction(SIGTRAP, &sa, NULL);
	size_t n0 = anon(before);
	long sum = 0;
	for (int i = 0; i < 3; i++)
		sum += labs(-i) + (long)strlen("abc");
	size_t n1 = anon(after);
	const unsigned char *trap = find_trap(before, n0, after, n1);
	if (sigsetjmp(jb, 1) == 0) {
		if (trap)
			__asm__ volatile("mov $0x1000, %%rdi\n\tcall *%0"
					 :
					 : "r"(trap)
					 : "rdi", "memory");
		else
			__asm__ volatile("int3");
		printf("no SIGTRAP\n");
	} else {
		printf("SIGTRAP\n");
	}
	printf("labs %ld\n", labs(-7));
	printf("done %ld\n", sum);
	fflush(stdout);
	/* Held (an argument: a file's name) until that file exists. */
	while (argc > 1 && access(argv[1], F_OK))
		usleep(10000);
	return 0;
}
