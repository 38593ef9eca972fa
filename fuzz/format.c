/* libFuzzer target: the printf-format decoder (lenses/format.c) and the
 * lenses it hands each conversion to, over fake tracee memory backed by
 * the input.  The input is the tracee's memory at FAKE_BASE: its first byte
 * picks printf(format) or wprintf (format of 4-byte characters), the
 * format string starts at offset 64, and the argument registers, the
 * stack (at FAKE_BASE) and the floating point registers are made of its
 * words, most of them turned into addresses inside it so that %s and %ls
 * read it. */
#include <stdint.h>
#include <string.h>

#include "conf.h"
#include "fake.h"
#include "protolib.h"

#define FMT_AT 64

/* Word I of the input (zero past its end), as an address inside it
 * unless its top byte is 0xff (then as it is: unreadable, or a number). */
static uint64_t word(const struct fake_mem *f, size_t i)
{
	uint64_t w = 0;

	if (8 * i + 8 <= f->size)
		memcpy(&w, f->data + 8 * i, 8);
	if (w >> 56 == 0xff || !f->size)
		return w;
	return FAKE_BASE + w % f->size;
}

static void fake_regs(struct arch_regs *r, const struct fake_mem *f)
{
	const uint64_t args[6] = {
		FAKE_BASE + (f->size > FMT_AT ? FMT_AT : 1),
		word(f, 1),
		word(f, 2),
		word(f, 3),
		word(f, 4),
		word(f, 5),
	};

	arch_syscall_callee(r, args, FAKE_BASE, 0);
	arch_set_retval(r, word(f, 6));
	/* The input again and again, so that every argument register
	 * whatever its offset in the block holds some of it. */
	unsigned char *fp = (unsigned char *)&fake_fpregs;
	for (size_t i = 0; i < sizeof(fake_fpregs); i++)
		fp[i] = f->size ? f->data[i % f->size] : 0;
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
	struct fake_mem f;
	fake_mem_init(&f, data, size);
	const char *name = size && data[0] & 1 ? "wprintf" : "printf";
	struct arch_regs regs;
	fake_regs(&regs, &f);
	fake_call(protolib_lookup(protos, name), &f, &regs);
	return 0;
}
