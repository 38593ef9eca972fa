#include "bptmem.h"

#include <elf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "bpt.h"
#include "calls.h"
#include "demangle.h"
#include "entry.h"
#include "debug.h"
#include "error.h"
#include "fast.h"
#include "library.h"
#include "mem.h"
#include "options.h"
#include "proc.h"
#include "procfs.h"
#include "scratch.h"
#include "select.h"
#include "tracee.h"
#include "xmalloc.h"

/* Breakpoints are written a page at a time at most. */
#define BATCH_PAGE 4096UL

static const struct options *opts;

void bptmem_init(const struct options *o)
{
	opts = o;
}

/* ---- the breakpoint instruction ---- */

_Static_assert(ARCH_BREAKPOINT_LEN <= BPT_INSN_MAX,
	       "struct breakpoint's orig holds the breakpoint instruction");
_Static_assert(ARCH_BREAKPOINT_LEN < BPT_STUB_MAX,
	       "a stub is longer than its breakpoint");

static const uint8_t bpt_insn[ARCH_BREAKPOINT_LEN] = ARCH_BREAKPOINT;

int bptmem_write_bpt(int procmem, uint64_t addr)
{
	return mem_write(procmem, addr, bpt_insn, sizeof(bpt_insn));
}

bool bptmem_is_bpt(const uint8_t *code)
{
	return memcmp(code, bpt_insn, sizeof(bpt_insn)) == 0;
}

int bptmem_write_orig(int procmem, const struct breakpoint *b)
{
	return mem_write(procmem, b->addr, b->orig, sizeof(bpt_insn));
}

/* A breakpoint that starts up to ARCH_BREAKPOINT_LEN - 1 bytes before
 * ADDR covers its first bytes too. */
void bptmem_undo_bpts(const struct bpt_table *t, uint64_t addr, uint8_t *buf,
		      size_t n)
{
	uint64_t lo =
		addr > sizeof(bpt_insn) - 1 ? addr - (sizeof(bpt_insn) - 1) : 0;
	for (uint64_t a = lo; a < addr + n; a++) {
		const struct breakpoint *b = bpt_lookup(t, a);
		if (!b || !b->inserted)
			continue;
		for (size_t k = 0; k < sizeof(bpt_insn); k++)
			if (a + k >= addr && a + k < addr + n)
				buf[a + k - addr] = b->orig[k];
	}
}

/* ---- writing many breakpoints at once ---- */

/* New stub breakpoints of one object, in increasing address order. */
struct batch {
	struct breakpoint **v;
	size_t n, cap;
};

static void batch_push(struct batch *bt, struct breakpoint *b)
{
	if (bt->n == bt->cap) {
		bt->cap = bt->cap ? 2 * bt->cap : 64;
		bt->v = xreallocarray(bt->v, bt->cap, sizeof(*bt->v));
	}
	bt->v[bt->n++] = b;
}

/* The bytes of B's stub kept (struct bpt_stub), 0 if B is no stub's. */
static size_t stub_len(const struct breakpoint *b)
{
	return b->kind == BPT_STUB ? b->stub.len : 0;
}

/* The end of the span the N breakpoints of V cover: a stub's whole
 * jump, since its bytes are kept (struct bpt_stub). */
static uint64_t run_end(struct breakpoint **v, size_t n)
{
	uint64_t hi = 0;
	for (size_t i = 0; i < n; i++) {
		size_t len = stub_len(v[i]);
		uint64_t end = v[i]->addr + (len ? len : sizeof(bpt_insn));
		hi = end > hi ? end : hi;
	}
	return hi;
}

/* Insert the N breakpoints of V, all in one page: read the span they
 * cover, patch it, write it back in one pwrite.  The other bytes are
 * written back as they were, so threads running meanwhile see no
 * change but the breakpoints.  Breakpoints that cannot be written are
 * dropped. */
static void insert_run(struct process *p, struct breakpoint **v, size_t n)
{
	uint8_t buf[BATCH_PAGE + BPT_STUB_MAX];
	uint64_t lo = v[0]->addr;
	size_t len = run_end(v, n) - lo;
	bool ok = pread(p->procmem, buf, len, lo) == (ssize_t)len;
	for (size_t i = 0; ok && i < n; i++) {
		const uint8_t *at = buf + (v[i]->addr - lo);
		memcpy(v[i]->orig, at, sizeof(bpt_insn));
		if (stub_len(v[i]))
			memcpy(v[i]->stub.tail, at + sizeof(bpt_insn),
			       stub_len(v[i]) - sizeof(bpt_insn));
	}
	for (size_t i = 0; ok && i < n; i++)
		memcpy(buf + (v[i]->addr - lo), bpt_insn, sizeof(bpt_insn));
	ok = ok && mem_write(p->procmem, lo, buf, len) == 0;
	if (!ok)
		perror_msg("inserting breakpoints at %#lx in pid %d",
			   (unsigned long)lo, (int)p->pid);
	else
		debug_msg(DEBUG_BREAKPOINTS,
			  "pid %d: %zu breakpoints in %#lx-%#lx", (int)p->pid,
			  n, (unsigned long)lo, (unsigned long)(lo + len));
	for (size_t i = 0; i < n; i++) {
		if (ok)
			v[i]->inserted = true;
		else
			bpt_remove(&p->bpts, v[i]);
	}
}

/* One pwrite per page of breakpoints, never one per breakpoint. */
static void batch_insert(struct process *p, struct batch *bt)
{
	for (size_t i = 0; i < bt->n;) {
		size_t j = i + 1;
		while (j < bt->n && bt->v[j]->addr / BATCH_PAGE ==
					    bt->v[i]->addr / BATCH_PAGE)
			j++;
		insert_run(p, bt->v + i, j - i);
		i = j;
	}
	free(bt->v);
	memset(bt, 0, sizeof(*bt));
}

/* ---- which stubs ---- */

unsigned bptmem_library_flags(void)
{
	return select_library_calls(opts) ? 0 : LIBRARY_NO_CALLS;
}

static struct select_obj selector(const struct library *l)
{
	struct select_obj so = { l->soname, l->path, l->is_main };
	return so;
}

/* What a call line shows for SYM called through L's stub:
 * "caller->callee" when the filters show callers, the callee demangled
 * with -C.  *CALLEE: where the callee starts. */
static char *make_label(const struct library *l, const char *sym,
			size_t *callee)
{
	char *dem = opts->demangle ? demangle(sym) : NULL;
	const char *shown = dem ? dem : sym;
	*callee = select_shows_caller(opts) ? strlen(l->soname) + 2 : 0;
	size_t len = *callee + strlen(shown) + 1;
	char *label = xmalloc(len);
	if (*callee)
		snprintf(label, len, "%s->%s", l->soname, shown);
	else
		memcpy(label, shown, len);
	free(dem);
	return label;
}

static void add_stub(struct process *p, const struct library *l,
		     const struct plt_entry *e, struct batch *bt)
{
	struct breakpoint *b = bpt_add(&p->bpts, e->addr + l->bias, BPT_STUB);
	b->call.name = xstrdup(e->name);
	b->call.label = make_label(l, e->name, &b->call.label_callee);
	b->call.got = e->got + l->bias;
	b->stub.len = e->len < BPT_STUB_MAX ? (uint8_t)e->len : BPT_STUB_MAX;
	b->stub.addr_read = e->addr_read;
	batch_push(bt, b);
}

/* Whether an object that -l selects exports SYM.  CALLER itself counts:
 * a library's calls through its own PLT to what it exports go wherever
 * the symbol binds, and ltrace shows them (libstdc++.so.6->locale()). */
static bool callee_selected(struct process *p, const char *sym)
{
	for (struct library *l = p->libs; l; l = l->next)
		if (l->callee && library_exports(l, sym))
			return true;
	return false;
}

/* ---- call sites without a stub (-fno-plt) ---- */

/* A site breakpoint at S, in L, unless one is there.  A return
 * breakpoint there (a call returns onto the site) becomes the site's:
 * it is inserted, and its displacement runs the same instruction. */
static void add_site(struct process *p, const struct library *l,
		     const struct elf_site *s, struct batch *bt)
{
	struct breakpoint *b = bpt_lookup(&p->bpts, s->addr + l->bias);
	if (b && b->kind != BPT_RETURN)
		return;
	if (b) {
		b->kind = BPT_SITE;
		b->disp_ready = true;
	} else {
		b = bpt_add(&p->bpts, s->addr + l->bias, BPT_SITE);
		batch_push(bt, b);
	}
	const char *name = l->image.slots[s->slot].name;
	b->call.name = xstrdup(name);
	b->call.label = make_label(l, name, &b->call.label_callee);
	b->call.got = l->image.slots[s->slot].got + l->bias;
	b->site.len = s->len;
	b->site.jump = s->jump;
}

/* Whether the filters select the calls through L's slot I, as they
 * would its stub; with CALLEE (a library -l selects that has just come),
 * only if CALLEE exports its function. */
static bool site_selected(struct process *p, struct library *l, size_t i,
			  struct library *callee)
{
	const char *name = l->image.slots[i].name;
	struct select_obj so = selector(l);
	if (callee)
		return library_exports(callee, name) &&
		       select_stub(opts, name, &so, true);
	return select_stub(opts, name, &so, callee_selected(p, name));
}

/* Put a breakpoint on each call site of L whose slot the filters select
 * (see site_selected).  L's sites are read only if some slot is. */
static void place_sites(struct process *p, struct library *l,
			struct library *callee)
{
	size_t n = l->image.nslots;
	if (!n)
		return;
	bool *sel = xcalloc(n, sizeof(*sel));
	bool any = false;
	for (size_t i = 0; i < n; i++)
		any |= sel[i] = site_selected(p, l, i, callee);
	const struct elf_sites *sites = any ? library_sites(l) : NULL;
	struct batch bt = { NULL, 0, 0 };
	for (size_t i = 0; sites && i < sites->n; i++)
		if (sel[sites->v[i].slot])
			add_site(p, l, &sites->v[i], &bt);
	batch_insert(p, &bt);
	free(sel);
}

/* ---- placing ---- */

/* Put a breakpoint on each stub of L the filters select. */
static void place_selected(struct process *p, struct library *l)
{
	struct select_obj so = selector(l);
	struct batch bt = { NULL, 0, 0 };
	for (size_t i = 0; i < l->image.nplt; i++) {
		const struct plt_entry *e = &l->image.plt[i];
		if (!bpt_lookup(&p->bpts, e->addr + l->bias) &&
		    select_stub(opts, e->name, &so,
				callee_selected(p, e->name)))
			add_stub(p, l, e, &bt);
	}
	batch_insert(p, &bt);
	place_sites(p, l, NULL);
}

/* CALLEE, which -l selects, has just come: the stubs of the other objects
 * for what it exports may now be traced. */
static void place_callers(struct process *p, struct library *callee)
{
	for (struct library *l = p->libs; l; l = l->next) {
		if (l == callee)
			continue;
		struct select_obj so = selector(l);
		struct batch bt = { NULL, 0, 0 };
		for (size_t i = 0; i < l->image.nplt; i++) {
			const struct plt_entry *e = &l->image.plt[i];
			if (!bpt_lookup(&p->bpts, e->addr + l->bias) &&
			    library_exports(callee, e->name) &&
			    select_stub(opts, e->name, &so, true))
				add_stub(p, l, e, &bt);
		}
		batch_insert(p, &bt);
		place_sites(p, l, callee);
	}
}

static void push_entry(struct breakpoint *b, void *ctx)
{
	batch_push(ctx, b);
}

/* The filters are asked once per stub when its object comes, and again
 * for the stubs a new -l library exports; never per call.  -x: once per
 * function (entry.h). */
void bptmem_add(struct process *p, struct library *const *libs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct select_obj so = selector(libs[i]);
		libs[i]->callee = select_callee(opts, &so);
	}
	for (size_t i = 0; i < n; i++) {
		place_selected(p, libs[i]);
		struct batch bt = { NULL, 0, 0 };
		entry_select(p, libs[i], opts, push_entry, &bt);
		batch_insert(p, &bt);
		fast_select(p, libs[i], push_entry, &bt);
		batch_insert(p, &bt);
	}
	for (size_t i = 0; i < n; i++)
		if (libs[i]->callee)
			place_callers(p, libs[i]);
}

/* ---- objects that go ---- */

struct gone {
	struct process *p;
	const struct library *l;
	struct batch bt;
};

static void note_gone(struct breakpoint *b, void *data)
{
	struct gone *g = data;
	if (library_contains(g->l, b->addr))
		batch_push(&g->bt, b);
}

static void forget_calls(struct task *t, void *data)
{
	struct gone *g = data;
	if (t->proc && process_mem(t->proc) == g->p)
		call_forget_range(t, g->l->lo, g->l->hi);
}

void bptmem_remove(struct process *p, const struct library *l)
{
	struct gone g = { p, l, { NULL, 0, 0 } };
	bpt_foreach(&p->bpts, note_gone, &g);
	task_foreach(forget_calls, &g);
	debug_msg(DEBUG_BREAKPOINTS, "pid %d: %zu breakpoints of %s dropped",
		  (int)p->pid, g.bt.n, l->soname);
	for (size_t i = 0; i < g.bt.n; i++)
		bpt_remove(&p->bpts, g.bt.v[i]);
	free(g.bt.v);
}

/* ---- the program ---- */

/* Map the first scratch region now, while one thread runs: the system
 * calls injected later run from it, not from bytes borrowed at an IP. */
static void map_scratch(struct task *t, uint64_t near)
{
	struct arch_regs regs;
	if (tracee_get_regs(t->tid, &regs))
		return;
	scratch_cell(t, &regs, near);
	/* Reported if unexpected; nothing else to do. */
	(void)tracee_set_regs(t->tid, &regs);
}

/* The program of P, read through /proc/PID/exe, or NULL after saying
 * why not. */
static struct library *read_program(struct process *p)
{
	char file[64];
	snprintf(file, sizeof(file), "/proc/%d/exe", (int)p->pid);
	char path[PATH_MAX];
	if (procfs_exe(p->pid, path, sizeof(path)))
		snprintf(path, sizeof(path), "%s", file);
	char err[256];
	struct library *l =
		library_new(path, file, LIBRARY_MAIN, err, sizeof(err));
	if (!l) {
		error_msg("%s: %s", file, err);
		return NULL;
	}
	uint64_t entry = procfs_auxv(p->pid, AT_ENTRY);
	library_place(l, l->image.is_dyn ? entry - l->image.entry : 0);
	return l;
}

void bptmem_setup(struct task *t)
{
	struct process *p = t->proc;
	p->procmem = tracee_open_procmem(p->pid);
	if (p->procmem < 0) {
		perror_msg("opening /proc/%d/mem", (int)p->pid);
		return;
	}
	struct library *l = read_program(p);
	if (!l)
		return;
	library_append(p, l);
	bool is_static = !l->image.interp && !l->image.nplt;
	/* With -S its system calls are traced: nothing to say. */
	if (is_static && !select_has_entries(opts) && !opts->syscalls)
		error_msg("%s is statically linked: it makes no library calls "
			  "to trace (-x PATTERN traces its functions)",
			  l->path);
	if (l->image.nplt)
		map_scratch(t, l->image.plt[0].addr + l->bias);
	else if (l->image.nslots || select_has_entries(opts))
		/* it may have call sites, or -x entries */
		map_scratch(t, l->lo);
	bptmem_add(p, &l, 1);
}

struct pick {
	struct batch bt;
	unsigned which; /* BPTMEM_INSERTED | BPTMEM_LIFTED */
};

static void note_picked(struct breakpoint *b, void *data)
{
	struct pick *pk = data;
	if (((pk->which & BPTMEM_INSERTED) && b->inserted) ||
	    ((pk->which & BPTMEM_LIFTED) && bptmem_lifted(b)))
		batch_push(&pk->bt, b);
}

static int cmp_addr(const void *a, const void *b)
{
	const struct breakpoint *x = *(const struct breakpoint *const *)a;
	const struct breakpoint *y = *(const struct breakpoint *const *)b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* B's original bytes back through PROCMEM, if our breakpoint is still
 * there. */
static void restore_one(int procmem, const struct breakpoint *b)
{
	uint8_t c[sizeof(bpt_insn)];
	if (pread(procmem, c, sizeof(c), b->addr) == sizeof(c) &&
	    bptmem_is_bpt(c))
		(void)bptmem_write_orig(procmem, b);
}

/* Put back the original bytes of the N breakpoints of V, all in one
 * page, in one pwrite; one write per breakpoint if the span cannot be
 * read.  Only where our breakpoint still is: a byte the program wrote
 * since (it patched its code, or mapped a page over it) is the
 * program's, and a stale original must not land on it.  Writes fail
 * only if the process is gone. */
static void restore_run(int procmem, struct breakpoint **v, size_t n)
{
	uint8_t buf[BATCH_PAGE + BPT_INSN_MAX];
	uint64_t lo = v[0]->addr;
	size_t len = v[n - 1]->addr + sizeof(bpt_insn) - lo;
	if (pread(procmem, buf, len, lo) == (ssize_t)len) {
		for (size_t i = 0; i < n; i++) {
			uint8_t *at = buf + (v[i]->addr - lo);
			if (bptmem_is_bpt(at))
				memcpy(at, v[i]->orig, sizeof(bpt_insn));
		}
		(void)mem_write(procmem, lo, buf, len);
		return;
	}
	for (size_t i = 0; i < n; i++)
		restore_one(procmem, v[i]);
}

bool bptmem_stub_changed(const struct breakpoint *b, struct memsrc *m)
{
	uint8_t now[BPT_STUB_MAX];
	size_t n = b->stub.len > sizeof(bpt_insn) ?
			   b->stub.len - sizeof(bpt_insn) :
			   0;
	return memsrc_read(m, b->addr + sizeof(bpt_insn), now, n) != n ||
	       memcmp(now, b->stub.tail, n) != 0;
}

void bptmem_lift(struct process *p, struct breakpoint *b)
{
	debug_msg(DEBUG_BREAKPOINTS, "pid %d: stub %#lx rewritten, lifted",
		  (int)p->pid, (unsigned long)b->addr);
	(void)bptmem_write_orig(p->procmem, b);
	b->inserted = false;
}

bool bptmem_lifted(const struct breakpoint *b)
{
	return !b->inserted && !bptmem_is_bpt(b->orig);
}

void bptmem_unlift_one(struct process *p, const struct breakpoint *b)
{
	restore_one(p->procmem, b);
}

void bptmem_restore_bytes(const struct bpt_table *bpts, int procmem,
			  unsigned which)
{
	struct pick pk = { { NULL, 0, 0 }, which };
	struct batch *bt = &pk.bt;
	bpt_foreach(bpts, note_picked, &pk);
	if (bt->n)
		qsort(bt->v, bt->n, sizeof(*bt->v), cmp_addr);
	for (size_t i = 0; i < bt->n;) {
		size_t j = i + 1;
		while (j < bt->n && bt->v[j]->addr / BATCH_PAGE ==
					    bt->v[i]->addr / BATCH_PAGE)
			j++;
		restore_run(procmem, bt->v + i, j - i);
		i = j;
	}
	free(bt->v);
}
