#include "calls.h"

#include <stddef.h>

#include "bpt.h"
#include "calltext.h"
#include "lens.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "strbuf.h"
#include "summary.h"

static struct lens_limits limits;
static bool summary; /* -c: calls are counted, not shown */
static unsigned long next_id;
static struct strbuf sb_args, sb_more, sb_ret;

void calls_init(const struct options *o)
{
	limits.strlen = o->strlen;
	limits.arraylen = o->arraylen;
	summary = o->summary;
	strbuf_init(&sb_args);
	strbuf_init(&sb_more);
	strbuf_init(&sb_ret);
}

/* How far apart two stack pointers may be and still be on one stack: a
 * handler on a sigaltstack elsewhere must not look like an unwinding. */
#define SAME_STACK (8UL << 20)

/* A new call returning with the stack pointer at RET_SP: pending calls
 * that would return at or below it have been unwound (longjmp, a C++
 * exception, a thread that abandoned them), since stacks grow down and a
 * live call returns above every later call. */
static void drop_unwound(struct task *t, uint64_t ret_sp)
{
	size_t n = t->nframes;
	while (n > 0 && t->frames[n - 1].ret_sp <= ret_sp &&
	       ret_sp - t->frames[n - 1].ret_sp < SAME_STACK)
		n--;
	task_pop_frames(t, n);
}

/* What the writer needs of T's pending call at index I. */
static struct output_call out_call(const struct task *t, size_t i)
{
	const struct frame *f = &t->frames[i];
	return (struct output_call){
		.tid = t->tid,
		.id = f->id,
		.ret = f->ret,
		.depth = i,
		.t_entry = f->t_entry,
	};
}

void call_entry(struct task *t, const struct breakpoint *b, struct callsite *cs,
		uint64_t ret, uint64_t ret_sp, bool print)
{
	drop_unwound(t, ret_sp);
	struct frame *f = task_push_frame(t);
	f->ret = ret;
	f->ret_sp = ret_sp;
	f->plt = b;
	f->id = ++next_id;
	f->t_entry = output_now();
	if (!print || summary)
		return;
	strbuf_reset(&sb_args);
	f->ct = calltext_entry(&limits, b->proto, cs, &sb_args);
	f->had_args = sb_args.len > 0;
	struct output_call oc = out_call(t, t->nframes - 1);
	output_call_entry(&oc, b->label, sb_args.s);
}

/* The name "<... name resumed>" shows for B's call. */
static const char *resumed_name(const struct breakpoint *b)
{
	return b->resumed ? b->resumed : b->label + b->label_callee;
}

void call_return(struct task *t, size_t i, struct callsite *cs, bool print)
{
	struct frame *f = &t->frames[i];
	if (print && summary) {
		summary_account(resumed_name(f->plt),
				output_now() - f->t_entry);
		task_pop_frames(t, i);
		return;
	}
	if (print && !f->ct && f->inherited) {
		/* Its arguments were shown by the parent: only the return
		 * value matters, so the state is built from the return. */
		strbuf_reset(&sb_args);
		f->ct = calltext_entry(&limits, f->plt->proto, cs, &sb_args);
		f->had_args = false;
	}
	if (print && f->ct) {
		strbuf_reset(&sb_more);
		strbuf_reset(&sb_ret);
		/* calltext_return releases the state. */
		calltext_return(f->ct, cs, &sb_more, &sb_ret);
		f->ct = NULL;
		struct output_call oc = out_call(t, i);
		output_call_return(&oc, resumed_name(f->plt), f->had_args,
				   sb_more.s, sb_ret.s);
	}
	task_pop_frames(t, i);
}

/* Scan from the innermost call: recursion through one call site gives
 * several frames with the same return address and different stack
 * pointers. */
long call_match(const struct task *t, uint64_t ret, uint64_t sp)
{
	for (size_t i = t->nframes; i-- > 0;) {
		const struct frame *f = &t->frames[i];
		if (f->ret == ret && f->ret_sp == sp)
			return (long)i;
	}
	return -1;
}

void call_inherit(struct task *child, const struct task *parent,
		  const struct bpt_table *bpts)
{
	for (size_t i = 0; i < parent->nframes; i++) {
		const struct frame *pf = &parent->frames[i];
		const struct breakpoint *b = bpt_lookup(bpts, pf->plt->addr);
		if (!b)
			continue;
		struct frame *f = task_push_frame(child);
		*f = *pf;
		f->plt = b;
		f->ct = NULL;
		f->inherited = true;
		f->id = ++next_id;
	}
}

static bool in_range(uint64_t a, uint64_t lo, uint64_t hi)
{
	return a >= lo && a < hi;
}

void call_forget_range(struct task *t, uint64_t lo, uint64_t hi)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nframes; i++) {
		struct frame *f = &t->frames[i];
		if (in_range(f->ret, lo, hi) ||
		    in_range(f->plt->addr, lo, hi)) {
			if (f->ct)
				calltext_free(f->ct);
			continue;
		}
		t->frames[n++] = *f;
	}
	t->nframes = n;
}
