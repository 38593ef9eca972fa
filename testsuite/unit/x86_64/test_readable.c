/* Unit test of the readable ranges (sysdeps/linux-gnu/readable.c): which
 * mappings of /proc/PID/maps a --fast direct copy may read, merged into
 * sorted ranges, with the recorder's region and faulted pages cut out,
 * and the largest kept when there are too many.  Also the maps of this
 * very process: its stack, its data and its heap are in. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../check.h"
#include "readable.h"
#include "recorder/reclayout.h"
#include "recorder/ring.h"

#define MAX 64

static struct rec_range got[MAX];

/* The ranges of the maps text TEXT, into GOT. */
static long ranges_of(const char *text, size_t max, uint64_t skip_lo,
		      uint64_t skip_hi, const uint64_t *bad, size_t nbad)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	if (!f)
		return -1;
	long n = readable_ranges(f, got, max, skip_lo, skip_hi, bad, nbad);
	fclose(f);
	return n;
}

static void test_plain(void)
{
	CHECK(readable_plain("r--p", ""));
	CHECK(readable_plain("rw-p", "[heap]"));
	CHECK(readable_plain("rw-p", "[stack]"));
	CHECK(readable_plain("rw-p", "[anon:glibc: malloc]"));
	CHECK(readable_plain("r-xp", "/usr/lib/x86_64-linux-gnu/libc.so.6"));
	CHECK(readable_plain("rw-s", "/procmem:ring (deleted)"));
	CHECK(readable_plain("rw-s", "/dev/shm/x"));
	CHECK(readable_plain("rw-s", "/dev/zero (deleted)"));
	CHECK(!readable_plain("---p", ""));
	CHECK(!readable_plain("-w-p", ""));
	CHECK(!readable_plain("r--p", "[vvar]"));
	CHECK(!readable_plain("r-xp", "[vdso]"));
	CHECK(!readable_plain("--xp", "[vsyscall]"));
	CHECK(!readable_plain("rw-s", "/dev/mem"));
	CHECK(!readable_plain("rw-s", "/dev/dri/card0"));
	CHECK(!readable_plain("rw-s", "/dev/uio0"));
	CHECK(!readable_plain("rw-s",
			      "/sys/bus/pci/devices/0000:00:02.0/resource0"));
	CHECK(!readable_plain("r--s", "/proc/1/mem"));
	CHECK(!readable_plain("rw-s", "anon_inode:[perf_event]"));
	CHECK(!readable_plain("rw-s", "socket:[12345]"));
}

static const char maps[] =
	"555555554000-555555556000 r--p 00000000 08:01 1234  /usr/bin/prog\n"
	"555555556000-555555558000 r-xp 00002000 08:01 1234  /usr/bin/prog\n"
	"555555558000-555555559000 rw-p 00004000 08:01 1234  /usr/bin/prog\n"
	"555555559000-55555557a000 rw-p 00000000 00:00 0     [heap]\n"
	"7ffff7d80000-7ffff7d81000 ---p 00000000 00:00 0 \n"
	"7ffff7d81000-7ffff7d90000 rw-p 00000000 00:00 0 \n"
	"7ffff7dc0000-7ffff7dc2000 rw-s 00000000 00:05 99 /dev/dri/card0\n"
	"7ffff7fc1000-7ffff7fc5000 r--p 00000000 00:00 0     [vvar]\n"
	"7ffff7fc5000-7ffff7fc7000 r-xp 00000000 00:00 0     [vdso]\n"
	"7ffffffde000-7ffffffff000 rw-p 00000000 00:00 0     [stack]\n"
	"ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0 [vsyscall]\n";

static void test_merge(void)
{
	/* The program's three mappings and its heap are adjacent: one. */
	CHECK(ranges_of(maps, MAX, 0, 0, NULL, 0) == 3);
	CHECK(got[0].lo == 0x555555554000 && got[0].hi == 0x55555557a000);
	CHECK(got[1].lo == 0x7ffff7d81000 && got[1].hi == 0x7ffff7d90000);
	CHECK(got[2].lo == 0x7ffffffde000 && got[2].hi == 0x7ffffffff000);
}

static void test_cuts(void)
{
	/* The recorder's region inside the anonymous mapping, a faulted
	 * page in the heap, one at its end, one in no range. */
	uint64_t bad[] = { 0x555555560000, 0x555555579000, 0x100000 };
	CHECK(ranges_of(maps, MAX, 0x7ffff7d84000, 0x7ffff7d86000, bad, 3) ==
	      5);
	CHECK(got[0].lo == 0x555555554000 && got[0].hi == 0x555555560000);
	CHECK(got[1].lo == 0x555555561000 && got[1].hi == 0x555555579000);
	CHECK(got[2].lo == 0x7ffff7d81000 && got[2].hi == 0x7ffff7d84000);
	CHECK(got[3].lo == 0x7ffff7d86000 && got[3].hi == 0x7ffff7d90000);
	CHECK(got[4].lo == 0x7ffffffde000);
	for (int i = 1; i < 5; i++)
		CHECK(got[i - 1].hi < got[i].lo, "range %d out of order", i);
}

static void test_max(void)
{
	/* Two kept of three: the largest, in address order. */
	CHECK(ranges_of(maps, 2, 0, 0, NULL, 0) == 2);
	CHECK(got[0].lo == 0x555555554000 && got[1].lo == 0x7ffffffde000);
}

static void test_bad_lines(void)
{
	static const char text[] =
		"garbage\n"
		"1000-\n"
		"3000-2000 rw-p 00000000 00:00 0\n"
		"4000-5000 rw-p\n"
		"6000-7000 rw-p 00000000 00:00 0\n"
		"5000-5800 rw-p 00000000 00:00 0\n" /* out of order */
		"8000-9000 rw-p 00000000 00:00 0 /a path with  spaces\n";
	CHECK(ranges_of(text, MAX, 0, 0, NULL, 0) == 2);
	CHECK(got[0].lo == 0x6000 && got[0].hi == 0x7000 &&
	      got[1].lo == 0x8000 && got[1].hi == 0x9000);
	CHECK(ranges_of("", MAX, 0, 0, NULL, 0) == 0);
}

static struct rec_range self[REC_NRANGE];

static int in_ranges(const void *p, long n)
{
	uint64_t a = (uint64_t)(uintptr_t)p;
	for (long i = 0; i < n; i++)
		if (a >= self[i].lo && a < self[i].hi)
			return 1;
	return 0;
}

static int data_word = 1;

/* As many ranges as the tracer keeps: under ASan this process has more
 * than MAX, its shadow's the largest. */
static void test_self(void)
{
	/* Before the maps are read: an allocator may map a block's room
	 * at its first allocation of that size (ASan's does). */
	void *heap = malloc(16);
	int local = 0;
	FILE *f = fopen("/proc/self/maps", "re");
	if (!f) {
		FAIL("/proc/self/maps: %s", strerror(errno));
		free(heap);
		return;
	}
	long n = readable_ranges(f, self, REC_NRANGE, 0, 0, NULL, 0);
	fclose(f);
	CHECK(n > 0 && in_ranges(&local, n) && in_ranges(&data_word, n) &&
	      in_ranges(heap, n) && in_ranges("a literal", n));
	free(heap);
}

int main(void)
{
	test_plain();
	test_merge();
	test_cuts();
	test_max();
	test_bad_lines();
	test_self();
	return check_exit();
}
