/* The drain target's traced process, and mem.h over it: see
 * drain-mem.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "drain-mem.h"
#include "mem.h"

/* Writes the writer has waiting at once, at most: more are dropped. */
#define MAX_WRITES 64

struct write {
	unsigned tick;
	uint64_t off;
	uint64_t value;
};

static struct {
	uint64_t base;
	uint8_t *bytes;
	size_t size;
	unsigned tick;
	struct write w[MAX_WRITES];
	size_t nw;
	unsigned long reads;
} fm;

void fakemem_init(uint64_t base, size_t size)
{
	fm.base = base;
	fm.bytes = calloc(1, size ? size : 1);
	fm.size = fm.bytes ? size : 0;
	fm.tick = 0;
	fm.nw = 0;
}

void fakemem_destroy(void)
{
	free(fm.bytes);
	fm.bytes = NULL;
	fm.size = 0;
	fm.nw = 0;
}

uint8_t *fakemem_bytes(void)
{
	return fm.bytes;
}

size_t fakemem_size(void)
{
	return fm.size;
}

uint64_t fakemem_word(uint64_t off)
{
	uint64_t w = 0;

	if (off < fm.size && fm.size - off >= sizeof(w))
		memcpy(&w, fm.bytes + off, sizeof(w));
	return w;
}

void fakemem_schedule(unsigned after, uint64_t off, uint64_t value)
{
	if (fm.nw < MAX_WRITES && fm.size)
		fm.w[fm.nw++] =
			(struct write){ fm.tick + after, off % fm.size, value };
}

/* The writer's turn before a span is copied: the writes due now land,
 * in the order they were scheduled. */
static void tick(void)
{
	size_t kept = 0;

	for (size_t i = 0; i < fm.nw; i++) {
		struct write *w = &fm.w[i];
		if (w->tick != fm.tick) {
			fm.w[kept++] = *w;
			continue;
		}
		size_t n = fm.size - w->off;
		memcpy(fm.bytes + w->off, &w->value,
		       n < sizeof(w->value) ? n : sizeof(w->value));
	}
	fm.nw = kept;
	fm.tick++;
}

/* The bytes of the memory from ADDR on, at most LEN: 0 outside it. */
static size_t inside(uint64_t addr, size_t len)
{
	if (addr < fm.base || addr - fm.base >= fm.size)
		return 0;
	size_t room = fm.size - (addr - fm.base);
	return len < room ? len : room;
}

/* ---- mem.h ---- */

/* The memory through a memsrc (no function of the drain path reads
 * so; the fetch code reads the records' copies). */
static size_t src_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	(void)m;
	tick();
	size_t n = inside(addr, len);
	if (n)
		memcpy(buf, fm.bytes + (addr - fm.base), n);
	return n;
}

static struct memsrc src = { .read = src_read };

struct memsrc *mem_bind(pid_t pid, int procmem)
{
	(void)pid;
	(void)procmem;
	return &src;
}

void mem_reset(void)
{
}

void mem_prefetch(const uint64_t *addrs, size_t n)
{
	(void)addrs;
	(void)n;
}

int mem_write(int procmem, uint64_t addr, const void *buf, size_t len)
{
	(void)procmem;
	if (inside(addr, len) != len)
		return -EIO;
	memcpy(fm.bytes + (addr - fm.base), buf, len);
	return 0;
}

/* Copy N bytes at FROM into the spans L[0..NL) from byte *DONE of them
 * on: the bytes copied (fewer when the spans end). */
static size_t scatter(const struct iovec *l, size_t nl, size_t *done,
		      const uint8_t *from, size_t n)
{
	size_t skip = *done, copied = 0;

	for (size_t i = 0; i < nl && copied < n; i++) {
		if (skip >= l[i].iov_len) {
			skip -= l[i].iov_len;
			continue;
		}
		size_t k = l[i].iov_len - skip;
		if (k > n - copied)
			k = n - copied;
		memcpy((uint8_t *)l[i].iov_base + skip, from + copied, k);
		copied += k;
		skip = 0;
	}
	*done += copied;
	return copied;
}

/* As process_vm_readv: the remote spans in order, each after the
 * writer's turn, up to the first byte outside the memory; -EFAULT when
 * that is the first byte. */
ssize_t mem_gather(pid_t pid, const struct iovec *local, size_t nlocal,
		   const struct iovec *remote, size_t nremote)
{
	size_t done = 0;

	(void)pid;
	fm.reads++;
	for (size_t i = 0; i < nremote; i++) {
		uint64_t addr = (uint64_t)(uintptr_t)remote[i].iov_base;
		size_t want = remote[i].iov_len;
		tick();
		size_t n = inside(addr, want);
		if (n && scatter(local, nlocal, &done,
				 fm.bytes + (addr - fm.base), n) < n)
			break;
		if (n < want)
			break;
	}
	if (!done && nremote && remote[0].iov_len)
		return -EFAULT;
	return (ssize_t)done;
}

unsigned long mem_syscalls(void)
{
	return fm.reads;
}

unsigned long mem_peeks(void)
{
	return 0;
}
