/* libFuzzer target: the printf-format decoder (lenses/format.c) and the
 * lenses it hands each conversion to, over fake tracee memory backed by
 * the input.  The input is the tracee's memory at BASE: its first byte
 * picks printf(format) or wprintf (format of 4-byte characters), the
 * format string starts at offset 64, and the argument registers, the
 * stack (at BASE) and the xmm registers are made of its words, most of
 * them turned into addresses inside it so that %s and %ls read it. */
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

#define BASE 0x10000ULL
#define FMT_AT 64

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

/* Word I of the input (zero past its end), as an address inside it
 * unless its top byte is 0xff (then as it is: unreadable, or a number). */
static uint64_t word(const struct fake *f, size_t i)
{
	uint64_t w = 0;

	if (8 * i + 8 <= f->size)
		memcpy(&w, f->data + 8 * i, 8);
	if (w >> 56 == 0xff || !f->size)
		return w;
	return BASE + w % f->size;
}

static void fake_regs(struct user_regs_struct *r, const struct fake *f)
{
	memset(r, 0, sizeof(*r));
	r->rdi = BASE + (f->size > FMT_AT ? FMT_AT : 1);
	r->rsi = word(f, 1);
	r->rdx = word(f, 2);
	r->rcx = word(f, 3);
	r->r8 = word(f, 4);
	r->r9 = word(f, 5);
	r->rsp = BASE;
	r->rax = word(f, 6);
	memset(&fpregs, 0, sizeof(fpregs));
	memcpy(fpregs.xmm_space, f->data,
	       f->size < sizeof(fpregs.xmm_space) ? f->size :
						    sizeof(fpregs.xmm_space));
}

static struct protolib *protos;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	protos = protolib_new();
	conf_load_string(protos, "format",
			 "int printf(format);\n"
			 "int wprintf(format(string(array(int, zero)*)));\n");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!protos)
		LLVMFuzzerInitialize(NULL, NULL);
	struct fake f = { { .read = fake_read }, data, size };
	const char *name = size && data[0] & 1 ? "wprintf" : "printf";
	const struct prototype *p = protolib_lookup(protos, name);
	struct lens_limits lim = { .strlen = 32, .arraylen = 4 };
	struct user_regs_struct regs;
	struct callsite cs = { .mem = &f.m, .regs = &regs, .fpregs = get_fp };
	struct strbuf out, more, ret;

	fake_regs(&regs, &f);
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
	return 0;
}
