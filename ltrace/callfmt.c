/* Formatting one call: fetch every argument at entry (registers are gone
 * by the return), print those before the '+' split at entry and the rest,
 * with the return value, at the return.  Memory behind saved pointers is
 * read when the value is printed. */
#include <stdlib.h>
#include <string.h>

#include "callfmt.h"
#include "callsite.h"
#include "expr.h"
#include "fetch.h"
#include "lens.h"
#include "strbuf.h"
#include "type.h"
#include "xmalloc.h"

struct callfmt {
	struct fmtopts o;
	const struct prototype *p;
	struct fetch_ctx *fetch;
	struct fetch_ctx *pack;		/* cursor after a format parameter */
	size_t nfetched;
	unsigned char **args;
	unsigned char *ret;
	bool have_ret;
	struct expr_env env;
};

/* Functions without a prototype: long f(long, long, long, long), shown
 * through the guess lens. */
static struct type guess_long = { .kind = TYPE_LONG, .lens = LENS_GUESS };
static struct type *guess_params[] = {
	&guess_long, &guess_long, &guess_long, &guess_long,
};
static const struct prototype default_proto = {
	.name = "",
	.ret = &guess_long,
	.params = guess_params,
	.nparams = 4,
	.split = 4,
};

/* A fetched value: arrays decayed to a pointer to their elements. */
static struct value fetched_value(const struct type *t,
				  const unsigned char *buf)
{
	struct value v = { .type = t, .buf = buf };
	uint64_t a;

	if (t->kind == TYPE_ARRAY) {
		memcpy(&a, buf, 8);
		v.remote = true;
		v.addr = a;
		v.buf = NULL;
	}
	return v;
}

static int env_arg(void *data, long n, int64_t *out)
{
	struct callfmt *cf = data;
	struct fmt_ctx c = { .o = &cf->o };
	struct value v;

	if (n == 0) {
		if (!cf->have_ret)
			return -1;
		v = fetched_value(cf->p->ret, cf->ret);
	} else if ((size_t)n <= cf->nfetched) {
		v = fetched_value(cf->p->params[n - 1], cf->args[n - 1]);
	} else {
		return -1;
	}
	if (v.remote)
		return -1;
	return value_int(&c, &v, out);
}

static bool needs_fp_after(const struct prototype *p, size_t from)
{
	size_t i;

	for (i = from; i < p->nparams; i++)
		if (type_needs_fp(p->params[i]))
			return true;
	return false;
}

/* Fetch every parameter; a format parameter ends the list. */
static void fetch_all(struct callfmt *cf, struct callsite *cs)
{
	const struct prototype *p = cf->p;
	size_t i;

	cf->args = xcalloc(p->nparams ? p->nparams : 1, sizeof(*cf->args));
	for (i = 0; i < p->nparams; i++) {
		cf->args[i] = xmalloc(fetch_bufsize(p->params[i]));
		fetch_arg(cf->fetch, cs, p->params[i], cf->args[i]);
		cf->nfetched = i + 1;
		if (p->params[i]->kind == TYPE_FORMAT) {
			cf->pack = fetch_clone(cf->fetch);
			break;
		}
	}
}

static void format_params(struct callfmt *cf, struct callsite *cs,
			  size_t from, size_t to, struct strbuf *out)
{
	struct fmt_ctx c = {
		.o = &cf->o, .mem = cs->mem, .cs = cs, .env = &cf->env,
		.sb = out, .limit = out->len + lens_budget(&cf->o),
	};
	struct value v;
	size_t i, idx = 0;

	for (i = from; i < to && i < cf->nfetched; i++) {
		const struct type *t = cf->p->params[i];

		if (lens_hidden(t))
			continue;
		out_sep(&c, OUT_ARGS, idx++);
		v = fetched_value(t, cf->args[i]);
		c.fetch = t->kind == TYPE_FORMAT && cf->pack
				  ? fetch_clone(cf->pack) : NULL;
		lens_format(&c, &v);
		if (c.fetch)
			fetch_free(c.fetch);
	}
}

struct callfmt *callfmt_entry(const struct fmtopts *o,
			      const struct prototype *p,
			      struct callsite *cs, struct strbuf *out)
{
	struct callfmt *cf = xcalloc(1, sizeof(*cf));

	cf->o = *o;
	cf->p = p ? p : &default_proto;
	cf->env.arg = env_arg;
	cf->env.arg_data = cf;
	cf->fetch = fetch_begin(cs, cf->p->ret,
				needs_fp_after(cf->p, cf->p->split));
	fetch_all(cf, cs);
	format_params(cf, cs, 0, cf->p->split, out);
	return cf;
}

static void format_ret(struct callfmt *cf, struct callsite *cs,
		       struct strbuf *ret)
{
	const struct type *t = cf->p->ret;
	struct fmt_ctx c = {
		.o = &cf->o, .mem = cs->mem, .cs = cs, .env = &cf->env,
		.sb = ret, .limit = ret->len + lens_budget(&cf->o),
	};
	struct value v;

	if (t->kind == TYPE_VOID) {
		strbuf_addstr(ret, "<void>");
		return;
	}
	v = fetched_value(t, cf->ret);
	lens_format(&c, &v);
}

void callfmt_return(struct callfmt *cf, struct callsite *cs,
		    struct strbuf *more, struct strbuf *ret)
{
	const struct type *t = cf->p->ret;

	cf->ret = xmalloc(fetch_bufsize(t));
	if (t->kind == TYPE_VOID)
		memset(cf->ret, 0, fetch_bufsize(t));
	else
		fetch_retval(cf->fetch, cs, t, cf->ret);
	cf->have_ret = true;
	format_params(cf, cs, cf->p->split, cf->p->nparams, more);
	format_ret(cf, cs, ret);
	callfmt_free(cf);
}

void callfmt_free(struct callfmt *cf)
{
	size_t i;

	if (!cf)
		return;
	for (i = 0; i < cf->nfetched; i++)
		free(cf->args[i]);
	free(cf->args);
	free(cf->ret);
	if (cf->pack)
		fetch_free(cf->pack);
	fetch_free(cf->fetch);
	free(cf);
}
