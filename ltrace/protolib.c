/* The prototype library: two name tables (functions and typedefs) over
 * one type arena, and the libraries imported after them. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hmap.h"
#include "protolib.h"
#include "type.h"
#include "xmalloc.h"

/* Imports nest at most this deep (a cycle a -> b -> a stops here). */
#define IMPORT_DEPTH 8

struct protolib {
	struct type_arena arena;
	/* name -> struct prototype, owned; the key is the prototype's own name */
	struct hmap protos;
	/* name (owned) -> struct type; val: the load that defined it */
	struct hmap types;
	unsigned gen; /* loads begun */
	const struct protolib **imports;
	size_t nimports;
	protolib_import_fn resolve;
	void *resolve_ctx;
	/* Declarations parsed at their first lookup, in TEXT, the file's:
	 * name -> the declaration's start (ptr; NULL once parsed), its
	 * length and line (val: len << 32 | line).  The names are copied
	 * into NAMES, which has room for all (no name is longer than the
	 * text it is in). */
	struct hmap later;
	char *text;
	char *names;
	size_t names_used, names_size;
	char *file;
	protolib_parse_fn parse;
};

struct protolib *protolib_new(void)
{
	return xcalloc(1, sizeof(struct protolib));
}

void protolib_free(struct protolib *pl)
{
	if (!pl)
		return;
	for (struct hent *e = NULL; (e = hmap_next(&pl->protos, e));)
		prototype_free(e->ptr);
	for (struct hent *e = NULL; (e = hmap_next(&pl->types, e));)
		free((char *)e->skey);
	hmap_destroy(&pl->protos);
	hmap_destroy(&pl->types);
	hmap_destroy(&pl->later);
	free(pl->text);
	free(pl->names);
	free(pl->file);
	free(pl->imports);
	type_arena_destroy(&pl->arena);
	free(pl);
}

/* Function NAME from a declaration PL kept for later: parsed now, once.
 * Parsing on demand changes what PL holds, not what it describes, so
 * a library looked up through a const pointer may do it. */
static struct hent *parse_later(const struct protolib *cpl, const char *name)
{
	struct protolib *pl = (struct protolib *)cpl;
	struct hent *l = pl->later.n ? hmap_find(&pl->later, name, 0) : NULL;
	if (!l || !l->ptr)
		return NULL;
	const char *text = l->ptr;
	l->ptr = NULL;
	pl->parse(pl, pl->file, text, (size_t)(l->val >> 32),
		  (int)(uint32_t)l->val);
	return hmap_find(&pl->protos, name, 0);
}

/* NAME in PL's own table (protos or types, by TYPES), then in its
 * imports in order, depth first. */
static struct hent *lookup_deep(const struct protolib *pl, const char *name,
				bool types, unsigned depth)
{
	struct hent *e = hmap_find(types ? &pl->types : &pl->protos, name, 0);
	if (!e && !types)
		e = parse_later(pl, name);

	if (e || depth >= IMPORT_DEPTH)
		return e;
	for (size_t i = 0; i < pl->nimports && !e; i++)
		if (pl->imports[i] != pl)
			e = lookup_deep(pl->imports[i], name, types, depth + 1);
	return e;
}

const struct prototype *protolib_lookup(const struct protolib *pl,
					const char *name)
{
	struct hent *e = pl ? lookup_deep(pl, name, false, 0) : NULL;

	return e ? e->ptr : NULL;
}

struct type *protolib_lookup_type(const struct protolib *pl, const char *name)
{
	struct hent *e = pl ? lookup_deep(pl, name, true, 0) : NULL;

	return e ? e->ptr : NULL;
}

void protolib_set_import_resolver(struct protolib *pl,
				  protolib_import_fn resolve, void *ctx)
{
	pl->resolve = resolve;
	pl->resolve_ctx = ctx;
}

void protolib_add_import(struct protolib *pl, const struct protolib *imp)
{
	if (!imp || imp == pl)
		return;
	for (size_t i = 0; i < pl->nimports; i++)
		if (pl->imports[i] == imp)
			return;
	pl->imports = xreallocarray(pl->imports, pl->nimports + 1,
				    sizeof(*pl->imports));
	pl->imports[pl->nimports++] = imp;
}

struct type_arena *protolib_arena(struct protolib *pl)
{
	return &pl->arena;
}

void protolib_begin_file(struct protolib *pl)
{
	pl->gen++;
}

struct type *protolib_own_type(struct protolib *pl, const char *name,
			       bool *this_file)
{
	struct hent *e = hmap_find(&pl->types, name, 0);

	*this_file = e && e->val == pl->gen;
	return e ? e->ptr : NULL;
}

void protolib_add_type(struct protolib *pl, const char *name, struct type *t)
{
	struct hent *e = hmap_get(&pl->types, xstrdup(name), 0);

	e->ptr = t;
	e->val = pl->gen;
}

void protolib_add_proto(struct protolib *pl, struct prototype *p)
{
	struct hent *e = hmap_get(&pl->protos, p->name, 0);

	if (e->ptr) {
		prototype_free(p); /* the earlier definition wins */
		return;
	}
	e->ptr = p;
}

int protolib_import(struct protolib *pl, const char *name)
{
	if (!pl->resolve)
		return 0;
	const struct protolib *imp = pl->resolve(pl->resolve_ctx, name);
	if (!imp)
		return -ENOENT;
	protolib_add_import(pl, imp);
	return 0;
}

const struct prototype *protolib_next_proto(const struct protolib *pl,
					    const struct prototype *prev)
{
	struct hent *e = NULL;

	if (prev && !(e = hmap_find(&pl->protos, prev->name, 0)))
		return NULL;
	e = hmap_next(&pl->protos, e);
	return e ? e->ptr : NULL;
}

void protolib_keep_text(struct protolib *pl, char *text, const char *file,
			protolib_parse_fn parse)
{
	free(pl->text);
	free(pl->names);
	free(pl->file);
	pl->text = text;
	pl->names_size = strlen(text) + 1;
	pl->names = xmalloc(pl->names_size);
	pl->names_used = 0;
	pl->file = xstrdup(file);
	pl->parse = parse;
}

bool protolib_has(const struct protolib *pl, const char *name)
{
	return hmap_find(&pl->protos, name, 0) ||
	       (pl->later.n && hmap_find(&pl->later, name, 0));
}

bool protolib_defines(struct protolib *pl, const char *name)
{
	return hmap_find(&pl->protos, name, 0) || parse_later(pl, name);
}

/* A bad declaration kept for NAME was parsed: its entry takes the next
 * one, under the name it already has. */
bool protolib_add_later(struct protolib *pl, const char *name, const char *text,
			size_t len, int line)
{
	size_t n = strlen(name) + 1;
	if (!pl->names || len > UINT32_MAX || line < 0)
		return false;
	struct hent *e = pl->later.n ? hmap_find(&pl->later, name, 0) : NULL;
	if (!e) {
		if (n > pl->names_size - pl->names_used)
			return false;
		char *key = pl->names + pl->names_used;
		memcpy(key, name, n);
		pl->names_used += n;
		e = hmap_get(&pl->later, key, 0);
	}
	e->ptr = (void *)text;
	e->val = (uint64_t)(uint32_t)len << 32 | (uint32_t)line;
	return true;
}
