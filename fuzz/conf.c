/* libFuzzer target: the ltrace.conf(5) parser (ltrace/conf.c, lex.c,
 * protolib.c, type.c, expr.c) on any bytes, then every prototype it
 * built formatted (ltrace/calltext.c, lenses/, the x86_64 fetch) at a
 * fake entry and return stop.  The fake tracee's memory is the input
 * itself at BASE, and every argument register, the stack slots and the
 * return value point into it or at its words, so the lenses read the
 * text as strings, arrays, structs and formats.  Diagnostics go to
 * stderr (libFuzzer's -close_fd_mask=2 silences them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "callsite.h"
#include "calltext.h"
#include "conf.h"
#include "lens.h"
#include "memsrc.h"
#include "protolib.h"
#include "strbuf.h"
#include "type.h"

#define BASE 0x10000ULL

struct fake {
	struct memsrc m;
	const uint8_t *data;
	size_t size;
};

static size_t fake_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	struct fake *f = (struct fake *)m;

	if (addr < BASE || addr - BASE >= f->size)
		return 0;
	size_t off = addr - BASE;
	if (len > f->size - off)
		len = f->size - off;
	memcpy(buf, f->data + off, len);
	return len;
}

static struct user_fpregs_struct fpregs;

static const void *get_fp(struct callsite *cs)
{
	(void)cs;
	return &fpregs;
}

/* Registers that point into the input, a few bytes apart. */
static void fake_regs(struct user_regs_struct *r, size_t size)
{
	uint64_t at = size ? size / 7 : 0;

	memset(r, 0, sizeof(*r));
	r->rdi = BASE;
	r->rsi = BASE + at;
	r->rdx = 3;
	r->rcx = BASE + 2 * at;
	r->r8 = (uint64_t)-1;
	r->r9 = BASE + 3 * at;
	r->rsp = BASE + (size / 2 & ~7UL);
	r->rax = BASE + 4 * at;
	for (size_t i = 0; i < sizeof(fpregs.xmm_space) / 4; i++)
		fpregs.xmm_space[i] = (unsigned)(i * 0x01010101u);
}

static void format_proto(const struct prototype *p, struct fake *f)
{
	struct lens_limits lim = { .strlen = 32, .arraylen = 4 };
	struct user_regs_struct regs;
	struct callsite cs = { .mem = &f->m, .regs = &regs, .fpregs = get_fp };
	struct strbuf out, more, ret;

	fake_regs(&regs, f->size);
	strbuf_init(&out);
	strbuf_init(&more);
	strbuf_init(&ret);
	cs.at_entry = true;
	struct calltext *ct = calltext_entry(&lim, p, &cs, &out);
	cs.at_entry = false;
	calltext_return(ct, &cs, &more, &ret);
	strbuf_destroy(&out);
	strbuf_destroy(&more);
	strbuf_destroy(&ret);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;

	struct protolib *pl = protolib_new();
	conf_load_string(pl, "fuzz", text);
	struct fake f = { { .read = fake_read }, data, size };
	const struct prototype *p = NULL;
	for (int n = 0; n < 64 && (p = protolib_next_proto(pl, p)); n++)
		format_proto(p, &f);
	protolib_free(pl);
	free(text);
	return 0;
}
