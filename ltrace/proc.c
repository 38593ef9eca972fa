#include "proc.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calltext.h"
#include "xmalloc.h"

#define TASK_BUCKETS 1024

static struct process *processes;
static struct task *task_hash[TASK_BUCKETS];
static size_t ntasks;

struct process *process_new(pid_t pid)
{
	struct process *p = xcalloc(1, sizeof(*p));
	p->pid = pid;
	p->memfd = -1;
	bpt_table_init(&p->bpts);
	p->next = processes;
	processes = p;
	return p;
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
	if (p->memfd >= 0)
		close(p->memfd);
	bpt_table_destroy(&p->bpts);
	process_clear_libs(p);
	elf_image_destroy(&p->image);
	free(p->scratch);
	free(p);
}

struct process *process_mem(struct process *p)
{
	return p->vfork_parent ? p->vfork_parent : p;
}

void process_clear_libs(struct process *p)
{
	for (size_t i = 0; i < p->nlibs; i++) {
		free(p->lib_paths[i]);
		free(p->lib_names[i]);
	}
	free(p->lib_paths);
	free(p->lib_names);
	p->lib_paths = p->lib_names = NULL;
	p->nlibs = 0;
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
	t->hnext = task_hash[tid % TASK_BUCKETS];
	task_hash[tid % TASK_BUCKETS] = t;
	ntasks++;
	return t;
}

void task_free(struct task *t)
{
	struct task **pp = &task_hash[t->tid % TASK_BUCKETS];
	while (*pp != t)
		pp = &(*pp)->hnext;
	*pp = t->hnext;
	task_pop_frames(t, 0);
	free(t->frames);
	if (t->proc)
		t->proc->ntasks--;
	ntasks--;
	free(t);
}

struct task *task_lookup(pid_t tid)
{
	struct task *t = task_hash[tid % TASK_BUCKETS];
	while (t && t->tid != tid)
		t = t->hnext;
	return t;
}

size_t task_count(void)
{
	return ntasks;
}

void task_foreach(void (*fn)(struct task *t, void *data), void *data)
{
	for (size_t i = 0; i < TASK_BUCKETS; i++) {
		struct task *t = task_hash[i];
		while (t) {
			struct task *next = t->hnext;
			fn(t, data);
			t = next;
		}
	}
}

struct frame *task_push_frame(struct task *t)
{
	if (t->nframes == t->capframes) {
		t->capframes = t->capframes ? 2 * t->capframes : 16;
		t->frames = xreallocarray(t->frames, t->capframes,
					  sizeof(*t->frames));
	}
	struct frame *f = &t->frames[t->nframes++];
	memset(f, 0, sizeof(*f));
	return f;
}

void task_pop_frames(struct task *t, size_t i)
{
	while (t->nframes > i) {
		struct frame *f = &t->frames[--t->nframes];
		if (f->ct)
			calltext_free(f->ct);
	}
}
