#include "mem.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#include "error.h"
#include "xmalloc.h"

#define PAGE 4096UL
/* The cache: up to NPAGES pages per stop (4 MiB), found through a hash
 * of NBUCKETS buckets.  Entries are valid for one generation; mem_reset
 * starts the next, so dropping the cache costs nothing. */
#define NPAGES 1024
#define NBUCKETS 2048
/* Reads larger than this bypass the cache. */
#define DIRECT_MIN (4 * PAGE)

/* PAGE_UNREAD: indexed by a prefetch that did not reach it. */
enum page_state { PAGE_OK, PAGE_BAD, PAGE_UNREAD };

struct page {
	uint64_t addr;
	enum page_state state;
	uint8_t data[PAGE];
};

static struct {
	struct memsrc src;
	pid_t pid;
	int procmem;
	struct page *pages;	   /* NPAGES, allocated on first use */
	size_t used;		   /* pages of this generation */
	uint32_t bucket[NBUCKETS]; /* page index + 1 */
	uint32_t bucket_gen[NBUCKETS];
	uint32_t gen;
	unsigned long syscalls;
	unsigned long peeks;
	bool warned;
	/* process_vm_readv refused the tracee (EPERM): it made itself
	 * non-dumpable or changed its credentials, and the kernel checks
	 * access again at each call, while /proc/PID/mem, opened before,
	 * still reads.  Until another pid is bound. */
	bool vm_refused;
} mem = { .gen = 1 };

static void report(int err)
{
	if (err == ESRCH || err == EFAULT || err == EIO || err == ENOMEM ||
	    mem.warned)
		return;
	mem.warned = true;
	errno = err;
	perror_msg("reading memory of pid %d", (int)mem.pid);
}

/* PTRACE_PEEKDATA on the aligned words covering [ADDR, ADDR+LEN), copying
 * only the bytes inside the range: the last resort, for when
 * /proc/PID/mem cannot be used.  The tracee must be in a ptrace-stop. */
static size_t peek_read(uint64_t addr, void *buf, size_t len)
{
	const size_t w = sizeof(long);
	size_t done = 0;
	for (uint64_t a = addr & ~(uint64_t)(w - 1); done < len; a += w) {
		errno = 0;
		mem.peeks++;
		long word = ptrace(PTRACE_PEEKDATA, mem.pid, (void *)a, 0);
		if (errno) {
			report(errno);
			break;
		}
		size_t skip = a < addr ? addr - a : 0;
		size_t n = w - skip;
		if (n > len - done)
			n = len - done;
		memcpy((char *)buf + done, (char *)&word + skip, n);
		done += n;
	}
	return done;
}

/* One range: process_vm_readv first, then /proc/PID/mem (which also
 * reads PROT_NONE pages), then PTRACE_PEEKDATA when the file is not
 * available or refuses with EACCES/EPERM. */
static size_t raw_read(uint64_t addr, void *buf, size_t len)
{
	struct iovec l = { buf, len };
	struct iovec r = { (void *)addr, len };
	ssize_t n = -1;
	if (!mem.vm_refused) {
		mem.syscalls++;
		n = process_vm_readv(mem.pid, &l, 1, &r, 1, 0);
	}
	if (n == (ssize_t)len)
		return len;
	size_t got = n > 0 ? (size_t)n : 0;
	if (n < 0 && errno == EPERM && mem.procmem >= 0)
		mem.vm_refused = true; /* silent: the file reads it */
	else if (n < 0 && !mem.vm_refused)
		report(errno);
	int err = EACCES;
	/* An offset past INT64_MAX is EINVAL to pread: no such user
	 * address exists, so the range is unreadable. */
	if (addr + got > INT64_MAX || len - got > INT64_MAX - (addr + got))
		return got;
	if (mem.procmem >= 0) {
		mem.syscalls++;
		ssize_t m = pread(mem.procmem, (char *)buf + got, len - got,
				  (off_t)(addr + got));
		err = m < 0 ? errno : 0;
		if (m < 0)
			report(err);
		else
			got += m;
	}
	if (got < len && (err == EACCES || err == EPERM))
		got += peek_read(addr + got, (char *)buf + got, len - got);
	return got;
}

static size_t bucket_of(uint64_t pa)
{
	return (size_t)(((pa >> 12) * 0x9E3779B97F4A7C15ULL) >> 40) &
	       (NBUCKETS - 1);
}

static struct page *find_page(uint64_t pa)
{
	for (size_t h = bucket_of(pa); mem.bucket_gen[h] == mem.gen;
	     h = (h + 1) & (NBUCKETS - 1))
		if (mem.pages[mem.bucket[h] - 1].addr == pa)
			return &mem.pages[mem.bucket[h] - 1];
	return NULL;
}

/* A fresh entry for page PA (not cached).  When the cache is full the
 * whole generation is dropped: a stop that touches 4 MiB of distinct
 * pages reads some twice. */
static struct page *new_page(uint64_t pa)
{
	if (!mem.pages)
		mem.pages = xmalloc(NPAGES * sizeof(*mem.pages));
	if (mem.used == NPAGES)
		mem_reset();
	size_t h = bucket_of(pa);
	while (mem.bucket_gen[h] == mem.gen)
		h = (h + 1) & (NBUCKETS - 1);
	struct page *p = &mem.pages[mem.used++];
	mem.bucket[h] = (uint32_t)mem.used;
	mem.bucket_gen[h] = mem.gen;
	p->addr = pa;
	return p;
}

static struct page *get_page(uint64_t pa)
{
	struct page *p = find_page(pa);
	if (!p)
		p = new_page(pa);
	else if (p->state != PAGE_UNREAD)
		return p;
	p->state = raw_read(pa, p->data, PAGE) == PAGE ? PAGE_OK : PAGE_BAD;
	return p;
}

static size_t mem_read_direct(uint64_t addr, void *buf, size_t len)
{
	return raw_read(addr, buf, len);
}

/* A page that fails whole may still be partly readable at its start
 * (never: protections are per page), so a bad page ends the read. */
static size_t cached_read(struct memsrc *m, uint64_t addr, void *buf,
			  size_t len)
{
	(void)m;
	if (len >= DIRECT_MIN)
		return mem_read_direct(addr, buf, len);
	size_t done = 0;
	while (done < len) {
		uint64_t a = addr + done;
		struct page *p = get_page(a & ~(PAGE - 1));
		if (p->state != PAGE_OK)
			break;
		size_t off = a & (PAGE - 1);
		size_t n = PAGE - off;
		if (n > len - done)
			n = len - done;
		memcpy((char *)buf + done, p->data + off, n);
		done += n;
	}
	return done;
}

static void src_prefetch(struct memsrc *m, const uint64_t *addrs, size_t n)
{
	(void)m;
	mem_prefetch(addrs, n);
}

struct memsrc *mem_bind(pid_t pid, int procmem)
{
	if (pid != mem.pid) {
		mem_reset();
		mem.vm_refused = false;
	}
	mem.pid = pid;
	mem.procmem = procmem;
	mem.src.read = cached_read;
	mem.src.prefetch = src_prefetch;
	return &mem.src;
}

void mem_reset(void)
{
	mem.used = 0;
	if (++mem.gen == 0) {
		memset(mem.bucket_gen, 0, sizeof(mem.bucket_gen));
		mem.gen = 1;
	}
}

/* Up to IOV_MAX pages in one process_vm_readv; a page that fails ends
 * the batch (the kernel stops there) and the pages after it are read on
 * demand. */
void mem_prefetch(const uint64_t *addrs, size_t n)
{
	enum { BATCH = 1024 };
	static struct iovec l[BATCH], r[BATCH];
	static struct page *pg[BATCH];
	if (!mem.pages)
		mem.pages = xmalloc(NPAGES * sizeof(*mem.pages));
	if (mem.vm_refused)
		return; /* no gathered read: pages are read on demand */
	size_t k = 0;
	for (size_t i = 0; i < n && k < BATCH && mem.used < NPAGES; i++) {
		uint64_t pa = addrs[i] & ~(PAGE - 1);
		if (addrs[i] < PAGE || find_page(pa))
			continue;
		pg[k] = new_page(pa);
		l[k] = (struct iovec){ pg[k]->data, PAGE };
		r[k] = (struct iovec){ (void *)pa, PAGE };
		k++;
	}
	if (!k)
		return;
	mem.syscalls++;
	ssize_t got = process_vm_readv(mem.pid, l, k, r, k, 0);
	size_t full = got > 0 ? (size_t)got / PAGE : 0;
	for (size_t j = 0; j < k; j++)
		pg[j]->state = j < full ? PAGE_OK : PAGE_UNREAD;
}

int mem_write(int procmem, uint64_t addr, const void *buf, size_t len)
{
	/* Our own writes (breakpoints, scratch cells, GOT slots) must not be read back stale. */
	for (uint64_t pa = addr & ~(PAGE - 1); pa < addr + len; pa += PAGE)
		if (find_page(pa)) {
			mem_reset();
			break;
		}
	ssize_t n = pwrite(procmem, buf, len, (off_t)addr);
	if (n == (ssize_t)len)
		return 0;
	return n < 0 ? -errno : -EIO;
}

ssize_t mem_gather(pid_t pid, const struct iovec *local, size_t nlocal,
		   const struct iovec *remote, size_t nremote)
{
	mem.syscalls++;
	ssize_t n = process_vm_readv(pid, local, nlocal, remote, nremote, 0);
	return n < 0 ? -errno : n;
}

unsigned long mem_syscalls(void)
{
	return mem.syscalls;
}

unsigned long mem_peeks(void)
{
	return mem.peeks;
}
