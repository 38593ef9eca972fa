/* The fuzz targets' fake tracee and input text: see fake.h. */
#include <stdlib.h>
#include <string.h>

#include "callsite.h"
#include "calltext.h"
#include "fake.h"
#include "lens.h"
#include "strbuf.h"

struct arch_fpregs fake_fpregs;

static size_t fake_read(struct memsrc *m, uint64_t addr, void *buf, size_t len)
{
	struct fake_mem *f = (struct fake_mem *)m;

	if (addr < FAKE_BASE || addr - FAKE_BASE >= f->size)
		return 0;
	size_t off = addr - FAKE_BASE;
	if (len > f->size - off)
		len = f->size - off;
	memcpy(buf, f->data + off, len);
	return len;
}

void fake_mem_init(struct fake_mem *f, const uint8_t *data, size_t size)
{
	*f = (struct fake_mem){ { .read = fake_read }, data, size };
}

static const void *get_fp(struct callsite *cs)
{
	(void)cs;
	return &fake_fpregs;
}

void fake_call(const struct prototype *p, struct fake_mem *f,
	       const struct arch_regs *regs)
{
	struct lens_limits lim = { .strlen = 32, .arraylen = 4 };
	struct callsite cs = { .mem = &f->m, .regs = regs, .fpregs = get_fp };
	struct strbuf out, more, ret;

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

char *fake_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		return NULL;
	memcpy(text, data, size);
	text[size] = 0;
	return text;
}
