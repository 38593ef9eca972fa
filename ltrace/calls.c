#include "calls.h"

#include <stddef.h>
#include <string.h>

#include "bpt.h"
#include "callsite.h"
#include "calltext.h"
#include "lens.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "strbuf.h"

static struct lens_limits limits;
static unsigned long next_id;
static struct strbuf sb_args, sb_more, sb_ret;

void calls_init(const struct options *o)
{
	limits.strlen = o->strlen;
	limits.arraylen = o->arraylen;
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

void call_entry(struct task *t, const struct breakpoint *b, struct callsite *cs,
		uint64_t ret, uint64_t ret_sp, bool print)
{
	drop_unwound(t, ret_sp);
	struct frame *f = task_push_frame(t);
	f->ret = ret;
	f->ret_sp = ret_sp;
	f->plt = b;
	f->id = ++next_id;
	if (!print)
		return;
	strbuf_reset(&sb_args);
	f->ct = calltext_entry(&limits, b->proto, cs, &sb_args);
	f->had_args = sb_args.len > 0;
	output_call_entry(t->tid, f->id, b->label, sb_args.s);
}

/* " ENOENT (No such file or directory)" after a failed system call's
 * value; the codes of a syscall interrupted by a signal, which only a
 * tracer sees (the kernel's include/linux/errno.h), as strace names
 * them. */
static void add_error(struct strbuf *sb, int e)
{
	static const char *const restart[][2] = {
		{ "ERESTARTSYS", "To be restarted if SA_RESTART is set" },
		{ "ERESTARTNOINTR", "To be restarted" },
		{ "ERESTARTNOHAND", "To be restarted if no handler" },
		{ "ENOIOCTLCMD", "No ioctl command" },
		{ "ERESTART_RESTARTBLOCK", "Interrupted by signal" },
	};
	const char *name = strerrorname_np(e);
	if (name)
		strbuf_addf(sb, " %s (%s)", name, strerror(e));
	else if (e >= 512 && e < 512 + 5)
		strbuf_addf(sb, " %s (%s)", restart[e - 512][0],
			    restart[e - 512][1]);
}

bool call_return(struct task *t, size_t i, struct callsite *cs, bool print)
{
	struct frame *f = &t->frames[i];
	bool shown = false;
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
		if (cs->error)
			add_error(&sb_ret, cs->error);
		const struct breakpoint *b = f->plt;
		output_call_return(t->tid, f->id,
				   b->resumed ? b->resumed :
						b->label + b->label_callee,
				   f->had_args, sb_more.s, sb_ret.s);
		shown = true;
	}
	task_pop_frames(t, i);
	return shown;
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
