#include "calls.h"

#include <stddef.h>
#include <string.h>

#include "bpt.h"
#include "callsite.h"
#include "calltext.h"
#include "errcond.h"
#include "jsonout.h"
#include "lens.h"
#include "library.h"
#include "memsrc.h"
#include "options.h"
#include "output.h"
#include "proc.h"
#include "strbuf.h"
#include "summary.h"

static struct lens_limits limits;
static bool summary;	/* -c: calls are counted, not shown */
static bool structured; /* --format: a call is shown whole at its end */
static unsigned long next_id;
static struct strbuf sb_args, sb_more, sb_ret;
static struct arg_spans spans; /* --format: the arguments in sb_args */

void calls_init(const struct options *o)
{
	limits.strlen = o->strlen;
	limits.arraylen = o->arraylen;
	limits.fds = o->decode_fds;
	summary = o->summary;
	structured = !o->summary && o->format != FORMAT_TEXT;
	strbuf_init(&sb_args);
	strbuf_init(&sb_more);
	strbuf_init(&sb_ret);
}

/* Pending calls of one task that keep their state (their fetched
 * arguments, about 1 KiB each) for the return: deeper ones (100000
 * nested calls through a callback) keep their frame (about 80 bytes)
 * and show only their return value, without out-parameters, so the
 * tracer's memory stays bounded (DESIGN.md, "Errors"). */
#define CALLS_MAX_TEXTS 4096

/* Pending calls of one task at most.  Past it the oldest half are
 * dropped at once (the others moved down and indexed anew: a frame
 * moved per call, on average), and the trace says so once, until the
 * task is back under a quarter of the depth: a program
 * whose calls never return (a callback that longjmps out, records
 * written into --fast's ring) no longer grows the tracer without end.
 * An honest program does not get there: an 8 MiB stack (the default
 * RLIMIT_STACK and thread stack) holds 131072 levels of 64 bytes, less
 * than one level of recursion through a library function and a
 * callback takes (two return addresses, the library's saved registers,
 * the callback's frame); 100000 such levels are all shown
 * (hostile_tracee_deep).  At the cap a task's frames take about 9 MiB. */
#define CALLS_MAX_FRAMES (1 << 17)

/* How far apart two stack pointers may be and still be on one stack: a
 * handler on a sigaltstack elsewhere must not look like an unwinding. */
#define SAME_STACK (8UL << 20)

/* A new call returning with the stack pointer at RET_SP: pending calls
 * that would return at or below it have been unwound (longjmp, a C++
 * exception, a thread that abandoned them), since stacks grow down and a
 * live call returns above every later call. */
size_t call_unwound(const struct task *t, uint64_t ret_sp)
{
	size_t n = t->nframes;
	while (n > 0 && t->frames[n - 1].ret_sp <= ret_sp &&
	       ret_sp - t->frames[n - 1].ret_sp < SAME_STACK)
		n--;
	return n;
}

/* A frame that returns to RET with the stack pointer at RET_SP. */
static bool returns_at(const struct frame *f, uint64_t ret, uint64_t ret_sp)
{
	return f->ret == ret && f->ret_sp == ret_sp;
}

/* A tail call (the caller's last instruction a jump to it) leaves the
 * caller's return address where it was: the callee returns for both.
 * Only the innermost pending call can have made it, every call it made
 * before having returned. */
bool call_tail(const struct task *t, uint64_t ret, uint64_t ret_sp)
{
	return t->nframes &&
	       returns_at(&t->frames[t->nframes - 1], ret, ret_sp);
}

long call_tail_caller(const struct task *t, size_t i, uint64_t ret, uint64_t sp)
{
	if (i == 0 || i > t->nframes || !returns_at(&t->frames[i - 1], ret, sp))
		return -1;
	return (long)i - 1;
}

static void drop_unwound(struct task *t, uint64_t ret, uint64_t ret_sp)
{
	if (!call_tail(t, ret, ret_sp))
		call_abandon(t, call_unwound(t, ret_sp));
}

/* The name "<... name resumed>" shows for B's call. */
static const char *resumed_name(const struct breakpoint *b)
{
	if (b->kind == BPT_ENTRY && b->entry.resumed)
		return b->entry.resumed;
	return b->call.label + b->call.label_callee;
}

/* ---- --format: a call shown whole ---- */

/* The soname of T's object that holds ADDR, or NULL. */
static const char *object_at(const struct task *t, uint64_t addr)
{
	for (const struct library *l = process_mem(t->proc)->libs; l;
	     l = l->next)
		if (library_contains(l, addr))
			return l->soname;
	return NULL;
}

/* What B's GOT slot holds at stop CS, 0 if unknown (an entry has
 * none).  At a stub's entry the slot's page was read already. */
static uint64_t got_target(const struct breakpoint *b, struct callsite *cs)
{
	uint64_t target = 0;
	if (b->kind != BPT_ENTRY && cs && cs->target)
		return cs->target;
	if (b->kind == BPT_ENTRY || !b->call.got || !cs ||
	    memsrc_read(cs->mem, b->call.got, &target, sizeof(target)) !=
		    sizeof(target))
		return 0;
	return target;
}

/* The object of the function T's call F went to: an entry's own; else
 * its GOT slot's target, as read at the entry, or at this stop CS when
 * the slot then still led back into the caller's object (lazy binding:
 * bound by the return). */
static const char *callee_object(const struct task *t, const struct frame *f,
				 struct callsite *cs)
{
	const struct breakpoint *b = f->bpt;
	if (b->kind == BPT_ENTRY)
		return object_at(t, b->addr);
	const char *o = f->target ? object_at(t, f->target) : NULL;
	if (!o || o == object_at(t, b->addr)) {
		uint64_t now = got_target(b, cs);
		o = now ? object_at(t, now) : NULL;
	}
	return o;
}

/* The name and message of errno E after a failed call; the codes
 * of a syscall interrupted by a signal, which only a tracer sees (the
 * kernel's include/linux/errno.h), as strace names them.  False when E
 * has no name. */
static bool error_name(int e, const char **name, const char **msg)
{
	static const char *const restart[][2] = {
		{ "ERESTARTSYS", "To be restarted if SA_RESTART is set" },
		{ "ERESTARTNOINTR", "To be restarted" },
		{ "ERESTARTNOHAND", "To be restarted if no handler" },
		{ "ENOIOCTLCMD", "No ioctl command" },
		{ "ERESTART_RESTARTBLOCK", "Interrupted by signal" },
	};
	*name = strerrorname_np(e);
	*msg = *name ? strerror(e) : NULL;
	if (!*name && e >= 512 && e < 512 + 5) {
		*name = restart[e - 512][0];
		*msg = restart[e - 512][1];
	}
	return *name != NULL;
}

/* " ENOENT (No such file or directory)" after a failed call's value. */
static void add_error(struct strbuf *sb, int e)
{
	const char *name, *msg;
	if (error_name(e, &name, &msg))
		strbuf_addf(sb, " %s (%s)", name, msg);
}

/* T's call at index I, whole: the arguments in sb_args (SPANS), RET
 * (NULL: it never returns), timed from its entry to this stop; ERR its
 * errno if it failed, else 0. */
static void show_whole(struct task *t, size_t i, struct callsite *cs,
		       const char *ret, int err)
{
	const struct frame *f = &t->frames[i];
	struct jsonout_call c = {
		.pid = t->proc->pid,
		.tid = t->tid,
		.start = f->t_entry,
		.end = output_now(),
		.caller = object_at(t, f->ret),
		.library = callee_object(t, f, cs),
		.function = resumed_name(f->bpt),
		.args = sb_args.s ? sb_args.s : "",
		.spans = spans.at,
		.nargs = spans.n,
		.ret = ret,
		.error = err,
	};
	const char *msg;
	if (c.error)
		(void)error_name(c.error, &c.errname, &msg);
	output_call_done(&c);
}

/* T's call at index I never returns: shown whole without a return. */
static void show_noreturn(struct task *t, size_t i)
{
	if (!structured || !t->frames[i].ct || !task_prints(t))
		return;
	strbuf_reset(&sb_args);
	spans.n = 0;
	calltext_kept(t->frames[i].ct, &sb_args, &spans);
	show_whole(t, i, NULL, NULL, 0);
}

void call_abandon(struct task *t, size_t i)
{
	if (i >= t->nframes)
		return; /* nearly always: at every entry and return */
	for (size_t k = t->nframes; k-- > i;)
		show_noreturn(t, k);
	task_pop_frames(t, i);
}

/* T's call at index I returned, with the registers of CS, failing
 * with errno ERR (0: it did not). */
static void show_return_whole(struct task *t, size_t i, struct callsite *cs,
			      int err)
{
	struct frame *f = &t->frames[i];
	strbuf_reset(&sb_args);
	strbuf_reset(&sb_more);
	strbuf_reset(&sb_ret);
	spans.n = 0;
	calltext_kept(f->ct, &sb_args, &spans);
	/* calltext_return_split releases the state. */
	calltext_return_split(f->ct, cs, &sb_more, &sb_ret, &spans,
			      sb_args.len);
	f->ct = NULL;
	strbuf_add(&sb_args, sb_more.s ? sb_more.s : "", sb_more.len);
	show_whole(t, i, cs, sb_ret.s, err);
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

/* Room for one more pending call of T: past CALLS_MAX_FRAMES its
 * oldest are dropped (their returns, if they come, match nothing),
 * said in one line per episode. */
static void make_room(struct task *t, bool print)
{
	if (t->nframes < CALLS_MAX_FRAMES / 4)
		t->frames_dropped = false;
	if (t->nframes < CALLS_MAX_FRAMES)
		return;
	if (!t->frames_dropped && print && !summary)
		output_line(t->tid,
			    "--- over %d calls pending: the oldest "
			    "dropped ---",
			    CALLS_MAX_FRAMES);
	t->frames_dropped = true;
	task_drop_oldest(t, CALLS_MAX_FRAMES / 2);
}

void call_entry(struct task *t, const struct breakpoint *b, struct callsite *cs,
		uint64_t ret, uint64_t ret_sp, bool print)
{
	drop_unwound(t, ret, ret_sp);
	make_room(t, print);
	struct frame *f = task_push_frame(t, ret, ret_sp);
	/* The entry line's fields from these, not read back from the
	 * frame just written. */
	unsigned long id = ++next_id;
	uint64_t t_entry = output_now();
	f->bpt = b;
	f->id = id;
	f->t_entry = t_entry;
	if (print && errcond_at_entry(b->call.proto) && cs->thread_errno)
		f->errno_entry_known = cs->thread_errno(cs, &f->errno_entry);
	if (!print || summary)
		return;
	strbuf_reset(&sb_args);
	if (structured) {
		f->ct = calltext_entry_split(&limits, b->call.proto, cs,
					     &sb_args, &spans);
		calltext_keep(f->ct, &sb_args, &spans);
		f->target = got_target(b, cs);
		return;
	}
	f->ct = calltext_entry(&limits, b->call.proto, cs, &sb_args);
	f->had_args = sb_args.len > 0;
	struct output_call oc = { .tid = t->tid,
				  .id = id,
				  .ret = ret,
				  .depth = t->nframes - 1,
				  .t_entry = t_entry };
	output_call_entry(&oc, b->call.label, sb_args.s);
	if (t->nframes > CALLS_MAX_TEXTS) {
		calltext_free(f->ct);
		f->ct = NULL;
		f->capped = true;
	}
}

/* T's call at index I, deeper than CALLS_MAX_TEXTS, returned: its
 * return value alone, and ERR, its errno if it failed. */
static void show_capped_return(struct task *t, size_t i, struct callsite *cs,
			       int err)
{
	const struct frame *f = &t->frames[i];
	strbuf_reset(&sb_ret);
	calltext_return_value(&limits, f->bpt->call.proto, cs, &sb_ret);
	if (err)
		add_error(&sb_ret, err);
	struct output_call oc = out_call(t, i);
	output_call_return(&oc, resumed_name(f->bpt), f->had_args, "",
			   sb_ret.s);
}

/* The errno T's call F failed with, returning at CS, or 0: a system
 * call's error (-S), else as its prototype's errno(...) says. */
static int call_error(const struct frame *f, struct callsite *cs)
{
	if (!cs)
		return 0;
	if (cs->error)
		return cs->error;
	return errcond_errno(f->bpt->call.proto, cs,
			     f->errno_entry_known ? &f->errno_entry : NULL);
}

bool call_return(struct task *t, size_t i, struct callsite *cs, bool print)
{
	call_abandon(t, i + 1);
	struct frame *f = &t->frames[i];
	bool shown = false;
	int err = print ? call_error(f, cs) : 0;
	if (print && summary) {
		summary_account(resumed_name(f->bpt), output_now() - f->t_entry,
				err != 0);
		task_pop_frames(t, i);
		return false;
	}
	if (print && !f->ct && f->inherited) {
		/* Its arguments were shown by the parent: only the return
		 * value matters, so the state is built from the return. */
		strbuf_reset(&sb_args);
		f->ct = calltext_entry(&limits, f->bpt->call.proto, cs,
				       &sb_args);
		f->had_args = false;
	}
	if (print && err && f->ct &&
	    (cs->error || errcond_value_failed(f->bpt->call.proto, cs)))
		calltext_failed(f->ct);
	if (print && f->capped) {
		show_capped_return(t, i, cs, err);
		shown = true;
	} else if (print && f->ct && structured) {
		show_return_whole(t, i, cs, err);
		shown = true; /* -w: its backtrace goes in its object */
	} else if (print && f->ct) {
		strbuf_reset(&sb_more);
		strbuf_reset(&sb_ret);
		/* calltext_return releases the state. */
		calltext_return(f->ct, cs, &sb_more, &sb_ret);
		f->ct = NULL;
		if (err)
			add_error(&sb_ret, err);
		struct output_call oc = out_call(t, i);
		output_call_return(&oc, resumed_name(f->bpt), f->had_args,
				   sb_more.s, sb_ret.s);
		shown = true;
	}
	task_pop_frames(t, i);
	return shown;
}

void call_return_tail(struct task *t, size_t i, struct callsite *cs, bool print)
{
	uint64_t ret = t->frames[i].ret, sp = t->frames[i].ret_sp;
	for (long k = (long)i; k >= 0; k = call_tail_caller(t, k, ret, sp))
		(void)call_return(t, (size_t)k, cs, print);
}

/* The innermost: tail calls give several frames with the same return
 * address and stack pointer (call_return_tail shows the others). */
long call_match(const struct task *t, uint64_t ret, uint64_t sp)
{
	return task_find_frame(t, ret, sp);
}

void call_inherit(struct task *child, const struct task *parent,
		  const struct bpt_table *bpts)
{
	for (size_t i = 0; i < parent->nframes; i++) {
		const struct frame *pf = &parent->frames[i];
		const struct breakpoint *b = bpt_lookup(bpts, pf->bpt->addr);
		if (!b)
			continue;
		struct frame *f = task_push_frame(child, pf->ret, pf->ret_sp);
		*f = *pf; /* the index's links too: made anew below */
		f->bpt = b;
		f->ct = NULL;
		f->inherited = true;
		f->id = ++next_id;
	}
	task_reindex(child);
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
		    in_range(f->bpt->addr, lo, hi)) {
			show_noreturn(t, i);
			if (f->ct)
				calltext_free(f->ct);
			continue;
		}
		t->frames[n++] = *f;
	}
	t->nframes = n;
	task_reindex(t);
}
