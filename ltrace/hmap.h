/* An open-addressing hash map (linear probing) with a string or an
 * integer key (string keys are borrowed: the caller keeps them alive) and
 * a value and a pointer per entry.  Zero-initialised means empty.  Lookups
 * never allocate; a map grows by doubling when three quarters full, and
 * removal shifts the entries after the hole back, so there are no
 * tombstones. */
#ifndef LTRACE_HMAP_H
#define LTRACE_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hent {
	const char *skey;
	uint64_t ukey;
	uint64_t val;
	void *ptr;
	bool used;
	uint32_t hash; /* the key's (low half): probes compare it first */
};

struct hmap {
	struct hent *tab;
	size_t cap, n;
};

/* The entry for key S (or U when S is NULL); NULL if absent. */
struct hent *hmap_find(const struct hmap *m, const char *s, uint64_t u);
/* The entry for the key, created (zeroed, used) if absent.  May move
 * every entry: pointers to entries are valid until the next change. */
struct hent *hmap_get(struct hmap *m, const char *s, uint64_t u);
/* Remove entry E (of M); the entries after it may move. */
void hmap_remove(struct hmap *m, struct hent *e);
/* The entry after E (the first one when E is NULL), or NULL: visits every
 * entry once, in no particular order, while M does not change. */
struct hent *hmap_next(const struct hmap *m, const struct hent *e);
/* DST (uninitialised) becomes a copy of SRC: same keys, values and
 * pointers (what the pointers point at is not copied). */
void hmap_clone(struct hmap *dst, const struct hmap *src);
/* Frees the table, not the keys or values. */
void hmap_destroy(struct hmap *m);

#endif
