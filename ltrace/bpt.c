#include "bpt.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

/* Fibonacci hashing of the address: stubs are 16 bytes apart, so the low
 * bits alone would cluster. */
static size_t hash(uint64_t addr, size_t cap)
{
	return (size_t)((addr * 0x9E3779B97F4A7C15ULL) >> 20) & (cap - 1);
}

void bpt_table_init(struct bpt_table *t)
{
	t->cap = 256;
	t->count = 0;
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
}

void bpt_table_destroy(struct bpt_table *t)
{
	for (size_t i = 0; i < t->cap; i++) {
		if (t->slots[i])
			free(t->slots[i]->name);
		free(t->slots[i]);
	}
	free(t->slots);
	t->slots = NULL;
	t->cap = t->count = 0;
}

static void place(struct bpt_table *t, struct breakpoint *b)
{
	size_t i = hash(b->addr, t->cap);
	while (t->slots[i])
		i = (i + 1) & (t->cap - 1);
	t->slots[i] = b;
}

static void grow(struct bpt_table *t)
{
	struct breakpoint **old = t->slots;
	size_t oldcap = t->cap;
	t->cap *= 2;
	t->slots = xcalloc(t->cap, sizeof(*t->slots));
	for (size_t i = 0; i < oldcap; i++)
		if (old[i])
			place(t, old[i]);
	free(old);
}

void bpt_table_clone(struct bpt_table *dst, const struct bpt_table *src)
{
	dst->cap = src->cap;
	dst->count = src->count;
	dst->slots = xcalloc(dst->cap, sizeof(*dst->slots));
	for (size_t i = 0; i < src->cap; i++) {
		if (!src->slots[i])
			continue;
		dst->slots[i] = xmalloc(sizeof(struct breakpoint));
		*dst->slots[i] = *src->slots[i];
		if (src->slots[i]->name)
			dst->slots[i]->name = xstrdup(src->slots[i]->name);
	}
}

struct breakpoint *bpt_lookup(const struct bpt_table *t, uint64_t addr)
{
	size_t i = hash(addr, t->cap);
	while (t->slots[i]) {
		if (t->slots[i]->addr == addr)
			return t->slots[i];
		i = (i + 1) & (t->cap - 1);
	}
	return NULL;
}

struct breakpoint *bpt_add(struct bpt_table *t, uint64_t addr,
			   enum bpt_kind kind)
{
	if ((t->count + 1) * 2 > t->cap)
		grow(t);
	struct breakpoint *b = xcalloc(1, sizeof(*b));
	b->addr = addr;
	b->kind = kind;
	place(t, b);
	t->count++;
	return b;
}

void bpt_foreach(const struct bpt_table *t,
		 void (*fn)(struct breakpoint *b, void *data), void *data)
{
	for (size_t i = 0; i < t->cap; i++)
		if (t->slots[i])
			fn(t->slots[i], data);
}
