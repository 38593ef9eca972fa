/* The dynamic linker's rendezvous (<link.h>, the SVR4 debugger
 * interface): the dynamic linker keeps a struct r_debug whose r_map
 * lists the loaded objects (struct link_map: l_addr, the load bias;
 * l_name, the path; l_next) and calls its function r_brk
 * (_dl_debug_state in glibc) before and after every change, with r_state
 * RT_ADD or RT_DELETE before, RT_CONSISTENT after.
 *
 * A breakpoint on r_brk (BPT_RENDEZVOUS, its instruction run displaced
 * like a return breakpoint's) tells the tracer of each change: at each
 * hit with RT_CONSISTENT, r_map is walked and compared with the known
 * objects.  New ones are read and get their stub breakpoints before any
 * of their code runs (the first such hit comes after the dynamic linker
 * has mapped the DT_NEEDED libraries, before their initialisers); gone
 * ones lose theirs, without a write, as their memory is unmapped.
 *
 * Where r_brk is: at an exec, the dynamic linker has not run yet, so its
 * own exports say (_dl_debug_state and _r_debug, at AT_BASE, its load
 * bias); after an attach, the program's DT_DEBUG (in its dynamic section
 * in memory) points at r_debug, whose r_brk is set. */
#include "rtld.h"

#include <elf.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "bpt.h"
#include "entry.h"
#include "debug.h"
#include "error.h"
#include "bptmem.h"
#include "library.h"
#include "mem.h"
#include "memsrc.h"
#include "proc.h"
#include "procfs.h"
#include "retbp.h"
#include "tracee.h"
#include "xmalloc.h"

/* Bounds on what tracee memory may claim. */
#define MAX_OBJECTS 65536
#define MAX_DYNAMIC 4096

/* ---- finding the rendezvous ---- */

/* The r_debug that the program's DT_DEBUG points at, or 0. */
static uint64_t find_dt_debug(struct process *p, struct memsrc *m)
{
	const struct library *l = library_main(p);
	if (!l || !l->image.dynamic)
		return 0;
	uint64_t at = l->image.dynamic + l->bias;
	for (size_t i = 0; i < MAX_DYNAMIC; i++, at += sizeof(Elf64_Dyn)) {
		Elf64_Dyn d;
		if (memsrc_read(m, at, &d, sizeof(d)) != sizeof(d) ||
		    d.d_tag == DT_NULL)
			return 0;
		if (d.d_tag == DT_DEBUG)
			return d.d_un.d_ptr;
	}
	return 0;
}

/* Read P's r_debug into *RD; false if it is not known or unreadable. */
static bool read_r_debug(struct process *p, struct memsrc *m,
			 struct r_debug *rd)
{
	if (!p->r_debug)
		p->r_debug = find_dt_debug(p, m);
	return p->r_debug &&
	       memsrc_read(m, p->r_debug, rd, sizeof(*rd)) == sizeof(*rd);
}

/* Put the rendezvous breakpoint on AT. */
static void arm(struct task *t, struct memsrc *m, uint64_t at)
{
	struct process *p = process_mem(t->proc);
	struct arch_regs regs;
	if (!at || bpt_lookup(&p->bpts, at) || tracee_get_regs(t->tid, &regs))
		return;
	p->r_brk = at;
	retbp_arm(t, m, &regs, bpt_add(&p->bpts, at, BPT_RENDEZVOUS));
	/* Scratch memory may have been mapped by a system call run in T;
	 * a failure is reported unless T is gone. */
	(void)tracee_set_regs(t->tid, &regs);
}

/* ---- comparing r_map with the known objects ---- */

/* One entry of r_map. */
struct lm {
	uint64_t at;   /* the struct link_map */
	uint64_t bias; /* l_addr */
	char *name;    /* l_name, owned */
};

/* Read the link_map at AT into *E; false at the end of a readable list. */
static bool read_lm(struct memsrc *m, uint64_t at, struct lm *e, uint64_t *next)
{
	struct link_map lm;
	if (memsrc_read(m, at, &lm, sizeof(lm)) != sizeof(lm))
		return false;
	char name[PATH_MAX];
	size_t n = 0;
	if (lm.l_name)
		n = memsrc_read(m, (uint64_t)lm.l_name, name, sizeof(name));
	e->at = at;
	e->bias = lm.l_addr;
	e->name = memchr(name, '\0', n) ? xstrdup(name) : NULL;
	*next = (uint64_t)lm.l_next;
	return true;
}

/* The entries of r_map from the first at FIRST, program first; *N set.
 * Entries without a file (the program's, linux-vdso's) have no '/' in
 * their name, or no name. */
static struct lm *walk(struct memsrc *m, uint64_t first, size_t *n)
{
	struct lm *v = NULL;
	size_t cap = 0;
	*n = 0;
	for (uint64_t at = first; at && *n < MAX_OBJECTS;) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 32;
			v = xreallocarray(v, cap, sizeof(*v));
		}
		if (!read_lm(m, at, &v[*n], &at))
			break;
		(*n)++;
	}
	return v;
}

static bool has_file(const struct lm *e)
{
	return e->name && strchr(e->name, '/');
}

/* The known library that E describes, unlinked from P; NULL if new. */
static struct library *take_known(struct process *p, const struct lm *e)
{
	for (struct library *l = p->libs; l; l = l->next) {
		if (!l->is_main && l->lmap == e->at && l->bias == e->bias) {
			library_unlink(p, l);
			return l;
		}
	}
	return NULL;
}

/* A new library for E, or NULL if its file cannot be read.  A relative
 * l_name is relative to the tracee's working directory. */
static struct library *open_new(struct process *p, const struct lm *e)
{
	char file[PATH_MAX];
	char path[PATH_MAX];
	const char *name = e->name;
	if (name[0] != '/') {
		snprintf(file, sizeof(file), "/proc/%d/cwd/%s", (int)p->pid,
			 name);
		name = realpath(file, path) ? path : file;
	}
	char err[256];
	struct library *l = library_new(name, name, bptmem_library_flags(), err,
					sizeof(err));
	if (!l)
		return NULL;
	library_place(l, e->bias);
	l->lmap = e->at;
	return l;
}

/* What a walk changed: the objects in r_map order, and the new ones. */
struct sync {
	struct library **order;
	size_t norder;
	struct library **fresh;
	size_t nfresh;
};

static void classify(struct process *p, struct lm *v, size_t n, struct sync *s)
{
	s->order = xreallocarray(NULL, n + 1, sizeof(*s->order));
	s->fresh = xreallocarray(NULL, n + 1, sizeof(*s->fresh));
	for (size_t i = 0; i < n; i++) {
		if (!has_file(&v[i]))
			continue;
		struct library *l = take_known(p, &v[i]);
		if (!l && (l = open_new(p, &v[i])))
			s->fresh[s->nfresh++] = l;
		if (l)
			s->order[s->norder++] = l;
	}
}

/* The libraries still in P's list after classify are gone. */
static void drop_gone(struct process *p)
{
	struct library *l = library_main(p) ? p->libs->next : p->libs;
	while (l) {
		struct library *next = l->next;
		debug_msg(DEBUG_LIBRARIES, "pid %d: %s gone", (int)p->pid,
			  l->path);
		bptmem_remove(p, l);
		library_unlink(p, l);
		library_free(l);
		l = next;
	}
}

/* Make P's objects those of r_map from FIRST, in its order. */
static void sync_objects(struct process *p, struct memsrc *m, uint64_t first)
{
	size_t n = 0;
	struct lm *v = walk(m, first, &n);
	struct sync s = { NULL, 0, NULL, 0 };
	classify(p, v, n, &s);
	drop_gone(p);
	for (size_t i = 0; i < s.norder; i++)
		library_append(p, s.order[i]);
	for (size_t i = 0; i < s.nfresh; i++)
		debug_msg(DEBUG_LIBRARIES, "pid %d: %s at %#lx", (int)p->pid,
			  s.fresh[i]->path, (unsigned long)s.fresh[i]->bias);
	bptmem_add(p, s.fresh, s.nfresh);
	/* The dynamic linker has relocated them by now (it reports the
	 * objects before their initialisers run, after their relocation). */
	entry_find_impls(p, m);
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(s.order);
	free(s.fresh);
}

/* ---- the backend's entry points ---- */

void rtld_hit(struct task *t, struct breakpoint *b, struct arch_regs *regs,
	      struct memsrc *m)
{
	struct process *p = process_mem(t->proc);
	struct r_debug rd;
	if (read_r_debug(p, m, &rd) && rd.r_state == RT_CONSISTENT)
		sync_objects(p, m, (uint64_t)rd.r_map);
	retbp_run_displaced(t, b, regs);
}

/* Where the interpreter of P (mapped at BASE, its load bias) has its
 * r_brk and its r_debug; false if it does not say. */
static bool interp_rendezvous(struct process *p, const char *interp,
			      uint64_t base, uint64_t *brk)
{
	struct elf_exports ex;
	if (elf_exports_read(&ex, interp))
		return false;
	const struct elf_export *st = elf_exports_find(&ex, "_dl_debug_state");
	const struct elf_export *rd = elf_exports_find(&ex, "_r_debug");
	*brk = st ? st->addr + base : 0;
	p->r_debug = rd ? rd->addr + base : 0;
	elf_exports_destroy(&ex);
	return st != NULL;
}

void rtld_setup_exec(struct task *t)
{
	struct process *p = t->proc;
	const struct library *l = library_main(p);
	if (!l || !l->image.interp || p->procmem < 0)
		return; /* static: no dynamic linker, no libraries */
	uint64_t base = procfs_auxv(p->pid, AT_BASE);
	uint64_t brk = 0;
	if (!base || !interp_rendezvous(p, l->image.interp, base, &brk)) {
		error_msg("pid %d: cannot find the rendezvous of %s: libraries "
			  "will not be traced",
			  (int)p->pid, l->image.interp);
		return;
	}
	arm(t, mem_bind(p->pid, p->procmem), brk);
}

void rtld_setup_attach(struct task *t)
{
	struct process *p = t->proc;
	if (p->procmem < 0)
		return;
	struct memsrc *m = mem_bind(p->pid, p->procmem);
	struct r_debug rd;
	if (!read_r_debug(p, m, &rd)) {
		/* static, or nothing loaded by a dynamic linker: the
		 * program's resolvers have run */
		entry_find_impls(p, m);
		return;
	}
	if (rd.r_state == RT_CONSISTENT)
		sync_objects(p, m, (uint64_t)rd.r_map);
	arm(t, m, (uint64_t)rd.r_brk);
}
