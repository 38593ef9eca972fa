/* A memsrc over record chunks (recmem.h). */
#include <string.h>

#include "recmem.h"
#include "recorder/plan.h"
#include "recregs.h"

/* No user mapping reaches this high; the chunk of floating point
 * registers sits above it. */
#define USER_END RECREGS_USER_END

/* The chunk at byte OFF of the span, or NULL past its end. */
static const struct plan_chunk *chunk_at(const unsigned char *base, size_t size,
					 size_t off)
{
	if (off >= size || size - off < sizeof(struct plan_chunk))
		return NULL;
	return (const struct plan_chunk *)(base + off);
}

/* M's span: its chunks up to the first malformed one, of SIZE bytes;
 * and its only chunk of user memory, when it has one alone. */
static void measure(struct recmem *m, size_t size)
{
	size_t off = 0, users = 0;
	const struct plan_chunk *ch;

	while ((ch = chunk_at(m->chunks, size, off))) {
		if (ch->len > PLAN_LEN_MAX ||
		    plan_chunk_size(ch->len) > size - off ||
		    (ch->addr < USER_END && ch->len > USER_END - ch->addr))
			break;
		if (ch->addr < USER_END) {
			users++;
			m->only = ch;
		}
		off += plan_chunk_size(ch->len);
	}
	m->size = off;
	if (users != 1)
		m->only = NULL;
}

static bool covers(const struct plan_chunk *ch, uint64_t a)
{
	return ch->addr < USER_END && a >= ch->addr && a - ch->addr < ch->len;
}

/* Whether CH holds all of [A, A + LEN). */
static bool holds(const struct plan_chunk *ch, uint64_t a, size_t len)
{
	return ch && covers(ch, a) && len <= ch->addr + ch->len - a;
}

/* The chunk after CH in M's span, or NULL (CH NULL or the last). */
static const struct plan_chunk *next_chunk(const struct recmem *m,
					   const struct plan_chunk *ch)
{
	if (!ch)
		return NULL;
	size_t off = (size_t)((const unsigned char *)ch - m->chunks);
	return chunk_at(m->chunks, m->size, off + plan_chunk_size(ch->len));
}

/* The chunk holding the bytes at A: one of the last two that served,
 * or the one after the last, when it holds all LEN of them (a writev's iovec array and its strings'
 * runs, read in turns: no search through a thousand chunks per read),
 * else the one that runs furthest past A. */
static const struct plan_chunk *holding(struct recmem *m, uint64_t a,
					size_t len)
{
	const struct plan_chunk *best = NULL;
	const struct plan_chunk *ch;

	if (m->only) /* most records: one string */
		return covers(m->only, a) ? m->only : NULL;
	if (holds(m->hot[0], a, len))
		return m->hot[0];
	if (holds(m->hot[1], a, len)) {
		best = m->hot[1];
		m->hot[1] = m->hot[0];
		m->hot[0] = best;
		return best;
	}
	/* reads go through a record's chunks in order (a writev's strings,
	 * copied in runs in the order of its iovecs): the chunk after the
	 * last that served, when it holds them all */
	ch = next_chunk(m, m->hot[0]);
	if (holds(ch, a, len)) {
		m->hot[1] = m->hot[0];
		m->hot[0] = ch;
		return ch;
	}
	for (size_t off = 0; (ch = chunk_at(m->chunks, m->size, off));
	     off += plan_chunk_size(ch->len)) {
		if (!covers(ch, a))
			continue;
		if (!best || ch->addr + ch->len > best->addr + best->len)
			best = ch;
	}
	if (best) {
		m->hot[1] = m->hot[0];
		m->hot[0] = best;
	}
	return best;
}

/* Whether chunk CH lets a read from ADDR stop short at A, as real
 * memory would (see recmem.h): it stopped at A at unreadable memory, or
 * the read went through the NUL that ended it (the string lens reads
 * ahead and stops at the NUL). */
static bool stops(const struct plan_chunk *ch, uint64_t addr, uint64_t a)
{
	const unsigned char *data = (const unsigned char *)(ch + 1);
	uint64_t end = ch->addr + ch->len;

	if (ch->addr >= USER_END || (ch->wanted & PLAN_CHUNK_CUT))
		return false;
	if (end == a && ch->len < ch->wanted)
		return true;
	return ch->len && !data[ch->len - 1] && addr < end && end <= a;
}

/* Whether a read from ADDR may stop short at A, not holding it: above
 * any mapping, or some chunk stops it. */
static bool stop_is_real(const struct recmem *m, uint64_t addr, uint64_t a)
{
	const struct plan_chunk *ch;

	if (a >= USER_END)
		return true;
	for (size_t off = 0; (ch = chunk_at(m->chunks, m->size, off));
	     off += plan_chunk_size(ch->len))
		if (stops(ch, addr, a))
			return true;
	return false;
}

static size_t recmem_read(struct memsrc *ms, uint64_t addr, void *buf,
			  size_t len)
{
	struct recmem *m = (struct recmem *)ms;
	const struct plan_chunk *last = NULL;
	size_t pos = 0;

	if (m->live && addr < USER_END)
		return memsrc_read(m->live, addr, buf, len);
	while (pos < len && addr + pos >= addr) {
		uint64_t a = addr + pos;
		const struct plan_chunk *ch = holding(m, a, len - pos);
		if (!ch)
			break;
		size_t n = ch->addr + ch->len - a;
		if (n > len - pos)
			n = len - pos;
		memcpy((char *)buf + pos,
		       (const unsigned char *)(ch + 1) + (a - ch->addr), n);
		pos += n;
		last = ch;
	}
	/* A string's read stops at the end of the chunk it came from, which
	 * says so itself: no other chunk need be asked. */
	if (pos < len && !(last && stops(last, addr, addr + pos)) &&
	    !stop_is_real(m, addr, addr + pos))
		m->misses++;
	return pos;
}

/* A string's bytes where one chunk holds them all: no copy. */
static const void *recmem_peek(struct memsrc *ms, uint64_t addr, size_t len)
{
	struct recmem *m = (struct recmem *)ms;

	if (m->live || !len)
		return NULL;
	const struct plan_chunk *ch = holding(m, addr, len);
	if (!holds(ch, addr, len))
		return NULL;
	return (const unsigned char *)(ch + 1) + (addr - ch->addr);
}

void recmem_init(struct recmem *m, const void *chunks, size_t size)
{
	memset(m, 0, sizeof(*m));
	m->mem.read = recmem_read;
	m->mem.peek = recmem_peek;
	m->chunks = chunks;
	measure(m, size);
}

bool recmem_fpr(const struct recmem *m, void *out)
{
	const struct plan_chunk *ch;

	for (size_t off = 0; (ch = chunk_at(m->chunks, m->size, off));
	     off += plan_chunk_size(ch->len)) {
		if (ch->addr == PLAN_FPR_ADDR && ch->len == 128) {
			memcpy(out, ch + 1, 128);
			return true;
		}
	}
	return false;
}
