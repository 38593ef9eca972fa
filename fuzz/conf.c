/* libFuzzer target: the ltrace.conf(5) parser (ltrace/conf.c, conftype.c,
 * lex.c, protolib.c, type.c, expr.c) on any bytes, then every prototype it
 * built formatted (ltrace/calltext.c, lenses/, the architecture's fetch) at a
 * fake entry and return stop.  The fake tracee's memory is the input
 * itself at FAKE_BASE, and every argument register, the stack words and the
 * return value point into it or at its words, so the lenses read the
 * text as strings, arrays, structs and formats.  Diagnostics go to
 * stderr (libFuzzer's -close_fd_mask=2 silences them). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conf.h"
#include "fake.h"
#include "protolib.h"

/* Registers that point into the input, a few bytes apart. */
static void fake_regs(struct arch_regs *r, size_t size)
{
	uint64_t at = size ? size / 7 : 0;
	const uint64_t args[6] = {
		FAKE_BASE,	    FAKE_BASE + at, 3,
		FAKE_BASE + 2 * at, (uint64_t)-1,   FAKE_BASE + 3 * at,
	};
	unsigned char *fp = (unsigned char *)&fake_fpregs;

	arch_syscall_callee(r, args, FAKE_BASE + (size / 2 & ~7UL), 0);
	arch_set_retval(r, FAKE_BASE + 4 * at);
	for (size_t i = 0; i < sizeof(fake_fpregs); i++)
		fp[i] = (unsigned char)(i / 4);
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
	struct arch_regs regs;
	fake_regs(&regs, size);
	const struct prototype *p = NULL;
	for (int n = 0; n < 64 && (p = protolib_next_proto(pl, p)); n++)
		fake_call(p, &f, &regs);
	protolib_free(pl);
	free(text);
	return 0;
}
