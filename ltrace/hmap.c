#include "hmap.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static uint64_t hash_u64(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	return k ^ (k >> 33);
}

static uint64_t hash_of(const char *s, uint64_t u)
{
	return s ? hash_str(s) : hash_u64(u);
}

/* The bucket of the entry with this key and hash H, or the empty bucket
 * where it would go. */
static struct hent *hmap_bucket(const struct hmap *m, const char *s, uint64_t u,
				uint64_t h)
{
	size_t i = (uint32_t)h & (m->cap - 1);
	while (m->tab[i].used) {
		const struct hent *e = &m->tab[i];
		if (e->hash == (uint32_t)h &&
		    (s ? !strcmp(e->skey, s) : e->ukey == u))
			return &m->tab[i];
		i = (i + 1) & (m->cap - 1);
	}
	return &m->tab[i];
}

/* Keys are unique: an entry moving to a new table only needs a free
 * bucket, found from the stored hash (homes use its low 32 bits, so a
 * table of more than 2^32 buckets would only probe further). */
static void hmap_grow(struct hmap *m)
{
	struct hmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->tab = xcalloc(m->cap, sizeof(*m->tab));
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.tab[i].used)
			continue;
		size_t j = old.tab[i].hash & (m->cap - 1);
		while (m->tab[j].used)
			j = (j + 1) & (m->cap - 1);
		m->tab[j] = old.tab[i];
	}
	free(old.tab);
}

/* hmap_find for an integer key: the tracer looks up a task and a
 * breakpoint at every stop and every --fast record, and the general
 * probe's tests of the key's kind and hash cost more than the search. */
static struct hent *find_u64(const struct hmap *m, uint64_t u)
{
	size_t mask = m->cap - 1;

	for (size_t i = hash_u64(u) & mask; m->tab[i].used; i = (i + 1) & mask)
		if (m->tab[i].ukey == u)
			return &m->tab[i];
	return NULL;
}

struct hent *hmap_find(const struct hmap *m, const char *s, uint64_t u)
{
	if (!m->cap)
		return NULL;
	if (!s)
		return find_u64(m, u);
	struct hent *e = hmap_bucket(m, s, u, hash_of(s, u));
	return e->used ? e : NULL;
}

/* S is stored as is: the caller keeps it alive. */
struct hent *hmap_get(struct hmap *m, const char *s, uint64_t u)
{
	if ((m->n + 1) * 4 > m->cap * 3)
		hmap_grow(m);
	uint64_t h = hash_of(s, u);
	struct hent *e = hmap_bucket(m, s, u, h);
	if (!e->used) {
		*e = (struct hent){
			.skey = s, .ukey = u, .used = true, .hash = (uint32_t)h
		};
		m->n++;
	}
	return e;
}

/* Backward-shift deletion: each entry of the cluster after the hole moves
 * into it unless its home bucket lies cyclically after the hole (it would
 * no longer be found). */
void hmap_remove(struct hmap *m, struct hent *e)
{
	size_t mask = m->cap - 1;
	size_t hole = (size_t)(e - m->tab);
	for (size_t j = (hole + 1) & mask; m->tab[j].used; j = (j + 1) & mask) {
		size_t h = m->tab[j].hash & mask;
		if (((j - h) & mask) >= ((j - hole) & mask)) {
			m->tab[hole] = m->tab[j];
			hole = j;
		}
	}
	m->tab[hole] = (struct hent){ 0 };
	m->n--;
}

struct hent *hmap_next(const struct hmap *m, const struct hent *e)
{
	for (size_t i = e ? (size_t)(e - m->tab) + 1 : 0; i < m->cap; i++)
		if (m->tab[i].used)
			return &m->tab[i];
	return NULL;
}

void hmap_clone(struct hmap *dst, const struct hmap *src)
{
	*dst = *src;
	if (!src->cap)
		return;
	dst->tab = xmalloc(src->cap * sizeof(*src->tab));
	memcpy(dst->tab, src->tab, src->cap * sizeof(*src->tab));
}

void hmap_destroy(struct hmap *m)
{
	free(m->tab);
	m->tab = NULL;
	m->cap = m->n = 0;
}
