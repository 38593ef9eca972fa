/* The JSON side of the lens writer (lenses/emitjson.c), for emit.c:
 * the primitives of lens.h call these when c->json is set. */
#ifndef LTRACE_EMITJSON_H
#define LTRACE_EMITJSON_H

#include "lens.h"

/* Bytes inside a JSON string: UTF-8 as it is, '"', '\\' and controls
 * escaped, a byte of no valid UTF-8 sequence as \udcXX (XX the byte).
 * A sequence cut at the end of P is held for the next call or for
 * json_flush. */
void json_bytes(struct fmt_ctx *c, const unsigned char *p, size_t n);
/* The bytes held by json_bytes, escaped: the string ends. */
void json_flush(struct fmt_ctx *c);
/* S, NUL-terminated, as a whole JSON string. */
void json_string(struct strbuf *sb, const char *s);
/* Code point CP inside a JSON string (U+FFFD for none). */
void json_wchar(struct fmt_ctx *c, uint32_t cp);
void json_begin(struct fmt_ctx *c, enum emit_group g);
void json_end(struct fmt_ctx *c, enum emit_group g, bool more);

#endif
