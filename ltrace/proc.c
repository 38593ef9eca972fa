#include "proc.h"

#include <stdlib.h>
#include <unistd.h>

#include "hmap.h"
#include "library.h"
#include "xmalloc.h"

static struct process *processes;
/* Tid -> struct task: looked up at every stop and every --fast record. */
static struct hmap tasks;
/* The task task_lookup found last: the next lookup is nearly always of
 * the same one.  Forgotten when any task is made or freed. */
static struct task *last_found;

struct process *process_new(pid_t pid)
{
	struct process *p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->procmem = -1;
	bpt_table_init(&p->bpts);
	p->next = processes;
	processes = p;
	return p;
}

void process_reset_exec(struct process *p)
{
	library_clear(p);
	p->r_debug = 0;
	p->r_brk = 0;
	bpt_table_destroy(&p->bpts);
	bpt_table_init(&p->bpts);
	if (p->procmem >= 0)
		close(p->procmem);
	p->procmem = -1;
	free(p->scratch);
	p->scratch = NULL;
	free(p->fast);
	p->fast = NULL;
	p->nscratch = 0;
	p->syscall_insn = 0;
	p->errno_known = false;
}

void process_free(struct process *p)
{
	for (struct process **pp = &processes; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	for (struct process *q = processes; q; q = q->next)
		if (q->vfork_parent == p)
			q->vfork_parent = NULL;
	process_reset_exec(p);
	free(p);
}

struct process *process_first(void)
{
	return processes;
}

struct task *task_new(pid_t tid, struct process *p)
{
	struct task *t = xcalloc(1, sizeof(*t));
	t->tid = tid;
	t->proc = p;
	if (p)
		p->ntasks++;
	hmap_get(&tasks, NULL, (uint64_t)tid)->ptr = t;
	last_found = NULL;
	return t;
}

void task_free(struct task *t)
{
	hmap_remove(&tasks, hmap_find(&tasks, NULL, (uint64_t)t->tid));
	last_found = NULL;
	task_free_frames(t);
	if (t->proc)
		t->proc->ntasks--;
	free(t);
}

struct task *task_lookup(pid_t tid)
{
	if (last_found && last_found->tid == tid)
		return last_found;
	struct hent *e = hmap_find(&tasks, NULL, (uint64_t)tid);
	last_found = e ? e->ptr : NULL;
	return last_found;
}

void task_drop(struct task *t)
{
	struct process *p = t->proc;
	task_free(t);
	if (p && p->ntasks == 0)
		process_free(p);
}

size_t task_count(void)
{
	return tasks.n;
}

/* FN may free its task, which moves entries of the map: it is called on
 * a copy of the list. */
void task_foreach(void (*fn)(struct task *t, void *data), void *data)
{
	size_t n = 0;
	struct task **all = xmalloc((tasks.n + 1) * sizeof(*all));
	for (struct hent *e = NULL; (e = hmap_next(&tasks, e));)
		all[n++] = e->ptr;
	for (size_t i = 0; i < n; i++)
		fn(all[i], data);
	free(all);
}
