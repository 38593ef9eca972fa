#include "utf8.h"

/* The length of the UTF-8 sequence at S (N bytes available) and its code
 * point in *CP; 0 when S does not start a valid one (a stray byte, an
 * overlong form, a surrogate, past U+10FFFF, or cut short). */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len = s[0] >= 0xc2 && s[0] <= 0xdf ? 2 :
		     s[0] >= 0xe0 && s[0] <= 0xef ? 3 :
		     s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 :
						    0;
	if (!len || len > n)
		return 0;
	uint32_t c = s[0] & (0x7f >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	static const uint32_t least[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c < 0xe000))
		return 0;
	*cp = c;
	return len;
}
