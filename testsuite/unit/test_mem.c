/* The tracee memory layer against a real, stopped child: reads that end
 * at an unmapped page, PROT_NONE pages (through /proc/PID/mem and through
 * the PTRACE_PEEKDATA fallback), misaligned starts and ends, a 1 MiB
 * read, the per-stop cache and a gathered prefetch. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "mem.h"

#define PAGE 4096UL
#define BIG (1UL << 20)

struct layout {
	uint64_t edge; /* last page before an unmapped one */
	uint64_t none; /* a PROT_NONE page */
	uint64_t big;  /* BIG bytes of a pattern */
};

static char pattern(size_t i)
{
	return 'a' + i % 23;
}

/* The child: build the layout, report it, wait to be read. */
static void child(int fd)
{
	char *p = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *big = mmap(NULL, BIG, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || big == MAP_FAILED)
		_exit(2);
	memset(p, 'x', PAGE);
	munmap(p + PAGE, PAGE);
	strcpy(p + 2 * PAGE + 5, "secret");
	mprotect(p + 2 * PAGE, PAGE, PROT_NONE);
	for (size_t i = 0; i < BIG; i++)
		big[i] = pattern(i);
	struct layout l = { (uint64_t)p, (uint64_t)p + 2 * PAGE,
			    (uint64_t)big };
	if (write(fd, &l, sizeof(l)) != sizeof(l))
		_exit(3);
	for (;;)
		pause();
}

static pid_t start(struct layout *l)
{
	int fds[2];
	if (pipe(fds))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fds[0]);
		child(fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], l, sizeof(*l)) != sizeof(*l))
		return -1;
	close(fds[0]);
	/* Stopped under ptrace, as at every stop the tracer reads at. */
	int st;
	if (ptrace(PTRACE_SEIZE, pid, 0, 0) ||
	    ptrace(PTRACE_INTERRUPT, pid, 0, 0) ||
	    waitpid(pid, &st, __WALL) != pid)
		return -1;
	return pid;
}

static void test_edge(struct memsrc *m, const struct layout *l)
{
	char buf[64];
	size_t n = memsrc_read(m, l->edge + PAGE - 20, buf, sizeof(buf));
	CHECK(n == 20, "read into an unmapped page returned %zu, want 20", n);
	CHECK(memcmp(buf, "xxxxxxxxxxxxxxxxxxxx", 20) == 0, "edge bytes");
	n = memsrc_read(m, l->edge + PAGE, buf, 8);
	CHECK(n == 0, "read of an unmapped page returned %zu", n);
}

/* Misaligned start and end; the bytes past the range are not touched. */
static void test_none(struct memsrc *m, const struct layout *l, const char *how)
{
	char buf[16];
	memset(buf, '#', sizeof(buf));
	size_t n = memsrc_read(m, l->none + 5, buf, 7);
	CHECK(n == 7 && memcmp(buf, "secret", 7) == 0,
	      "%s: PROT_NONE read gave %zu bytes", how, n);
	memset(buf, '#', sizeof(buf));
	n = memsrc_read(m, l->none + 6, buf, 3);
	CHECK(n == 3 && memcmp(buf, "ecr###", 6) == 0,
	      "%s: misaligned read wrote outside its range", how);
}

static void test_big(struct memsrc *m, const struct layout *l)
{
	char *buf = malloc(BIG);
	unsigned long before = mem_syscalls();
	size_t n = memsrc_read(m, l->big, buf, BIG);
	CHECK(n == BIG, "1 MiB read returned %zu", n);
	CHECK(mem_syscalls() - before <= 2, "1 MiB read took %lu syscalls",
	      mem_syscalls() - before);
	size_t bad = 0;
	for (size_t i = 0; i < n; i++)
		bad += buf[i] != pattern(i);
	CHECK(!bad, "1 MiB read: %zu wrong bytes", bad);
	free(buf);
}

/* One gathered read fills the cache for several pages; reads of them
 * then cost nothing. */
static void test_prefetch(struct memsrc *m, const struct layout *l)
{
	uint64_t addrs[3] = { l->big + 10, l->big + 5 * PAGE + 1,
			      l->big + 9 * PAGE };
	char buf[32];
	mem_reset();
	unsigned long before = mem_syscalls();
	mem_prefetch(addrs, 3);
	CHECK(mem_syscalls() - before == 1, "prefetch took %lu syscalls",
	      mem_syscalls() - before);
	before = mem_syscalls();
	for (int i = 0; i < 3; i++) {
		size_t n = memsrc_read(m, addrs[i], buf, sizeof(buf));
		CHECK(n == sizeof(buf) && buf[0] == pattern(addrs[i] - l->big),
		      "prefetched read %d", i);
	}
	CHECK(mem_syscalls() == before, "prefetched pages read again");
}

int main(void)
{
	struct layout l;
	pid_t pid = start(&l);
	if (pid < 0) {
		fprintf(stderr, "test_mem: cannot set up the child\n");
		return CHECK_SKIP;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/mem", (int)pid);
	int procmem = open(path, O_RDWR | O_CLOEXEC);
	struct memsrc *m = mem_bind(pid, procmem);
	unsigned long peeks = mem_peeks();
	test_edge(m, &l);
	test_big(m, &l);
	test_prefetch(m, &l);
	CHECK(mem_peeks() == peeks,
	      "PEEKDATA used while process_vm_readv "
	      "works (%lu words)",
	      mem_peeks() - peeks);
	mem_reset();
	test_none(m, &l, "/proc/PID/mem");
	/* Without /proc/PID/mem: the PEEKDATA fallback. */
	mem_reset();
	m = mem_bind(pid, -1);
	test_none(m, &l, "PEEKDATA");
	CHECK(mem_peeks() > peeks, "the PEEKDATA fallback was not used");
	mem_reset();
	test_edge(m, &l);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, __WALL);
	/* A gone tracee reads as nothing, silently. */
	mem_reset();
	char c;
	CHECK(memsrc_read(m, l.big, &c, 1) == 0, "read of a dead process");
	close(procmem);
	return check_exit();
}
