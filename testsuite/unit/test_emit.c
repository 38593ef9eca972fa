/* Unit test of the lens writer's escaping and numbers (lenses/emit.c):
 * emit_chars, which escapes a string eight bytes at a time, against a
 * byte-at-a-time reference written here from ltrace's rules, for every
 * byte value at every offset of a word and on random text; emit_char in
 * both quotes; emit_dec, emit_udec and emit_hex against printf. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lens.h"
#include "strbuf.h"

/* CH as it shows inside QUOTE: C letter escapes, '"' escaped in strings
 * only, octal for other controls and bytes from DEL up. */
static void ref_char(struct strbuf *sb, unsigned char ch, char quote)
{
	static const char letters[] = "0\0\0\0\0\0\0abtnvfr";

	if (ch < 14 && letters[ch])
		strbuf_addf(sb, "\\%c", letters[ch]);
	else if (ch == '\\' || (ch == '"' && quote == '"'))
		strbuf_addf(sb, "\\%c", ch);
	else if (ch < 0x20 || ch >= 0x7f)
		strbuf_addf(sb, "\\%03o", ch);
	else
		strbuf_addch(sb, (char)ch);
}

static struct strbuf got, want;

static struct fmt_ctx ctx(void)
{
	return (struct fmt_ctx){ .sb = &got };
}

/* emit_chars of P[0..N), after a prefix so that the output does not
 * start at the buffer's start, against the reference. */
static void check_chars(const unsigned char *p, size_t n)
{
	struct fmt_ctx c = ctx();

	strbuf_reset(&got);
	strbuf_reset(&want);
	strbuf_addstr(&got, "<");
	strbuf_addstr(&want, "<");
	emit_chars(&c, p, n);
	for (size_t i = 0; i < n; i++)
		ref_char(&want, p[i], '"');
	CHECK(got.len == want.len && !memcmp(got.s, want.s, got.len),
	      "%zu bytes: got [%s] want [%s]", n, got.s, want.s);
}

/* Each byte value at each offset 0..16 of a run of plain text, followed
 * by more text or by another escape, in buffers of every length up to
 * 24: the word boundaries and the tail loop all see it. */
static void test_every_byte(void)
{
	unsigned char b[32];

	for (unsigned v = 0; v < 256; v++) {
		for (size_t at = 0; at < 17; at++) {
			for (size_t n = at + 1; n <= 24; n++) {
				memset(b, 'x', sizeof(b));
				b[at] = (unsigned char)v;
				if (at + 2 < n)
					b[at + 2] = '\n';
				check_chars(b, n);
			}
		}
	}
}

/* Random bytes weighted towards plain text, as a string is. */
static void test_random(void)
{
	unsigned char b[600];

	srand(12);
	for (int round = 0; round < 2000; round++) {
		size_t n = (size_t)rand() % sizeof(b);
		for (size_t i = 0; i < n; i++)
			b[i] = rand() % 4 ? (unsigned char)(' ' + rand() % 95) :
					    (unsigned char)rand();
		check_chars(b, n);
	}
}

static void test_char(void)
{
	for (unsigned v = 0; v < 256; v++) {
		for (int q = 0; q < 2; q++) {
			char quote = q ? '"' : '\'';
			struct fmt_ctx c = ctx();

			strbuf_reset(&got);
			strbuf_reset(&want);
			emit_char(&c, (unsigned char)v, quote);
			ref_char(&want, (unsigned char)v, quote);
			CHECK_STR(got.s, want.s);
		}
	}
}

static void test_numbers(void)
{
	static const uint64_t us[] = {
		0,
		1,
		9,
		10,
		99,
		100,
		0xf,
		0x10,
		12345678901234567890ULL,
		INT64_MAX,
		(uint64_t)INT64_MAX + 1,
		UINT64_MAX,
		0xdeadbeef,
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(us) / sizeof(us[0]); i++) {
		struct fmt_ctx c = ctx();

		strbuf_reset(&got);
		emit_udec(&c, us[i]);
		snprintf(buf, sizeof(buf), "%" PRIu64, us[i]);
		CHECK_STR(got.s, buf);
		strbuf_reset(&got);
		emit_dec(&c, (int64_t)us[i]);
		snprintf(buf, sizeof(buf), "%" PRId64, (int64_t)us[i]);
		CHECK_STR(got.s, buf);
		strbuf_reset(&got);
		emit_hex(&c, us[i]);
		snprintf(buf, sizeof(buf), "%#" PRIx64, us[i]);
		CHECK_STR(got.s, buf);
	}
}

int main(void)
{
	strbuf_init(&got);
	strbuf_init(&want);
	test_every_byte();
	test_random();
	test_char();
	test_numbers();
	strbuf_destroy(&got);
	strbuf_destroy(&want);
	return check_exit();
}
