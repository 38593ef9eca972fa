/* The lens writer in JSON (--format): every value as a JSON value, in
 * the schema ltrace(1) documents.  Strings keep every byte: what is not
 * UTF-8 is escaped as Python's "surrogateescape" decodes it, \udc80 to
 * \udcff for the bytes 0x80 to 0xff, so that
 * s.encode('utf-8', 'surrogateescape') gives the bytes back. */
#include <stdio.h>
#include <string.h>

#include "emitjson.h"
#include "strbuf.h"
#include "utf8.h"

/* The escape of a byte below 0x80 that JSON does not take bare, or
 * NULL. */
static const char *ascii_escape(unsigned char ch, char buf[8])
{
	static const char *const named[0x20] = {
		['\b'] = "\\b", ['\t'] = "\\t", ['\n'] = "\\n",
		['\f'] = "\\f", ['\r'] = "\\r",
	};

	if (ch == '"')
		return "\\\"";
	if (ch == '\\')
		return "\\\\";
	if (ch >= 0x20)
		return NULL;
	if (named[ch])
		return named[ch];
	static const char hex[] = "0123456789abcdef";
	memcpy(buf, "\\u00", 4);
	buf[4] = hex[ch >> 4];
	buf[5] = hex[ch & 15];
	buf[6] = 0;
	return buf;
}

static void escape_byte(struct strbuf *sb, unsigned char ch)
{
	static const char hex[] = "0123456789abcdef";
	char buf[8];

	if (ch >= 0x80) {
		char u[6] = { '\\', 'u', 'd', 'c', hex[ch >> 4], hex[ch & 15] };
		strbuf_add(sb, u, 6);
		return;
	}
	const char *e = ascii_escape(ch, buf);
	if (e)
		strbuf_addstr(sb, e);
	else
		strbuf_addch(sb, (char)ch);
}

/* The length of the UTF-8 sequence lead byte CH starts: 0 for none. */
static size_t lead_len(unsigned char ch)
{
	return ch >= 0xc2 && ch <= 0xdf ? 2 :
	       ch >= 0xe0 && ch <= 0xef ? 3 :
	       ch >= 0xf0 && ch <= 0xf4 ? 4 :
					  0;
}

/* True when the N bytes at P (fewer than their lead byte says) may be
 * the start of a sequence that the next bytes complete. */
static bool is_prefix(const unsigned char *p, size_t n)
{
	if (n >= lead_len(p[0]))
		return false;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return false;
	return true;
}

void json_flush(struct fmt_ctx *c)
{
	struct emit_json *j = c->json;

	for (size_t i = 0; i < j->nhold; i++)
		escape_byte(c->sb, j->hold[i]);
	j->nhold = 0;
}

/* Complete the held sequence from *P: its bytes written as they are if
 * that makes a valid one, else escaped.  Returns the bytes of P taken. */
static size_t complete_held(struct fmt_ctx *c, const unsigned char *p, size_t n)
{
	struct emit_json *j = c->json;
	size_t need = lead_len(j->hold[0]);
	size_t k = 0;
	uint32_t cp;

	while (j->nhold < need && k < n && (p[k] & 0xc0) == 0x80)
		j->hold[j->nhold++] = p[k++];
	if (j->nhold < need && k == n)
		return k; /* still cut: wait for more */
	if (utf8_decode(j->hold, j->nhold, &cp) == j->nhold) {
		strbuf_add(c->sb, j->hold, j->nhold);
		j->nhold = 0;
	} else {
		json_flush(c);
	}
	return k;
}

void json_bytes(struct fmt_ctx *c, const unsigned char *p, size_t n)
{
	size_t i = 0;

	if (c->json->nhold)
		i = complete_held(c, p, n);
	while (i < n) {
		size_t run = i;
		while (run < n && p[run] >= 0x20 && p[run] < 0x80 &&
		       p[run] != '"' && p[run] != '\\')
			run++;
		strbuf_add(c->sb, p + i, run - i);
		if ((i = run) == n)
			break;
		uint32_t cp;
		size_t len = p[i] < 0x80 ? 0 : utf8_decode(p + i, n - i, &cp);
		if (len) {
			strbuf_add(c->sb, p + i, len);
			i += len;
		} else if (p[i] >= 0x80 && is_prefix(p + i, n - i)) {
			memcpy(c->json->hold, p + i, n - i);
			c->json->nhold = n - i;
			return;
		} else {
			escape_byte(c->sb, p[i++]);
		}
	}
}

void json_string(struct strbuf *sb, const char *s)
{
	struct emit_json j = { .nhold = 0 };
	struct fmt_ctx c = { .sb = sb, .json = &j };

	strbuf_addch(sb, '"');
	json_bytes(&c, (const unsigned char *)s, strlen(s));
	json_flush(&c);
	strbuf_addch(sb, '"');
}

void json_wchar(struct fmt_ctx *c, uint32_t cp)
{
	static const unsigned char lead[] = {
		[2] = 0xc0, [3] = 0xe0, [4] = 0xf0
	};

	if (cp < 0x80) {
		escape_byte(c->sb, (unsigned char)cp);
		return;
	}
	if ((cp >= 0xd800 && cp < 0xe000) || cp > 0x10ffff)
		cp = 0xfffd;
	size_t n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
	char u[4] = { (char)(lead[n] | cp >> (6 * (n - 1))) };
	for (size_t i = 1; i < n; i++)
		u[i] = (char)(0x80 | ((cp >> (6 * (n - 1 - i))) & 0x3f));
	strbuf_add(c->sb, u, n);
}

static const char *const json_open[] = {
	[EMIT_ARRAY] = "[",	 [EMIT_STRUCT] = "[", [EMIT_RECORD] = "{",
	[EMIT_STRING] = "\"",	 [EMIT_CHAR] = "\"",  [EMIT_BITVEC] = "[",
	[EMIT_BITVEC_NOT] = "[", [EMIT_ARGS] = "",
};
static const char *const json_close[] = {
	[EMIT_ARRAY] = "]",	 [EMIT_STRUCT] = "]", [EMIT_RECORD] = "}",
	[EMIT_STRING] = "\"",	 [EMIT_CHAR] = "\"",  [EMIT_BITVEC] = "]",
	[EMIT_BITVEC_NOT] = "]", [EMIT_ARGS] = "",
};

void json_begin(struct fmt_ctx *c, enum emit_group g)
{
	struct emit_json *j = c->json;

	if (j->nopen < EMIT_MAX_OPEN)
		j->open[j->nopen] = c->sb->len;
	j->nopen++;
	strbuf_addstr(c->sb, json_open[g]);
}

/* Put the value written since offset AT in {"KEY":value,"truncated":true}. */
static void wrap_truncated(struct fmt_ctx *c, size_t at, const char *key)
{
	struct strbuf *sb = c->sb;
	char head[16];
	size_t n = (size_t)snprintf(head, sizeof(head), "{\"%s\":", key);
	size_t tail = sb->len - at;

	strbuf_reserve(sb, n);
	memmove(sb->s + at + n, sb->s + at, tail);
	memcpy(sb->s + at, head, n);
	strbuf_commit(sb, sb->s + at + n + tail);
	strbuf_addstr(sb, ",\"truncated\":true}");
}

/* A string or an array that -s or -A (or the budget) cut is an object:
 * {"string":"abc","truncated":true}, {"array":[1,2],"truncated":true}. */
void json_end(struct fmt_ctx *c, enum emit_group g, bool more)
{
	struct emit_json *j = c->json;
	size_t at = j->nopen ? j->open[j->nopen - 1] : 0;
	bool known = j->nopen && j->nopen <= EMIT_MAX_OPEN;

	if (j->nopen)
		j->nopen--;
	if (g == EMIT_STRING || g == EMIT_CHAR)
		json_flush(c);
	strbuf_addstr(c->sb, json_close[g]);
	if (more && known && (g == EMIT_STRING || g == EMIT_ARRAY))
		wrap_truncated(c, at, g == EMIT_STRING ? "string" : "array");
}
