#include "entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "bpt.h"
#include "demangle.h"
#include "elfscan.h"
#include "bptmem.h"
#include "library.h"
#include "mem.h"
#include "memsrc.h"
#include "options.h"
#include "proc.h"
#include "procfs.h"
#include "select.h"
#include "type.h"
#include "xmalloc.h"

/* -C, as the options said at the last entry_select. */
static bool demangling;

/* ---- the breakpoints and their labels ---- */

/* An IFUNC resolver takes nothing and returns the implementation's
 * address, shown as ltrace shows it: "xyz.IFUNC() = 0x7f...". */
static const struct prototype *ifunc_proto(void)
{
	static struct prototype proto;
	if (!proto.ret)
		proto.ret = type_builtin(TYPE_POINTER, LENS_ADDR);
	return &proto;
}

static char *concat(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a);
	size_t lb = strlen(b);
	size_t lc = strlen(c);
	char *s = xmalloc(la + lb + lc + 1);
	memcpy(s, a, la);
	memcpy(s + la, b, lb);
	memcpy(s + la + lb, c, lc + 1);
	return s;
}

/* A new entry breakpoint at ADDR of L for symbol SYM: its label is SYM
 * (demangled with -C) and SUFFIX, then "@soname" for a library, as
 * ltrace shows -x calls; "<... SYM SUFFIX resumed>" without the
 * soname. */
static struct breakpoint *add_entry(struct process *p, const struct library *l,
				    uint64_t addr, const char *sym,
				    const char *suffix)
{
	struct breakpoint *b = bpt_add(&p->bpts, addr, BPT_ENTRY);
	char *dem = demangling ? demangle(sym) : NULL;
	b->call.name = xstrdup(sym);
	b->entry.resumed = concat(dem ? dem : sym, suffix, "");
	b->call.label = l->is_main ? xstrdup(b->entry.resumed) :
				     concat(b->entry.resumed, "@", l->soname);
	free(dem);
	return b;
}

/* Insert B alone (a resolver's choice: a few per process). */
static void insert_one(struct process *p, struct breakpoint *b)
{
	b->inserted = pread(p->procmem, b->orig, ARCH_BREAKPOINT_LEN,
			    (off_t)b->addr) == ARCH_BREAKPOINT_LEN &&
		      bptmem_write_bpt(p->procmem, b->addr) == 0;
	if (!b->inserted)
		bpt_remove(&p->bpts, b);
}

/* ---- which functions ---- */

/* The alias of V[0..N) (one address, the public name first: elfscan.h)
 * whose name an entry shows: the first that -x or -e names exactly (-x
 * ftell shows ftell, not _IO_ftell), else the first that -x selects;
 * NULL if none is. */
static const struct elf_func *pick(const struct options *o,
				   const struct select_obj *so,
				   const struct elf_func *v, size_t n)
{
	const struct elf_func *first = NULL;
	for (size_t i = 0; i < n; i++) {
		enum select_hit h = select_entry_hit(o, v[i].name, so);
		if (h == SELECT_NAMED)
			return &v[i];
		if (h == SELECT_MATCH && !first)
			first = &v[i];
	}
	return first;
}

static struct breakpoint *add_func(struct process *p, const struct library *l,
				   const struct elf_funcs *fs,
				   const struct elf_func *f)
{
	uint64_t at = f->addr + l->bias;
	if (bpt_lookup(&p->bpts, at))
		return NULL; /* a stub, the rendezvous: theirs */
	if (!f->ifunc) {
		struct breakpoint *b = add_entry(p, l, at, f->name, "");
		b->entry.size = f->size;
		return b;
	}
	struct breakpoint *b = add_entry(p, l, at, f->name, ".IFUNC");
	b->entry.ifunc = true;
	uint64_t slot = elf_funcs_irel_slot(fs, f->addr);
	b->call.got = slot ? slot + l->bias : 0;
	b->call.proto = ifunc_proto();
	b->call.proto_done = true;
	return b;
}

void entry_select(struct process *p, struct library *l, const struct options *o,
		  void (*add)(struct breakpoint *b, void *ctx), void *ctx)
{
	struct elf_funcs fs;
	if (!select_has_entries(o) || elf_funcs_read(&fs, l->path))
		return;
	demangling = o->demangle;
	if (fs.text_hi) {
		l->text_lo = fs.text_lo + l->bias;
		l->text_hi = fs.text_hi + l->bias;
	}
	struct select_obj so = { l->soname, l->path, l->is_main };
	for (size_t i = 0, j; i < fs.n; i = j) {
		for (j = i + 1; j < fs.n && fs.v[j].addr == fs.v[i].addr; j++)
			continue;
		const struct elf_func *f = pick(o, &so, fs.v + i, j - i);
		struct breakpoint *b = f ? add_func(p, l, &fs, f) : NULL;
		if (b)
			add(b, ctx);
	}
	elf_funcs_destroy(&fs);
}

/* ---- implementations chosen by IFUNC resolvers ---- */

static bool in_text(const struct library *l, uint64_t addr)
{
	return addr >= l->text_lo && addr < l->text_hi;
}

/* The object whose code holds ADDR, or NULL. */
static struct library *code_of(struct process *p, uint64_t addr)
{
	for (struct library *l = p->libs; l; l = l->next)
		if (in_text(l, addr))
			return l;
	return NULL;
}

void entry_ifunc_returned(struct process *p, const struct breakpoint *r,
			  uint64_t impl)
{
	const struct library *l = code_of(p, r->addr);
	if (!l || impl == r->addr || !code_of(p, impl) ||
	    bpt_lookup(&p->bpts, impl))
		return;
	insert_one(p, add_entry(p, l, impl, r->call.name, ""));
}

/* The function pointer in the slot at GOT, or 0. */
static uint64_t read_slot(struct memsrc *m, uint64_t got)
{
	uint64_t v = 0;
	if (!got || memsrc_read(m, got, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* What a GOT slot of R's name holds in an object other than R's, if it
 * points into R's object's code (a slot not yet bound points at its own
 * object's lazy-binding code), else 0. */
static uint64_t bound_slot(struct process *p, struct memsrc *m,
			   const struct library *def,
			   const struct breakpoint *r)
{
	for (const struct library *l = p->libs; l; l = l->next) {
		if (l == def)
			continue;
		for (size_t i = 0; i < l->image.nplt; i++) {
			const struct plt_entry *e = &l->image.plt[i];
			if (strcmp(e->name, r->call.name))
				continue;
			uint64_t v = read_slot(m, e->got + l->bias);
			if (in_text(def, v))
				return v;
		}
	}
	return 0;
}

static void find_impl(struct process *p, struct memsrc *m, struct breakpoint *r)
{
	const struct library *def = code_of(p, r->addr);
	if (!def)
		return;
	uint64_t impl = read_slot(m, r->call.got);
	if (!code_of(p, impl))
		impl = bound_slot(p, m, def, r);
	if (impl)
		entry_ifunc_returned(p, r, impl);
}

struct resolvers {
	struct breakpoint **v;
	size_t n;
};

static void note_resolver(struct breakpoint *b, void *data)
{
	struct resolvers *rs = data;
	if (b->kind == BPT_ENTRY && b->entry.ifunc) {
		rs->v = xreallocarray(rs->v, rs->n + 1, sizeof(*rs->v));
		rs->v[rs->n++] = b;
	}
}

/* Breakpoints added while the table is walked would upset the walk:
 * the resolvers are collected first. */
void entry_find_impls(struct process *p, struct memsrc *m)
{
	struct resolvers rs = { NULL, 0 };
	bpt_foreach(&p->bpts, note_resolver, &rs);
	for (size_t i = 0; i < rs.n; i++)
		find_impl(p, m, rs.v[i]);
	free(rs.v);
}

/* ---- return addresses ---- */

bool entry_return_ok(struct process *p, struct memsrc *m, uint64_t ret)
{
	uint8_t before[ARCH_CALL_WINDOW];
	if (ret < sizeof(before) ||
	    memsrc_read(m, ret - sizeof(before), before, sizeof(before)) !=
		    sizeof(before))
		return false;
	bptmem_undo_bpts(&p->bpts, ret - sizeof(before), before,
			 sizeof(before));
	if (!arch_follows_call(before))
		return false;
	for (const struct library *l = p->libs; l; l = l->next) {
		if (in_text(l, ret))
			return true;
		if (library_contains(l, ret))
			return false;
	}
	return procfs_executable(p->pid, ret);
}
