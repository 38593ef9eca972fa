/* Values whose JSON form --format=json defines: strings with bytes that
 * are not UTF-8 (a lone 0xff, an encoded surrogate), UTF-8 cut by -s in
 * the middle of a character, in a string longer than the lens's
 * first chunk (256 bytes: a character across two chunks), floats that
 * are not finite, bools. */
#include <math.h>
#include <string.h>

#include "libe2e.h"

int main(void)
{
	char big[400];
	volatile size_t n; /* strlen is pure: its calls are kept when used */

	memset(big, 'a', sizeof(big));
	memcpy(big + 255, "\xc3\xa9", 2); /* é across the first chunk's end */
	memcpy(big + 299, "\xc3\xa9", 2); /* -s 300 cuts it in two */
	big[sizeof(big) - 1] = 0;
	n = strlen("a\xff" "b\xed\xa0\x80" "c\xc3\xa9");
	n = strlen("tab\there \"quoted\" back\\slash");
	e2e_str("xx\xc3\xa9\xc3\xa9");
	n = strlen(big);
	e2e_double(INFINITY, NAN);
	e2e_double(-INFINITY, 0.1f);
	e2e_bool(1);
	e2e_bool(0);
	return (int)n - 399;
}
