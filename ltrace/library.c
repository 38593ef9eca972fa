#include "library.h"

#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "xmalloc.h"

static const char *file_name(const char *path)
{
	const char *base = strrchr(path, '/');
	return base ? base + 1 : path;
}

struct library *library_new(const char *path, const char *file, unsigned flags,
			    char *errbuf, size_t errlen)
{
	struct library *l = xcalloc(1, sizeof(*l));
	int rc = flags & LIBRARY_NO_CALLS ?
			 elf_image_read_shape(&l->image, file, errbuf, errlen) :
			 elf_image_read(&l->image, file, errbuf, errlen);
	if (rc < 0) {
		free(l);
		return NULL;
	}
	l->path = xstrdup(path);
	l->file = xstrdup(file);
	l->soname =
		xstrdup(l->image.soname ? l->image.soname : file_name(path));
	l->is_main = flags & LIBRARY_MAIN;
	return l;
}

void library_place(struct library *l, uint64_t bias)
{
	l->bias = bias;
	/* An object without PT_LOAD spans nothing. */
	if (l->image.load_hi) {
		l->lo = l->image.load_lo + bias;
		l->hi = l->image.load_hi + bias;
	}
}

void library_free(struct library *l)
{
	if (!l)
		return;
	free(l->path);
	free(l->file);
	free(l->soname);
	elf_image_destroy(&l->image);
	elf_exports_destroy(&l->exports);
	elf_sites_destroy(&l->sites);
	free(l);
}

static void clone_image(struct elf_image *dst, const struct elf_image *src)
{
	*dst = *src;
	dst->soname = src->soname ? xstrdup(src->soname) : NULL;
	dst->interp = src->interp ? xstrdup(src->interp) : NULL;
	dst->plt = xreallocarray(NULL, src->nplt + 1, sizeof(*dst->plt));
	for (size_t i = 0; i < src->nplt; i++) {
		dst->plt[i] = src->plt[i];
		dst->plt[i].name = xstrdup(src->plt[i].name);
	}
	dst->slots = xreallocarray(NULL, src->nslots + 1, sizeof(*dst->slots));
	for (size_t i = 0; i < src->nslots; i++) {
		dst->slots[i] = src->slots[i];
		dst->slots[i].name = xstrdup(src->slots[i].name);
	}
}

static void clone_sites(struct elf_sites *dst, const struct elf_sites *src)
{
	dst->n = src->n;
	dst->v = xreallocarray(NULL, src->n + 1, sizeof(*dst->v));
	if (src->n)
		memcpy(dst->v, src->v, src->n * sizeof(*dst->v));
}

struct library *library_clone(const struct library *l)
{
	struct library *c = xmalloc(sizeof(*c));
	*c = *l;
	c->path = xstrdup(l->path);
	c->file = xstrdup(l->file);
	c->soname = xstrdup(l->soname);
	clone_image(&c->image, &l->image);
	clone_sites(&c->sites, &l->sites);
	memset(&c->exports, 0, sizeof(c->exports));
	c->exports_read = false;
	c->next = NULL;
	return c;
}

bool library_exports(struct library *l, const char *name)
{
	if (!l->exports_read) {
		l->exports_read = true;
		/* Unreadable: it exports nothing we can name. */
		(void)elf_exports_read(&l->exports, l->path);
	}
	const struct elf_export *e = elf_exports_find(&l->exports, name);
	return e && e->func;
}

const struct elf_sites *library_sites(struct library *l)
{
	if (!l->sites_read) {
		l->sites_read = true;
		/* Unreadable (the file went since it was read): no sites. */
		if (elf_sites_read(&l->sites, l->file, &l->image) < 0 &&
		    strcmp(l->file, l->path) != 0)
			(void)elf_sites_read(&l->sites, l->path, &l->image);
	}
	return &l->sites;
}

bool library_contains(const struct library *l, uint64_t addr)
{
	return addr >= l->lo && addr < l->hi;
}

void library_append(struct process *p, struct library *l)
{
	struct library **pp = &p->libs;
	while (*pp)
		pp = &(*pp)->next;
	l->next = NULL;
	*pp = l;
}

void library_unlink(struct process *p, struct library *l)
{
	for (struct library **pp = &p->libs; *pp; pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			l->next = NULL;
			return;
		}
	}
}

struct library *library_main(const struct process *p)
{
	return p->libs && p->libs->is_main ? p->libs : NULL;
}

void library_clear(struct process *p)
{
	while (p->libs) {
		struct library *l = p->libs;
		p->libs = l->next;
		library_free(l);
	}
}

void library_clone_all(struct process *dst, const struct process *src)
{
	for (const struct library *l = src->libs; l; l = l->next)
		library_append(dst, library_clone(l));
}

size_t library_count(const struct process *p)
{
	size_t n = 0;
	for (const struct library *l = p->libs; l; l = l->next)
		n++;
	return n;
}
