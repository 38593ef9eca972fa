#include "calls.h"

#include <stddef.h>

#include "bpt.h"
#include "callfmt.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "strbuf.h"

static struct fmtopts fmt;
static unsigned long next_id;
static struct strbuf sb_args, sb_more, sb_ret;

void calls_init(const struct options *o)
{
	fmt.strlen = o->strlen;
	fmt.arraylen = o->arraylen;
	strbuf_init(&sb_args);
	strbuf_init(&sb_more);
	strbuf_init(&sb_ret);
}

void call_entry(struct task *t, const struct breakpoint *b,
		struct callsite *cs, uint64_t ret, uint64_t sp, bool print)
{
	struct frame *f = task_push_frame(t);
	f->ret = ret;
	f->sp = sp;
	f->plt = b;
	f->id = ++next_id;
	if (!print)
		return;
	strbuf_reset(&sb_args);
	f->cf = callfmt_entry(&fmt, b->proto, cs, &sb_args);
	f->had_args = sb_args.len > 0;
	out_call_entry(t->tid, f->id, b->name, sb_args.s);
}

void call_return(struct task *t, size_t i, struct callsite *cs, bool print)
{
	struct frame *f = &t->frames[i];
	if (print && f->cf) {
		strbuf_reset(&sb_more);
		strbuf_reset(&sb_ret);
		/* callfmt_return releases the state. */
		callfmt_return(f->cf, cs, &sb_more, &sb_ret);
		f->cf = NULL;
		out_call_return(t->tid, f->id, f->plt->name, f->had_args,
				sb_more.s, sb_ret.s);
	}
	task_pop_frames(t, i);
}

/* A return pops the return address: SP is then 8 above its slot.  Scan
 * from the innermost call: recursion through one call site gives several
 * frames with the same return address and different stack pointers. */
long call_match(const struct task *t, uint64_t ret, uint64_t sp)
{
	for (size_t i = t->nframes; i-- > 0;) {
		const struct frame *f = &t->frames[i];
		if (f->ret == ret && f->sp + sizeof(uint64_t) == sp)
			return (long)i;
	}
	return -1;
}
