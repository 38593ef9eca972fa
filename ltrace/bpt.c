#include "bpt.h"

#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static const struct bpt_ops *const *kind_ops;

void bpt_set_ops(const struct bpt_ops *const *by_kind)
{
	kind_ops = by_kind;
}

void bpt_table_init(struct bpt_table *t)
{
	memset(&t->map, 0, sizeof(t->map));
}

static void free_breakpoint(struct breakpoint *b)
{
	free(b->call.name);
	free(b->call.label);
	if (b->kind == BPT_ENTRY)
		free(b->entry.resumed);
	free(b);
}

void bpt_table_destroy(struct bpt_table *t)
{
	for (struct hent *e = NULL; (e = hmap_next(&t->map, e));)
		free_breakpoint(e->ptr);
	hmap_destroy(&t->map);
}

void bpt_table_clone(struct bpt_table *dst, const struct bpt_table *src)
{
	hmap_clone(&dst->map, &src->map);
	for (struct hent *e = NULL; (e = hmap_next(&dst->map, e));) {
		const struct breakpoint *sb = e->ptr;
		struct breakpoint *b = xmalloc(sizeof(*b));
		*b = *sb;
		if (sb->call.name)
			b->call.name = xstrdup(sb->call.name);
		if (sb->call.label)
			b->call.label = xstrdup(sb->call.label);
		if (sb->kind == BPT_ENTRY && sb->entry.resumed)
			b->entry.resumed = xstrdup(sb->entry.resumed);
		e->ptr = b;
	}
}

struct breakpoint *bpt_lookup(const struct bpt_table *t, uint64_t addr)
{
	struct hent *e = hmap_find(&t->map, NULL, addr);
	return e ? e->ptr : NULL;
}

struct breakpoint *bpt_add(struct bpt_table *t, uint64_t addr,
			   enum bpt_kind kind)
{
	struct breakpoint *b = xcalloc(1, sizeof(*b));
	b->addr = addr;
	b->kind = kind;
	b->ops = kind_ops ? kind_ops[kind] : NULL;
	hmap_get(&t->map, NULL, addr)->ptr = b;
	return b;
}

void bpt_remove(struct bpt_table *t, struct breakpoint *b)
{
	hmap_remove(&t->map, hmap_find(&t->map, NULL, b->addr));
	free_breakpoint(b);
}

void bpt_foreach(const struct bpt_table *t,
		 void (*fn)(struct breakpoint *b, void *data), void *data)
{
	for (struct hent *e = NULL; (e = hmap_next(&t->map, e));)
		fn(e->ptr, data);
}
