/* The call sites of code built without a PLT (elfscan.h, elf_sites_read):
 * every executable PT_LOAD segment is handed to the architecture's
 * scanner (<arch>/sites.c through plt_arch.h), which reports the
 * instructions that call or jump through one of the image's function
 * slots; the jumps of the stubs elf.c found are left out of the sweep.
 *
 * Read only when the tracer wants them (a slot of the object is
 * selected), since the sweep is the one costly part of reading an
 * object: about 45 MB/s of code, after a byte search at memrchr's speed
 * that finds where the last site can be.  A program built with a PLT,
 * whose stub-less slots are those of address-taken functions, has no
 * site, and the byte search alone decides it (about 0.4 ms for such a
 * program of /usr/bin). */
#include "elfscan.h"
#include "plt_arch.h"
#include "xmalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sweep {
	const struct elf_image *img;
	struct elf_sites *out;
	size_t cap;
};

static int cmp_got(const void *a, const void *b)
{
	const struct elf_slot *x = a;
	const struct elf_slot *y = b;
	return x->got < y->got ? -1 : x->got > y->got;
}

static const struct elf_slot *find_slot(const struct elf_image *img,
					uint64_t got)
{
	struct elf_slot key = { .got = got };
	if (!img->nslots)
		return NULL;
	return bsearch(&key, img->slots, img->nslots, sizeof(key), cmp_got);
}

/* plt_slot_fn: one of the image's stub-less function slots. */
static bool is_slot(void *ctx, uint64_t got)
{
	const struct sweep *sw = ctx;
	return find_slot(sw->img, got) != NULL;
}

/* plt_site_fn */
static void on_site(void *ctx, const struct plt_site *site)
{
	struct sweep *sw = ctx;
	struct elf_sites *out = sw->out;
	if (out->n == sw->cap) {
		sw->cap = sw->cap ? 2 * sw->cap : 64;
		out->v = xreallocarray(out->v, sw->cap, sizeof(*out->v));
	}
	struct elf_site *s = &out->v[out->n++];
	s->addr = site->addr;
	s->slot = (size_t)(find_slot(sw->img, site->got) - sw->img->slots);
	s->len = site->len;
	s->jump = site->kind == PLT_SITE_JUMP;
}

static int cmp_site(const void *a, const void *b)
{
	const struct elf_site *x = a;
	const struct elf_site *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sort by address; drop a site reported twice (segments that overlap in
 * a crafted file). */
static void finish(struct elf_sites *s)
{
	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), cmp_site);
	size_t n = 1;
	for (size_t i = 1; i < s->n; i++)
		if (s->v[i].addr != s->v[n - 1].addr)
			s->v[n++] = s->v[i];
	s->n = n;
}

/* The FILESZ bytes PH maps from the file of SIZE bytes at RAW, or NULL. */
static const uint8_t *segment_bytes(const char *raw, size_t size,
				    const GElf_Phdr *ph)
{
	if (ph->p_offset > size || ph->p_filesz > size - ph->p_offset)
		return NULL;
	return (const uint8_t *)raw + ph->p_offset;
}

/* Sweep the SIZE bytes of CODE at link-time address ADDR but the stubs'
 * jumps, piece by piece: a stub jumps through a slot as a tail call
 * does, and the byte search would make the sweep run up to the last
 * stub, after all of .text where lld puts the PLT. */
static void sweep_segment(struct sweep *sw, const uint8_t *code, size_t size,
			  uint64_t addr)
{
	const struct elf_image *img = sw->img;
	uint64_t at = addr;
	for (size_t i = 0; i < img->nplt; i++) {
		const struct plt_entry *e = &img->plt[i];
		if (e->addr < at || e->addr - addr >= size)
			continue;
		plt_arch_scan_sites(code + (at - addr), e->addr - at, at,
				    is_slot, on_site, sw);
		at = e->addr + e->len;
		if (at - addr > size)
			return;
	}
	plt_arch_scan_sites(code + (at - addr), size - (at - addr), at, is_slot,
			    on_site, sw);
}

/* Sweep each executable PT_LOAD segment, as the loader maps it: section
 * headers may lie or be gone. */
static void sweep_file(Elf *elf, struct sweep *sw)
{
	size_t size = 0;
	const char *raw = elf_rawfile(elf, &size);
	size_t n = 0;
	if (!raw || elf_getphdrnum(elf, &n) < 0)
		return;
	GElf_Phdr ph;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !(ph.p_flags & PF_X))
			continue;
		const uint8_t *code = segment_bytes(raw, size, &ph);
		if (code && ph.p_filesz)
			sweep_segment(sw, code, ph.p_filesz, ph.p_vaddr);
	}
	finish(sw->out);
}

int elf_sites_read(struct elf_sites *s, const char *path,
		   const struct elf_image *img)
{
	memset(s, 0, sizeof(*s));
	if (!img->nslots)
		return 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	int ret = -ENOEXEC;
	if (elf && elf_kind(elf) == ELF_K_ELF) {
		struct sweep sw = { img, s, 0 };
		sweep_file(elf, &sw);
		ret = 0;
	}
	elf_end(elf);
	close(fd);
	return ret;
}

void elf_sites_destroy(struct elf_sites *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}
