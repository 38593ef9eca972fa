/* Unit test of the lens writer's escaping and numbers (lenses/emit.c):
 * emit_chars, which escapes a string eight bytes at a time, against a
 * byte-at-a-time reference written here from ltrace's rules, for every
 * byte value at every offset of a word and on random text; emit_char in
 * both quotes; emit_dec, emit_udec and emit_hex against printf; the JSON
 * mode: strings in pieces decode (surrogateescape) to their bytes, cut
 * values wrapped, typed primitives. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lens.h"
#include "strbuf.h"
#include "utf8.h"

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

/* Short strings, read as one zero-padded word, and long ones (-s
 * 9999999), mostly plain as real text is, an escape now and then. */
static void test_random_lengths(void)
{
	static unsigned char b[70000];

	srand(28);
	for (int round = 0; round < 20000; round++) {
		size_t n = round < 19900 ? (size_t)rand() % 24 :
					   (size_t)rand() % sizeof(b);
		size_t off = (size_t)rand() % 8; /* any alignment */
		for (size_t i = 0; i < n; i++)
			b[off + i] =
				rand() % 64 ?
					(unsigned char)(' ' + rand() % 95) :
					(unsigned char)rand();
		if (off + n <= sizeof(b))
			check_chars(b + off, n);
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
		strbuf_reset(&got);
		emit_oct(&c, us[i]);
		snprintf(buf, sizeof(buf), "0%" PRIo64, us[i]);
		CHECK_STR(got.s, buf);
	}
	struct fmt_ctx c = ctx();
	strbuf_reset(&got);
	emit_bit_range(&c, 3, 3);
	emit_bit_range(&c, 10, 12);
	emit_bad_wchar(&c, 0x110000);
	CHECK_STR(got.s, "310-12\\x{110000}");
}

/* ---- JSON (lenses/emitjson.c) ---- */

static unsigned hexval(const char *p)
{
	unsigned v = 0;

	for (int i = 0; i < 4; i++)
		v = v * 16 + (unsigned)(p[i] <= '9' ? p[i] - '0' :
						      (p[i] | 0x20) - 'a' + 10);
	return v;
}

/* The bytes the JSON string at S (after its '"') stands for, decoded as
 * Python's json and .encode('utf-8', 'surrogateescape') do, into OUT;
 * false if it is not a JSON string of valid UTF-8 ending at S's end. */
static bool json_decode(const char *s, struct strbuf *out)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";

	while (*s && *s != '"') {
		const unsigned char *u = (const unsigned char *)s;
		uint32_t cp;
		if (*u < 0x20)
			return false;
		if (*s != '\\') {
			size_t n = *u < 0x80 ? 1 :
					       utf8_decode(u, strlen(s), &cp);
			if (!n)
				return false;
			strbuf_add(out, s, n);
			s += n;
			continue;
		}
		const char *e = strchr(from, s[1]);
		if (e && s[1]) {
			strbuf_addch(out, to[e - from]);
			s += 2;
			continue;
		}
		if (s[1] != 'u')
			return false;
		unsigned v = hexval(s + 2);
		if (v >= 0xdc80 && v <= 0xdcff)
			strbuf_addch(out, (char)(v & 0xff));
		else if (v < 0x80)
			strbuf_addch(out, (char)v);
		else
			return false; /* we write no other \u */
		s += 6;
	}
	return *s == '"' && !s[1];
}

/* Random bytes (UTF-8 sequences, bytes of broken ones, controls),
 * written as a string in random pieces, decode to themselves: UTF-8 cut
 * between two pieces is held, not escaped. */
static void test_json_strings(void)
{
	static const char *const atoms[] = {
		"a",	    "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
		"\xff",	    "\xc3",	"\xed\xa0\x80", "\"",
		"\\",	    "\n",	"\x01",		"\x7f",
		"\xe2\x82", "\x80",	"\xc0\xaf",	""
	};
	struct emit_json js;
	struct strbuf back;

	strbuf_init(&back);
	srand(7);
	for (int round = 0; round < 3000; round++) {
		unsigned char in[64];
		size_t n = 0;
		while (n < 48) {
			const char *a = atoms[rand() % 16];
			memcpy(in + n, a, strlen(a));
			n += strlen(a);
		}
		struct fmt_ctx c = { .sb = &got, .json = &js };
		js.nopen = js.nhold = 0;
		strbuf_reset(&got);
		strbuf_reset(&back);
		emit_begin(&c, EMIT_STRING);
		for (size_t i = 0, k; i < n; i += k) {
			k = (size_t)rand() % 5;
			k = k > n - i ? n - i : k;
			emit_chars(&c, in + i, k);
		}
		emit_end(&c, EMIT_STRING, false);
		bool ok = got.s[0] == '"' && json_decode(got.s + 1, &back);
		CHECK(ok && back.len == n && !memcmp(back.s, in, n),
		      "round %d: [%s]", round, got.s);
	}
	strbuf_destroy(&back);
}

/* A cut string and a cut array are wrapped; numbers, enums, chars. */
static void test_json_values(void)
{
	struct emit_json js = { .nopen = 0 };
	struct fmt_ctx c = { .sb = &got, .json = &js };

	strbuf_reset(&got);
	emit_begin(&c, EMIT_ARRAY);
	emit_begin(&c, EMIT_STRING);
	emit_chars(&c, (const unsigned char *)"ab\xc3", 3);
	emit_end(&c, EMIT_STRING, true);
	emit_sep(&c, EMIT_ARRAY, 1);
	emit_hexint(&c, 255);
	emit_sep(&c, EMIT_ARRAY, 2);
	emit_oct(&c, 8);
	emit_sep(&c, EMIT_ARRAY, 3);
	emit_symbol(&c, "RED", 1, true);
	emit_sep(&c, EMIT_ARRAY, 4);
	emit_symbol(&c, NULL, -2, true);
	emit_sep(&c, EMIT_ARRAY, 5);
	emit_addr(&c, 0);
	emit_sep(&c, EMIT_ARRAY, 6);
	emit_addr(&c, 0x10);
	emit_sep(&c, EMIT_ARRAY, 7);
	emit_double(&c, "%f", 0.1);
	emit_sep(&c, EMIT_ARRAY, 8);
	emit_double(&c, "%f", -1.0 / 0.0);
	emit_sep(&c, EMIT_ARRAY, 9);
	emit_char(&c, '\'', '\'');
	emit_sep(&c, EMIT_ARRAY, 10);
	emit_recurse(&c, 2);
	emit_end(&c, EMIT_ARRAY, true);
	CHECK_STR(got.s,
		  "{\"array\":[{\"string\":\"ab\\udcc3\",\"truncated\":true},"
		  "255,8,{\"symbol\":\"RED\",\"value\":1},"
		  "{\"symbol\":null,\"value\":-2},null,\"0x10\",0.1,"
		  "\"-inf\",',{\"recurse\":2}],\"truncated\":true}");
	CHECK(js.nopen == 0);
}

int main(void)
{
	strbuf_init(&got);
	strbuf_init(&want);
	test_every_byte();
	test_random();
	test_random_lengths();
	test_char();
	test_numbers();
	test_json_strings();
	test_json_values();
	strbuf_destroy(&got);
	strbuf_destroy(&want);
	return check_exit();
}
