/* How lenses and the ABI fetch code read tracee memory: only through this
 * interface.  The tracer's implementation caches pages for the duration
 * of one stop (sysdeps/linux-gnu/mem.c); unit tests supply a fake one over
 * a local buffer. */
#ifndef LTRACE_MEMSRC_H
#define LTRACE_MEMSRC_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct memsrc {
	/* Copy up to LEN bytes at tracee address ADDR into BUF.  Returns the
	 * number of bytes copied: LEN, or fewer when the range runs into
	 * memory that cannot be read (0 when ADDR itself is unreadable).
	 * Never fails otherwise; never touches BUF past the returned count. */
	size_t (*read)(struct memsrc *m, uint64_t addr, void *buf, size_t len);
	/* Optional (may be NULL): the pages holding ADDRS[0..N) are about
	 * to be read; fetch them together, in one gathered read. */
	void (*prefetch)(struct memsrc *m, const uint64_t *addrs, size_t n);
	/* Optional (may be NULL): where the source holds all LEN bytes at
	 * ADDR, as READ would copy them, until M is used again; NULL when
	 * it does not (READ says what can be read). */
	const void *(*peek)(struct memsrc *m, uint64_t addr, size_t len);
};

static inline size_t memsrc_read(struct memsrc *m, uint64_t addr, void *buf,
				 size_t len)
{
	return m->read(m, addr, buf, len);
}

static inline const void *memsrc_peek(struct memsrc *m, uint64_t addr,
				      size_t len)
{
	return m->peek ? m->peek(m, addr, len) : NULL;
}

static inline void memsrc_prefetch(struct memsrc *m, const uint64_t *addrs,
				   size_t n)
{
	if (m->prefetch && n)
		m->prefetch(m, addrs, n);
}

#endif
