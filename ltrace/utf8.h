/* UTF-8 decoding, for the trace writer's columns and JSON strings. */
#ifndef LTRACE_UTF8_H
#define LTRACE_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length of the UTF-8 sequence at S (N bytes available, N > 0) and
 * its code point in *CP; 0 when S does not start a valid one (a stray
 * byte, an overlong form, a surrogate, past U+10FFFF, or cut short). */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

#endif
