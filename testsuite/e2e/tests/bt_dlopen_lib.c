/* Built twice, as libbta.so and libbtb.so (-DB): two different objects
 * that the program dlopens in turn at the same address. */
#include <string.h>

#ifdef B
static size_t pad(const char *s)
{
	char buf[256];

	strcpy(buf, s);
	return strlen(buf) + 2; /* line 11 */
}

size_t bt_len(const char *s)
{
	return pad(s) * 2; /* line 16 */
}
#else
size_t bt_len(const char *s)
{
	return strlen(s) + 1; /* line 21 */
}
#endif
