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

/* The slot an entry with this key is first looked for at. */
static size_t home(const struct hmap *m, const char *s, uint64_t u)
{
	return (s ? hash_str(s) : hash_u64(u)) & (m->cap - 1);
}

static struct hent *hmap_slot(const struct hmap *m, const char *s, uint64_t u)
{
	size_t i = home(m, s, u);
	while (m->tab[i].used) {
		if (s ? !strcmp(m->tab[i].skey, s) : m->tab[i].ukey == u)
			return &m->tab[i];
		i = (i + 1) & (m->cap - 1);
	}
	return &m->tab[i];
}

static void hmap_grow(struct hmap *m)
{
	struct hmap old = *m;
	m->cap = old.cap ? old.cap * 2 : 64;
	m->tab = xcalloc(m->cap, sizeof(*m->tab));
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.tab[i].used)
			continue;
		struct hent *e = hmap_slot(m, old.tab[i].skey, old.tab[i].ukey);
		*e = old.tab[i];
	}
	free(old.tab);
}

struct hent *hmap_find(const struct hmap *m, const char *s, uint64_t u)
{
	if (!m->cap)
		return NULL;
	struct hent *e = hmap_slot(m, s, u);
	return e->used ? e : NULL;
}

/* S is stored as is: the caller keeps it alive. */
struct hent *hmap_get(struct hmap *m, const char *s, uint64_t u)
{
	if ((m->n + 1) * 4 > m->cap * 3)
		hmap_grow(m);
	struct hent *e = hmap_slot(m, s, u);
	if (!e->used) {
		*e = (struct hent){ .skey = s, .ukey = u, .used = true };
		m->n++;
	}
	return e;
}

/* Backward-shift deletion: each entry of the cluster after the hole moves
 * into it unless its home slot lies cyclically after the hole (it would
 * no longer be found). */
void hmap_remove(struct hmap *m, struct hent *e)
{
	size_t mask = m->cap - 1;
	size_t hole = (size_t)(e - m->tab);
	for (size_t j = (hole + 1) & mask; m->tab[j].used; j = (j + 1) & mask) {
		size_t h = home(m, m->tab[j].skey, m->tab[j].ukey);
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
