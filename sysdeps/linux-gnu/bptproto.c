#include "bptproto.h"

#include <stdlib.h>

#include "bpt.h"
#include "dwarfproto.h"
#include "library.h"
#include "proc.h"
#include "protoset.h"
#include "xmalloc.h"

static struct protoset *protos;
static struct dwarf_protos *dwarf;

void bptproto_init(struct protoset *ps, struct dwarf_protos *d)
{
	protos = ps;
	dwarf = d;
}

/* The prototype files of P's objects, in load order. */
static const struct prototype *lookup_conf(struct process *p, const char *name)
{
	size_t n = library_count(p);
	const char **sonames = xreallocarray(NULL, n + 1, sizeof(*sonames));
	size_t i = 0;
	for (const struct library *l = p->libs; l; l = l->next)
		sonames[i++] = l->soname;
	const struct prototype *pr = protoset_lookup(protos, name, sonames, n);
	free(sonames);
	return pr;
}

/* Prototype files first; then the DWARF of the loaded objects: the
 * libraries, which define what the program calls, before the program,
 * whose DWARF only declares it.  Objects in load order. */
static const struct prototype *lookup_in(struct process *p, const char *name)
{
	const struct prototype *pr = lookup_conf(p, name);
	const struct library *prog = library_main(p);
	for (const struct library *l = p->libs; l && !pr; l = l->next)
		if (l != prog)
			pr = dwarf_lookup(dwarf, l->path, name);
	if (!pr && prog)
		pr = dwarf_lookup(dwarf, prog->path, name);
	return pr;
}

/* An entry's (-x): the files that describe its object (-F, the object's
 * own SONAME.conf); then the DWARF of that object at its address (a
 * static function too), which describes this very function where a
 * global file may describe another of the same name (a program's own
 * static dup() is not libc's); then by its name, as a stub's. */
static const struct prototype *lookup_entry(struct process *p,
					    const struct breakpoint *b)
{
	const struct library *l = p->libs;
	while (l && !library_contains(l, b->addr))
		l = l->next;
	const struct prototype *pr =
		l ? protoset_lookup_own(protos, b->call.name, l->soname) : NULL;
	if (!pr && l)
		pr = dwarf_lookup_at(dwarf, l->path, b->addr - l->bias,
				     b->call.name);
	return pr ? pr : lookup_in(p, b->call.name);
}

/* Looked up at the first call: the objects the function may come from
 * are loaded by then (the rendezvous reports them before their code
 * runs). */
const struct prototype *bptproto_resolve(struct task *t, struct breakpoint *b)
{
	struct process *p = process_mem(t->proc);
	if (!b->call.proto_done) {
		b->call.proto = b->kind == BPT_ENTRY ?
					lookup_entry(p, b) :
					lookup_in(p, b->call.name);
		b->call.proto_done = true;
	}
	return b->call.proto;
}
