/* -w: the frames after a call's return line, for a known call chain
 * main -> f -> g -> strlen, built with -g: each frame names its
 * function and, from the debug info, the file and line of the call. */
#include <string.h>

static size_t g(const char *s)
{
	return strlen(s) + 1; /* line 8 */
}

size_t f(const char *s)
{
	return g(s) * 2; /* line 13 */
}

int main(void)
{
	return f("hello") == 12 ? 0 : 1; /* line 18 */
}
