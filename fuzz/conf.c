/* libFuzzer target: the ltrace.conf(5) parser (ltrace/conf.c, conftype.c,
 * lex.c, protolib.c, type.c, expr.c) on any bytes, then every prototype it
 * built formatted (ltrace/calltext.c, lenses/, the x86_64 fetch) at a
 * fake entry and return stop.  The fake tracee's memory is the input
 * itself at FAKE_BASE, and every argument register, the stack slots and the
 * return value point into it or at its words, so the lenses read the
 * text as strings, arrays, structs and formats.  Diagnostics go to
 * stderr (libFuzzer's -close_fd_mask=2 silences them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/user.h>

#include "conf.h"
#include "fake.h"
#include "protolib.h"

/* Registers that point into the input, a few bytes apart. */
static void fake_regs(struct user_regs_struct *r, size_t size)
{
	uint64_t at = size ? size / 7 : 0;

	memset(r, 0, sizeof(*r));
	r->rdi = FAKE_BASE;
	r->rsi = FAKE_BASE + at;
	r->rdx = 3;
	r->rcx = FAKE_BASE + 2 * at;
	r->r8 = (uint64_t)-1;
	r->r9 = FAKE_BASE + 3 * at;
	r->rsp = FAKE_BASE + (size / 2 & ~7UL);
	r->rax = FAKE_BASE + 4 * at;
	for (size_t i = 0; i < sizeof(fake_fpregs.xmm_space) / 4; i++)
		fake_fpregs.xmm_space[i] = (unsigned)(i * 0x01010101u);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fake_text(data, size);
	if (!text)
		return 0;

	struct protolib *pl = protolib_new();
	conf_load_string(pl, "fuzz", text);
	struct fake_mem f;
	fake_mem_init(&f, data, size);
	struct user_regs_struct regs;
	fake_regs(&regs, size);
	const struct prototype *p = NULL;
	for (int n = 0; n < 64 && (p = protolib_next_proto(pl, p)); n++)
		fake_call(p, &f, &regs);
	protolib_free(pl);
	free(text);
	return 0;
}
