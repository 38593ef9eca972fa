/* An open-addressing hash map with a string or an integer key (string
 * keys are borrowed: the caller keeps them alive) and a value and a
 * pointer per entry.  Zero-initialised means empty. */
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
};

struct hmap {
	struct hent *tab;
	size_t cap, n;
};

/* The entry for key S (or U when S is NULL); NULL if absent. */
struct hent *hmap_find(struct hmap *m, const char *s, uint64_t u);
/* The entry for the key, created (zeroed, used) if absent. */
struct hent *hmap_get(struct hmap *m, const char *s, uint64_t u);
/* Frees the table, not the keys or values. */
void hmap_destroy(struct hmap *m);

#endif
