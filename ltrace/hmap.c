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

static struct hent *hmap_slot(struct hmap *m, const char *s, uint64_t u)
{
	size_t i = (s ? hash_str(s) : hash_u64(u)) & (m->cap - 1);

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
	struct hent *e;
	size_t i;

	m->cap = old.cap ? old.cap * 2 : 64;
	m->tab = xcalloc(m->cap, sizeof(*m->tab));
	for (i = 0; i < old.cap; i++) {
		if (!old.tab[i].used)
			continue;
		e = hmap_slot(m, old.tab[i].skey, old.tab[i].ukey);
		*e = old.tab[i];
	}
	free(old.tab);
}

/* The entry for key S (or U when S is NULL); NULL if absent. */
struct hent *hmap_find(struct hmap *m, const char *s, uint64_t u)
{
	struct hent *e;

	if (!m->cap)
		return NULL;
	e = hmap_slot(m, s, u);
	return e->used ? e : NULL;
}

/* The entry for the key, created (zeroed, used) if absent.  S is stored
 * as is: the caller keeps it alive. */
struct hent *hmap_get(struct hmap *m, const char *s, uint64_t u)
{
	struct hent *e;

	if ((m->n + 1) * 4 > m->cap * 3)
		hmap_grow(m);
	e = hmap_slot(m, s, u);
	if (!e->used) {
		*e = (struct hent){ .skey = s, .ukey = u, .used = true };
		m->n++;
	}
	return e;
}

void hmap_destroy(struct hmap *m)
{
	free(m->tab);
	m->tab = NULL;
	m->cap = m->n = 0;
}
