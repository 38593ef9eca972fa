/* A thread's errno: its thread pointer plus libc's TLS offset of it
 * (errnoloc.h). */
#include "errnoloc.h"

#include "library.h"
#include "memsrc.h"
#include "proc.h"

bool errnoloc_tpoff(struct process *p, struct memsrc *m, int64_t *off)
{
	p = process_mem(p);
	if (p->errno_known) {
		*off = p->errno_tpoff;
		return true;
	}
	for (const struct library *l = p->libs; l; l = l->next) {
		uint64_t v = 0;
		if (!l->image.errno_got ||
		    memsrc_read(m, l->bias + l->image.errno_got, &v,
				sizeof(v)) != sizeof(v))
			continue;
		/* 0 is no thread's errno: the slot is not relocated yet */
		if (!v)
			return false;
		p->errno_tpoff = (int64_t)v;
		p->errno_known = true;
		*off = p->errno_tpoff;
		return true;
	}
	return false;
}

bool errnoloc_read(struct task *t, const struct arch_regs *regs,
		   struct memsrc *m, int *out)
{
	int64_t off;
	uint64_t tp;
	if (!errnoloc_tpoff(t->proc, m, &off) ||
	    !arch_thread_pointer(t->tid, regs, &tp))
		return false;
	return memsrc_read(m, tp + (uint64_t)off, out, sizeof(*out)) ==
	       sizeof(*out);
}
