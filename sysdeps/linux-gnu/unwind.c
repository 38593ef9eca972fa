/* Backtraces for -w: see unwind.h for the contract and the cost. */
#include "unwind.h"

#include "dwlib.h"
#include <libunwind-ptrace.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "dwregs.h"
#include "error.h"
#include "hmap.h"
#include "library.h"
#include "memsrc.h"
#include "output.h"
#include "proc.h"
#include "unwlib.h"
#include "xmalloc.h"

/* ---- one libunwind address space per process ---- */

struct space {
	const struct process *p; /* with PID: which process it serves */
	pid_t pid;
	uint64_t objects; /* objects_key() of P when the caches were filled */
	unw_addr_space_t as;
	void *upt; /* _UPT_create(PID): its find_proc_info's state */
	struct space *next;
};

static struct space *spaces;
/* libunwind, once a backtrace has loaded it. */
static const struct unwlib *U;

/* A page of stack, for the prefetch of the frames. */
#define STACK_PAGE 4096

/* The stop being unwound, for the accessors.  libunwind hands them the
 * argument of unw_init_remote, but its table search
 * (_UPT_find_proc_info, then dwarf_search_unwind_table) hands them the
 * UPT state instead: so the stop is found here.  One backtrace runs at a
 * time; outside unwind_show both are NULL. */
static struct {
	const struct arch_regs *regs;
	struct memsrc *mem;
	const struct process *p;
	struct memo *log; /* the reads are logged into it, or NULL */
} unwinding;

/* ---- the memo: the frames of a stack unwound before ----
 *
 * The unwinder is a function of the registers and the memory it reads:
 * given the same values it reads the same addresses and finds the same
 * frames.  So a backtrace keeps what it read (the registers, the words
 * outside the objects' mappings: the stack; the objects' unwind tables
 * and code do not change while their mapping is the same, objects_key),
 * and the next one at the same IP that reads the same values there
 * shows the same frames without unwinding: a loop's calls from one
 * place cost a few comparisons instead of a libunwind step (and its
 * cache lock's two system calls) per frame. */
#define MEMO_SLOTS 64
#define MEMO_READS 96
#define MEMO_REGS 17

struct memo {
	const struct process *p;
	pid_t pid;
	uint64_t objects;
	unsigned depth;
	bool ok; /* complete: no more reads than MEMO_READS */
	uint32_t regmask;
	uint64_t regs[MEMO_REGS];
	unsigned nreads;
	struct {
		uint64_t addr, val;
		bool ok;
	} reads[MEMO_READS];
	unsigned nframes;
	uint64_t *ips; /* DEPTH of them */
};

/* MEMO_SLOTS of them, 160 KiB: allocated at the first backtrace, so a
 * run without -w neither faults them in nor frees them. */
static struct memo *memos;

static const struct library *library_at(const struct process *p, uint64_t addr);

static void log_read(uint64_t addr, uint64_t val, bool ok)
{
	struct memo *m = unwinding.log;
	if (!m || library_at(unwinding.p, addr))
		return;
	if (m->nreads == MEMO_READS) {
		m->ok = false;
		return;
	}
	m->reads[m->nreads].addr = addr;
	m->reads[m->nreads].val = val;
	m->reads[m->nreads++].ok = ok;
}

static void log_reg(unsigned reg, uint64_t val)
{
	struct memo *m = unwinding.log;
	if (!m)
		return;
	if (reg >= MEMO_REGS) {
		m->ok = false;
		return;
	}
	m->regmask |= 1u << reg;
	m->regs[reg] = val;
}

/* Memory: through the memory layer only.  Writes are refused (libunwind
 * writes only for unw_set_reg, which nothing here calls). */
static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *val,
		      int write, void *arg)
{
	(void)as;
	(void)arg;
	if (write || !unwinding.mem)
		return -UNW_EINVAL;
	bool ok = memsrc_read(unwinding.mem, addr, val, sizeof(*val)) ==
		  sizeof(*val);
	log_read(addr, ok ? *val : 0, ok);
	return ok ? 0 : -UNW_EINVAL;
}

/* Registers: those of the stop, already fetched (no PTRACE_PEEKUSER). */
static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *val,
		      int write, void *arg)
{
	(void)as;
	(void)arg;
	uint64_t v;
	if (write || !unwinding.regs || reg < 0 ||
	    !arch_dwarf_reg(unwinding.regs, (unsigned)reg, &v))
		return -UNW_EBADREG;
	log_reg((unsigned)reg, v);
	*val = v;
	return 0;
}

/* Floating point registers play no part in finding frames. */
static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg, unw_fpreg_t *val,
			int write, void *arg)
{
	(void)as;
	(void)reg;
	(void)val;
	(void)write;
	(void)arg;
	return -UNW_EBADREG;
}

/* The tracee is never resumed through libunwind. */
static int resume(unw_addr_space_t as, unw_cursor_t *c, void *arg)
{
	(void)as;
	(void)c;
	(void)arg;
	return -UNW_EINVAL;
}

/* Names come from libdw (frame_name), not from unw_get_proc_name. */
static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf,
			 size_t len, unw_word_t *off, void *arg)
{
	(void)as;
	(void)addr;
	(void)buf;
	(void)len;
	(void)off;
	(void)arg;
	return -UNW_ENOINFO;
}

/* Finding an address's unwind table is libunwind's ptrace helpers' job
 * (set when libunwind is loaded): they read /proc/PID/maps and map the
 * object's file, and read the table in the tracee through access_mem.
 * ARG is the UPT state. */
static unw_accessors_t accessors = {
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

/* A key that changes when P's objects change (an exec, a dlopen, a
 * dlclose): the caches hold what was mapped where. */
static uint64_t objects_key(const struct process *p)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (const struct library *l = p->libs; l; l = l->next) {
		uint64_t v[] = { (uintptr_t)l, l->lo, l->hi, l->bias };
		for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
			h = (h ^ v[i]) * 1099511628211ULL;
	}
	return h;
}

/* Forget the spaces of processes that are gone (their struct may be
 * reused by a new one): called when a space is made, so that they are
 * bounded by the live processes. */
static void sweep_spaces(void)
{
	for (struct space **sp = &spaces; *sp;) {
		struct space *s = *sp;
		const struct process *q = process_first();
		while (q && (q != s->p || q->pid != s->pid))
			q = q->next;
		if (q) {
			sp = &s->next;
			continue;
		}
		*sp = s->next;
		U->destroy_addr_space(s->as);
		U->upt_destroy(s->upt);
		free(s);
	}
}

/* libunwind's ptrace helpers' state for process PID. */
static void *upt_new(pid_t pid)
{
	void *upt = U->upt_create(pid);
	if (!upt)
		error_msg_and_die("libunwind: out of memory");
	return upt;
}

static struct space *space_new(const struct process *p)
{
	sweep_spaces();
	struct space *s = xcalloc(1, sizeof(*s));
	s->p = p;
	s->pid = p->pid;
	s->as = U->create_addr_space(&accessors, 0);
	if (!s->as)
		error_msg_and_die("libunwind: cannot make an address space");
	U->set_caching_policy(s->as, UNW_CACHE_GLOBAL);
	s->upt = upt_new(p->pid);
	s->objects = objects_key(p);
	s->next = spaces;
	spaces = s;
	return s;
}

/* P's space, its caches dropped if P's objects changed since they were
 * filled. */
static struct space *space_of(const struct process *p)
{
	struct space *s = spaces;
	while (s && (s->p != p || s->pid != p->pid))
		s = s->next;
	if (!s)
		return space_new(p);
	uint64_t key = objects_key(p);
	if (key != s->objects) {
		U->flush_cache(s->as, 0, 0);
		U->upt_destroy(s->upt);
		s->upt = upt_new(p->pid);
		s->objects = key;
	}
	return s;
}

/* ---- names: one Dwfl per object file, kept for the run ---- */

struct object {
	Dwfl *dwfl; /* NULL when the file cannot be read */
	Dwfl_Module *mod;
	/* link-time return address -> struct place (ptr), filled at the
	 * first frame there: libdw finds a symbol by a linear scan of the
	 * symbol table (3000 in libc), too slow to repeat at every call */
	struct hmap places;
};

/* What a return address names.  The strings are the Dwfl's but the
 * symbol, a copy without its version ("__libc_start_main@@GLIBC_2.34"
 * in libc's own symbol table). */
struct place {
	char *symbol; /* or NULL */
	uint64_t offset;
	const char *file; /* or NULL */
	int line, col;
};

/* l->path (a copy, owned by the map's entry) -> struct object */
static struct hmap objects;

/* libdw's standard callbacks, set at the first Dwfl (libdw is loaded
 * then, dwlib.h). */
static Dwfl_Callbacks dwfl_callbacks;

/* A Dwfl of the one file FILE, named NAME, at its link-time addresses;
 * its module in *MOD (NULL when FILE cannot be read). */
static Dwfl *dwfl_of(const char *name, const char *file, Dwfl_Module **mod)
{
	*mod = NULL;
	dwfl_callbacks.find_debuginfo = dwfl_standard_find_debuginfo;
	dwfl_callbacks.section_address = dwfl_offline_section_address;
	Dwfl *dwfl = dwfl_begin(&dwfl_callbacks);
	if (!dwfl)
		return NULL;
	dwfl_report_begin(dwfl);
	*mod = dwfl_report_elf(dwfl, name, file, -1, 0, false);
	dwfl_report_end(dwfl, NULL, NULL);
	return dwfl;
}

/* The file L maps, reported at its link-time addresses (bias 0), so that
 * every process that maps it shares the entry: its path as mapped (where
 * a separate debug file named by .gnu_debuglink is looked for), else
 * where the tracer opens it (the program's /proc/PID/exe, when the path
 * is not reachable from here). */
static struct object *object_of(const struct library *l)
{
	struct hent *e = hmap_find(&objects, l->path, 0);
	if (e)
		return e->ptr;
	struct object *o = xcalloc(1, sizeof(*o));
	o->dwfl = dwfl_of(l->soname, l->path, &o->mod);
	if (!o->mod && strcmp(l->file, l->path)) {
		if (o->dwfl)
			dwfl_end(o->dwfl);
		o->dwfl = dwfl_of(l->soname, l->file, &o->mod);
	}
	char *key = xstrdup(l->path);
	hmap_get(&objects, key, 0)->ptr = o;
	return o;
}

/* Look up link-time address RET, a return address, in O's module: the
 * call it follows is at RET - 1, so a call that ends its function (a
 * noreturn callee) names the caller, not the next function, and the
 * line is the call's. */
static struct place *place_new(struct object *o, uint64_t ret)
{
	struct place *pl = xcalloc(1, sizeof(*pl));
	GElf_Off off = 0;
	GElf_Sym sym;
	const char *name = dwfl_module_addrinfo(o->mod, ret - 1, &off, &sym,
						NULL, NULL, NULL);
	if (name) {
		pl->symbol = xstrndup(name, strcspn(name, "@"));
		pl->offset = off + 1;
	}
	Dwfl_Line *line = dwfl_module_getsrc(o->mod, ret - 1);
	if (line)
		pl->file = dwfl_lineinfo(line, NULL, &pl->line, &pl->col, NULL,
					 NULL);
	return pl;
}

static const struct place *place_of(struct object *o, uint64_t ret)
{
	struct hent *e = hmap_get(&o->places, NULL, ret);
	if (!e->ptr)
		e->ptr = place_new(o, ret);
	return e->ptr;
}

/* The object of P that maps ADDR, or NULL. */
static const struct library *library_at(const struct process *p, uint64_t addr)
{
	for (const struct library *l = p->libs; l; l = l->next)
		if (library_contains(l, addr))
			return l;
	return NULL;
}

/* Name the frame at PC of process P into F: its object, its symbol and
 * source line.  PC is taken for a return address (the first frame's
 * too: the task stopped where a traced call returned); only the frame
 * a signal interrupted is not, and the call's line before it may then
 * be named (telling would read each frame's code: unw_is_signal_frame). */
static void frame_name(const struct process *p, uint64_t pc,
		       struct output_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->pc = pc;
	f->object = "unmapped_area"; /* as ltrace */
	const struct library *l = library_at(p, pc);
	if (!l)
		return;
	f->object = l->soname;
	struct object *o = object_of(l);
	if (!o->mod || pc - l->bias == 0)
		return;
	const struct place *pl = place_of(o, pc - l->bias);
	f->symbol = pl->symbol;
	f->offset = pl->offset;
	f->file = pl->file;
	f->line = pl->line;
	f->col = pl->col;
}

/* ---- the backtrace ---- */

/* DEPTH frames from cursor C, stepping no further than needed: each
 * step costs libunwind's cache lock (two rt_sigprocmask: Debian builds
 * it without the per-thread cache, so UNW_CACHE_PER_THREAD is the global
 * one). */
static void show_frames(struct task *t, const struct process *p,
			unw_cursor_t *c, unsigned depth, struct memo *m)
{
	for (unsigned n = 0; n < depth; n++) {
		unw_word_t ip = 0;
		if (n > 0 && U->step(c) <= 0)
			return;
		if (U->get_reg(c, UNW_REG_IP, &ip) < 0 || !ip)
			return;
		struct output_frame f;
		frame_name(p, ip, &f);
		output_frame(t->tid, &f);
		m->ips[m->nframes++] = ip;
	}
}

/* The memo slot for a backtrace at IP, DEPTH frames deep. */
static struct memo *memo_slot(uint64_t ip, unsigned depth)
{
	if (!memos)
		memos = xcalloc(MEMO_SLOTS, sizeof(*memos));
	struct memo *m = &memos[(ip * 0x9E3779B97F4A7C15ULL) >> 58];
	if (m->depth != depth) {
		free(m->ips);
		m->ips = xmalloc(depth * sizeof(*m->ips));
		m->depth = depth;
		m->ok = false;
	}
	return m;
}

/* Whether M holds the frames of the stack that REGS and MEM give in
 * process P (space S). */
static bool memo_hit(const struct memo *m, const struct process *p,
		     const struct space *s, const struct arch_regs *regs,
		     struct memsrc *mem)
{
	if (!m->ok || m->p != p || m->pid != p->pid || m->objects != s->objects)
		return false;
	for (unsigned r = 0; r < MEMO_REGS; r++) {
		uint64_t v;
		if ((m->regmask >> r & 1) &&
		    (!arch_dwarf_reg(regs, r, &v) || v != m->regs[r]))
			return false;
	}
	for (unsigned i = 0; i < m->nreads; i++) {
		uint64_t v = 0;
		bool ok = memsrc_read(mem, m->reads[i].addr, &v, sizeof(v)) ==
			  sizeof(v);
		if (ok != m->reads[i].ok || (ok && v != m->reads[i].val))
			return false;
	}
	return true;
}

static void memo_show(struct task *t, const struct process *p,
		      const struct memo *m)
{
	for (unsigned n = 0; n < m->nframes; n++) {
		struct output_frame f;
		frame_name(p, m->ips[n], &f);
		output_frame(t->tid, &f);
	}
}

/* libunwind's functions, loaded at the first backtrace; false when they
 * cannot be. */
static bool unwinder(void)
{
	if (!U && (U = unwlib_get())) {
		accessors.find_proc_info = U->find_proc_info;
		accessors.put_unwind_info = U->put_unwind_info;
		accessors.get_dyn_info_list_addr = U->get_dyn_info_list_addr;
	}
	return U != NULL;
}

void unwind_show(struct task *t, const struct arch_regs *regs,
		 struct memsrc *mem, unsigned depth)
{
	if (!unwinder()) {
		output_frames_end(t->tid);
		return;
	}
	const struct process *p = process_mem(t->proc);
	struct space *s = space_of(p);
	/* The frames of most stacks are in the two pages above the stack
	 * pointer: one gathered read for both. */
	uint64_t top[] = { arch_sp(regs), arch_sp(regs) + STACK_PAGE };
	memsrc_prefetch(mem, top, 2);
	struct memo *m = memo_slot(arch_ip(regs), depth);
	if (memo_hit(m, p, s, regs, mem)) {
		memo_show(t, p, m);
		output_frames_end(t->tid);
		return;
	}
	*m = (struct memo){ .p = p,
			    .pid = p->pid,
			    .objects = s->objects,
			    .depth = depth,
			    .ok = true,
			    .ips = m->ips };
	unwinding.regs = regs;
	unwinding.mem = mem;
	unwinding.p = p;
	unwinding.log = m;
	unw_cursor_t c;
	if (U->init_remote(&c, s->as, s->upt) == 0)
		show_frames(t, p, &c, depth, m);
	else
		m->ok = false;
	unwinding.regs = NULL;
	unwinding.mem = NULL;
	unwinding.log = NULL;
	output_frames_end(t->tid);
}

void unwind_free_all(void)
{
	while (spaces) {
		struct space *s = spaces;
		spaces = s->next;
		U->destroy_addr_space(s->as);
		U->upt_destroy(s->upt);
		free(s);
	}
	for (struct hent *e = NULL; (e = hmap_next(&objects, e));) {
		struct object *o = e->ptr;
		for (struct hent *pe = NULL;
		     (pe = hmap_next(&o->places, pe));) {
			struct place *pl = pe->ptr;
			free(pl->symbol);
			free(pl);
		}
		hmap_destroy(&o->places);
		if (o->dwfl)
			dwfl_end(o->dwfl);
		free(o);
		free((char *)e->skey);
	}
	hmap_destroy(&objects);
	memset(&objects, 0, sizeof(objects));
	for (size_t i = 0; memos && i < MEMO_SLOTS; i++)
		free(memos[i].ips);
	free(memos);
	memos = NULL;
}
