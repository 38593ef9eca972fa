/* The text of one call: fetch every argument at entry (registers are gone
 * by the return), show those before the '+' split at entry and the rest,
 * with the return value, at the return.  Memory behind saved pointers is
 * read when the value is shown. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "calltext.h"
#include "callsite.h"
#include "expr.h"
#include "fetch.h"
#include "lens.h"
#include "strbuf.h"
#include "type.h"
#include "xmalloc.h"

struct calltext {
	struct lens_limits limits;
	const struct prototype *p;
	struct fetch_ctx *fetch;
	struct fetch_ctx *pack; /* cursor after a printf-style pack */
	size_t nfetched;
	unsigned char **args;
	unsigned char *ret;
	bool have_ret;
	struct expr_env env;
	bool json;   /* the *_split functions: values as JSON (--format) */
	bool failed; /* calltext_failed: out-parameters as addresses */
	/* calltext_keep: the entry's text and argument spans */
	char *kept;
	struct arg_spans kept_spans;
	/* ARGS, the arguments' buffers and RET's, in one allocation of CAP
	 * bytes that a state keeps when it is freed and taken again */
	unsigned char *block;
	size_t cap;
};

void calltext_spans_destroy(struct arg_spans *s)
{
	free(s->at);
	memset(s, 0, sizeof(*s));
}

/* Note argument [START, END) of its buffer, offsets plus BASE. */
static void span_push(struct arg_spans *s, size_t start, size_t end,
		      size_t base)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 8;
		s->at = xreallocarray(s->at, 2 * s->cap, sizeof(*s->at));
	}
	s->at[2 * s->n] = base + start;
	s->at[2 * s->n + 1] = base + end;
	s->n++;
}

/* Functions without a prototype: long f(long, long, long, long), shown
 * through the guess lens.  Built once. */
static const struct prototype *default_proto(void)
{
	static struct type *params[4];
	static struct prototype p = {
		.name = "",
		.params = params,
		.nparams = 4,
		.split = 4,
	};

	if (!p.ret) {
		p.ret = type_builtin(TYPE_LONG, LENS_GUESS);
		for (size_t i = 0; i < p.nparams; i++)
			params[i] = p.ret;
	}
	return &p;
}

/* A fetched value: arrays decayed to a pointer to their elements. */
static struct value fetched_value(const struct type *t,
				  const unsigned char *buf)
{
	struct value v = { .type = t, .buf = buf };

	if (t->kind == TYPE_ARRAY) {
		uint64_t a;

		memcpy(&a, buf, 8);
		v.remote = true;
		v.addr = a;
		v.buf = NULL;
	}
	return v;
}

static int env_arg(void *data, long n, int64_t *out)
{
	struct calltext *ct = data;
	struct value v;

	if (n == 0) {
		if (!ct->have_ret)
			return -1;
		v = fetched_value(ct->p->ret, ct->ret);
	} else if ((size_t)n <= ct->nfetched) {
		v = fetched_value(ct->p->params[n - 1], ct->args[n - 1]);
	} else {
		return -1;
	}
	if (v.remote)
		return -1;
	struct fmt_ctx c = { .limits = &ct->limits };
	return value_int(&c, &v, out);
}

static bool needs_fp_after(const struct prototype *p, size_t from)
{
	for (size_t i = from; i < p->nparams; i++)
		if (type_needs_fp(p->params[i]))
			return true;
	return false;
}

static size_t align16(size_t n)
{
	return (n + 15) & ~(size_t)15;
}

/* The bytes of P's block: the argument pointers, then the return
 * value's buffer and each argument's, each at 16 bytes as malloc would
 * give it. */
static size_t block_size(const struct prototype *p)
{
	size_t size = align16(p->nparams * sizeof(unsigned char *));

	size += align16(fetch_bufsize(p->ret));
	for (size_t i = 0; i < p->nparams; i++)
		size += align16(fetch_bufsize(p->params[i]));
	return size;
}

/* block_size of the prototypes calls were made of lately, by address
 * (direct-mapped): a prototype lives as long as the tracer once a call
 * used it (protosets and DWARF prototypes are freed at the exit only),
 * and its types do not change. */
#define SIZED_PROTOS 64
static struct {
	const struct prototype *p;
	size_t size;
} sized[SIZED_PROTOS];

static size_t block_size_of(const struct prototype *p)
{
	size_t k = ((uintptr_t)p >> 4) % SIZED_PROTOS;
	if (sized[k].p != p) {
		sized[k].size = block_size(p);
		sized[k].p = p;
	}
	return sized[k].size;
}

/* Freed states kept for the next calls, with their blocks: a traced
 * call takes one and gives it back, and malloc and free cost more than
 * the rest of a short call's text (issue 12).  A block over SPARE_BLOCK
 * bytes (a large struct by value) is not kept. */
#define SPARE_STATES 64
#define SPARE_BLOCK 1024
static struct calltext *spare[SPARE_STATES];
static size_t nspare;

/* A state for a call of P (NULL: the default prototype), fresh but for
 * a block of at least block_size(P) bytes, laid out. */
static struct calltext *state_new(const struct lens_limits *limits,
				  const struct prototype *p)
{
	struct calltext *ct = nspare ? spare[--nspare] :
				       xcalloc(1, sizeof(*ct));
	unsigned char *block = ct->block;
	size_t cap = ct->cap;

	/* Field by field: a compound literal became a rep stos over the
	 * whole state, the dearest step of a short call's text. */
	ct->limits = *limits;
	ct->p = p ? p : default_proto();
	ct->fetch = NULL;
	ct->pack = NULL;
	ct->nfetched = 0;
	ct->have_ret = false;
	ct->env = (struct expr_env){ .arg = env_arg, .arg_data = ct };
	ct->json = false;
	ct->failed = false;
	ct->kept = NULL;
	ct->kept_spans = (struct arg_spans){ 0 };
	size_t need = block_size_of(ct->p);
	if (need > cap) {
		free(block);
		block = xmalloc(need);
		cap = need;
	}
	ct->block = block;
	ct->cap = cap;
	ct->args = (unsigned char **)block;
	ct->ret = block + align16(ct->p->nparams * sizeof(*ct->args));
	return ct;
}

/* Fetch every parameter; a printf-style pack ends the list. */
static void fetch_all(struct calltext *ct, struct callsite *cs)
{
	const struct prototype *p = ct->p;
	unsigned char *buf = ct->ret + align16(fetch_bufsize(p->ret));

	for (size_t i = 0; i < p->nparams; i++) {
		ct->args[i] = buf;
		buf += align16(fetch_bufsize(p->params[i]));
		fetch_arg(ct->fetch, cs, p->params[i], ct->args[i]);
		ct->nfetched = i + 1;
		if (p->params[i]->kind == TYPE_PACK) {
			ct->pack = fetch_clone(ct->fetch);
			break;
		}
	}
}

/* The JSON writer's state of the one value list being rendered. */
static struct emit_json json_state;

/* lens_budget(L), kept for the last limits asked (the same for every
 * call: -s and -A); compared whole, padding and all, so a mismatch
 * only computes it again. */
static size_t budget_of(const struct lens_limits *l)
{
	static struct lens_limits last;
	static size_t budget;
	static bool known;
	if (!known || memcmp(&last, l, sizeof(last))) {
		last = *l;
		budget = lens_budget(l);
		known = true;
	}
	return budget;
}

/* C, the lens context for appending to SB at stop CS, within the
 * budget.  The pointers being dereferenced (ptrs, ptr_types) count from
 * nptrs: left unset.  The rest is copied from zeros, which the compiler
 * does in vector moves where a memset or a compound literal became a
 * rep stos, dear for a short call's text; and C is filled in place, not
 * returned (a copy of the whole context). */
static void lens_ctx_of(struct fmt_ctx *c, struct calltext *ct,
			struct callsite *cs, struct strbuf *sb)
{
	static const struct fmt_ctx zero;
	if (ct->json) {
		json_state.nopen = 0;
		json_state.nhold = 0;
	}
	memcpy(c, &zero, offsetof(struct fmt_ctx, ptrs));
	c->json = ct->json ? &json_state : NULL;
	c->limits = &ct->limits;
	c->mem = cs->mem;
	c->cs = cs;
	c->env = &ct->env;
	c->sb = sb;
	c->budget_end = sb->len + budget_of(&ct->limits);
}

/* Where a pack's arguments go: each separator between two of them
 * closes the open span (the pack's last) and opens the next. */
struct pack_spans {
	struct arg_spans *spans;
	size_t base;
};

static void pack_sep(void *data, size_t sep, size_t next)
{
	struct pack_spans *ps = data;
	struct arg_spans *s = ps->spans;
	s->at[2 * s->n - 1] = ps->base + sep;
	span_push(s, next, next, ps->base);
}

/* Show parameters [FROM, TO) into OUT; where each went into SPANS
 * (offsets plus BASE) if not NULL. */
static void show_params(struct calltext *ct, struct callsite *cs, size_t from,
			size_t to, struct strbuf *out, struct arg_spans *spans,
			size_t base)
{
	if (from >= to || from >= ct->nfetched)
		return; /* most returns: the context is not cheap */
	struct fmt_ctx c;
	lens_ctx_of(&c, ct, cs, out);
	size_t idx = 0;

	for (size_t i = from; i < to && i < ct->nfetched; i++) {
		const struct type *t = ct->p->params[i];

		if (lens_hidden(t))
			continue;
		emit_sep(&c, EMIT_ARGS, idx++);
		lens_arg_start(&c);
		size_t start = out->len;
		struct value v = fetched_value(t, ct->args[i]);
		if (ct->failed && i >= ct->p->split &&
		    t->kind == TYPE_POINTER) {
			uint64_t a = 0;
			memcpy(&a, v.buf, sizeof(a));
			emit_addr(&c, a);
			if (spans)
				span_push(spans, start, out->len, base);
			continue;
		}
		c.fetch = t->kind == TYPE_PACK && ct->pack ?
				  fetch_clone(ct->pack) :
				  NULL;
		/* The span is open (its end is set after the render) so that
		 * a pack can split it at its separators. */
		struct pack_spans ps = { spans, base };
		if (spans) {
			span_push(spans, start, start, base);
			c.on_pack_sep = pack_sep;
			c.pack_sep_data = &ps;
		}
		lens_render(&c, &v);
		c.on_pack_sep = NULL;
		if (c.fetch)
			fetch_free(c.fetch);
		if (spans)
			spans->at[2 * spans->n - 1] = base + out->len;
	}
}

struct calltext *calltext_entry(const struct lens_limits *limits,
				const struct prototype *p, struct callsite *cs,
				struct strbuf *out)
{
	return calltext_entry_split(limits, p, cs, out, NULL);
}

struct calltext *calltext_entry_split(const struct lens_limits *limits,
				      const struct prototype *p,
				      struct callsite *cs, struct strbuf *out,
				      struct arg_spans *spans)
{
	struct calltext *ct = state_new(limits, p);

	ct->json = spans != NULL;
	ct->fetch = fetch_begin(cs, ct->p->ret,
				needs_fp_after(ct->p, ct->p->split));
	fetch_all(ct, cs);
	if (spans)
		spans->n = 0;
	show_params(ct, cs, 0, ct->p->split, out, spans, 0);
	return ct;
}

void calltext_keep(struct calltext *ct, const struct strbuf *text,
		   const struct arg_spans *spans)
{
	free(ct->kept);
	ct->kept = xstrdup(text->s ? text->s : "");
	ct->kept_spans.n = 0;
	for (size_t i = 0; i < spans->n; i++)
		span_push(&ct->kept_spans, spans->at[2 * i],
			  spans->at[2 * i + 1], 0);
}

void calltext_kept(const struct calltext *ct, struct strbuf *text,
		   struct arg_spans *spans)
{
	if (!ct->kept)
		return;
	size_t base = text->len;
	strbuf_addstr(text, ct->kept);
	for (size_t i = 0; i < ct->kept_spans.n; i++)
		span_push(spans, ct->kept_spans.at[2 * i],
			  ct->kept_spans.at[2 * i + 1], base);
}

static void show_ret(struct calltext *ct, struct callsite *cs,
		     struct strbuf *ret)
{
	const struct type *t = ct->p->ret;

	if (t->kind == TYPE_VOID) {
		strbuf_addstr(ret, ct->json ? "null" : "<void>");
		return;
	}
	struct fmt_ctx c;
	lens_ctx_of(&c, ct, cs, ret);
	struct value v = fetched_value(t, ct->ret);
	lens_render(&c, &v);
}

/* Fetch the return value of CT's prototype into ct->ret (zeros for void). */
static void fetch_ret(struct calltext *ct, struct callsite *cs)
{
	const struct type *t = ct->p->ret;
	if (t->kind == TYPE_VOID)
		memset(ct->ret, 0, fetch_bufsize(t));
	else
		fetch_retval(ct->fetch, cs, t, ct->ret);
	ct->have_ret = true;
}

/* The arguments shown at return and the return value. */
static void show_return(struct calltext *ct, struct callsite *cs,
			struct strbuf *more, struct strbuf *ret,
			struct arg_spans *spans, size_t base)
{
	fetch_ret(ct, cs);
	show_params(ct, cs, ct->p->split, ct->p->nparams, more, spans, base);
	show_ret(ct, cs, ret);
	calltext_free(ct);
}

void calltext_failed(struct calltext *ct)
{
	ct->failed = true;
}

void calltext_return(struct calltext *ct, struct callsite *cs,
		     struct strbuf *more, struct strbuf *ret)
{
	show_return(ct, cs, more, ret, NULL, 0);
}

void calltext_return_split(struct calltext *ct, struct callsite *cs,
			   struct strbuf *more, struct strbuf *ret,
			   struct arg_spans *spans, size_t base)
{
	ct->json = true; /* also for a state built as text (inherited) */
	show_return(ct, cs, more, ret, spans, base);
}

void calltext_return_value(const struct lens_limits *limits,
			   const struct prototype *p, struct callsite *cs,
			   struct strbuf *ret)
{
	/* retval only: no argument was fetched (nfetched 0) */
	struct calltext *ct = state_new(limits, p);
	ct->fetch = fetch_begin(cs, ct->p->ret, false);
	fetch_ret(ct, cs);
	show_ret(ct, cs, ret);
	calltext_free(ct);
}

void calltext_free(struct calltext *ct)
{
	if (!ct)
		return;
	if (ct->pack)
		fetch_free(ct->pack);
	fetch_free(ct->fetch);
	if (ct->kept) {
		free(ct->kept);
		calltext_spans_destroy(&ct->kept_spans);
	}
	if (nspare < SPARE_STATES && ct->cap <= SPARE_BLOCK) {
		spare[nspare++] = ct;
		return;
	}
	free(ct->block);
	free(ct);
}
