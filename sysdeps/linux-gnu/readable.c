/* The readable ranges of a traced process (readable.h). */
#include "readable.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "recorder/ring.h"
#include "xmalloc.h"

#define PAGE 4096ull

static bool starts(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A file under /dev, /proc or /sys may be a device's registers or a
 * kernel object's, where a read is an action: only the memory
 * filesystems' files there are plain. */
static bool plain_file(const char *path)
{
	if (starts(path, "/dev/"))
		return starts(path, "/dev/shm/") || starts(path, "/dev/zero") ||
		       starts(path, "/dev/hugepages/");
	return !starts(path, "/proc/") && !starts(path, "/sys/");
}

bool readable_plain(const char *perms, const char *path)
{
	if (perms[0] != 'r')
		return false;
	if (!path[0])
		return true;
	if (path[0] == '/')
		return plain_file(path);
	return !strcmp(path, "[heap]") || starts(path, "[stack") ||
	       starts(path, "[anon:") || starts(path, "[anon_shmem:");
}

/* The next blank-separated field of *S (a NUL ends it too), advancing
 * *S past it; its length in *LEN. */
static const char *field(const char **s, size_t *len)
{
	const char *p = *s + strspn(*s, " \t");
	*len = strcspn(p, " \t\n");
	*s = p + *len;
	return p;
}

/* One maps line, its newline cut: "lo-hi perms offset dev inode
 * [path]"; its range into *R when it is plain memory. */
static bool plain_line(const char *line, struct rec_range *r)
{
	char *end;
	errno = 0;
	unsigned long long lo = strtoull(line, &end, 16);
	if (end == line || *end != '-')
		return false;
	const char *p = end + 1;
	unsigned long long hi = strtoull(p, &end, 16);
	if (end == p || errno || lo >= hi)
		return false;
	p = end;
	size_t len;
	const char *perms = field(&p, &len);
	if (len < 1 || len > 4)
		return false;
	char pm[5] = { 0 };
	memcpy(pm, perms, len);
	for (int i = 0; i < 3; i++) { /* offset, dev, inode */
		field(&p, &len);
		if (!len)
			return false;
	}
	p += strspn(p, " \t");
	if (!readable_plain(pm, p))
		return false;
	r->lo = lo;
	r->hi = hi;
	return true;
}

struct set {
	struct rec_range *r;
	size_t n, cap;
};

static void set_add(struct set *s, uint64_t lo, uint64_t hi)
{
	if (lo >= hi)
		return;
	if (s->n && s->r[s->n - 1].hi == lo) {
		s->r[s->n - 1].hi = hi;
		return;
	}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 64;
		s->r = xreallocarray(s->r, s->cap, sizeof(*s->r));
	}
	s->r[s->n].lo = lo;
	s->r[s->n].hi = hi;
	s->n++;
}

/* S without [LO, HI): ranges that overlap it are cut, or split in two. */
static void set_cut(struct set *s, uint64_t lo, uint64_t hi)
{
	struct set out = { NULL, 0, 0 };
	for (size_t i = 0; i < s->n; i++) {
		struct rec_range r = s->r[i];
		if (r.hi <= lo || r.lo >= hi) {
			set_add(&out, r.lo, r.hi);
			continue;
		}
		set_add(&out, r.lo, lo > r.lo ? lo : r.lo);
		set_add(&out, hi < r.hi ? hi : r.hi, r.hi);
	}
	free(s->r);
	*s = out;
}

static int by_size_down(const void *a, const void *b)
{
	const struct rec_range *x = a, *y = b;
	uint64_t sx = x->hi - x->lo, sy = y->hi - y->lo;
	return sx < sy ? 1 : sx > sy ? -1 : 0;
}

static int by_address(const void *a, const void *b)
{
	const struct rec_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

long readable_ranges(FILE *f, struct rec_range *out, size_t max,
		     uint64_t skip_lo, uint64_t skip_hi, const uint64_t *bad,
		     size_t nbad)
{
	struct set s = { NULL, 0, 0 };
	char *line = NULL;
	size_t cap = 0;
	struct rec_range r;
	uint64_t last = 0;
	while (getline(&line, &cap, f) > 0) {
		line[strcspn(line, "\n")] = '\0';
		/* The kernel lists mappings in order; a line out of order
		 * would break the merging, and is left out. */
		if (plain_line(line, &r) && r.lo >= last) {
			set_add(&s, r.lo, r.hi);
			last = r.hi;
		}
	}
	free(line);
	if (ferror(f)) {
		free(s.r);
		return -EIO;
	}
	if (skip_lo < skip_hi)
		set_cut(&s, skip_lo, skip_hi);
	for (size_t i = 0; i < nbad; i++)
		if (bad[i] + PAGE > bad[i])
			set_cut(&s, bad[i], bad[i] + PAGE);
	if (s.n > max) {
		qsort(s.r, s.n, sizeof(*s.r), by_size_down);
		s.n = max;
		qsort(s.r, s.n, sizeof(*s.r), by_address);
	}
	if (s.n)
		memcpy(out, s.r, s.n * sizeof(*out));
	free(s.r);
	return (long)s.n;
}
