/* -w: strlen returns to the same place in g, with the same stack
 * pointer, from a() and then from b(): the frames must follow the
 * return addresses on the stack, not the last backtrace from there. */
#include <string.h>

static volatile size_t n;

static __attribute__((noinline)) void g(const char *s)
{
	n += strlen(s); /* line 10 */
}

static __attribute__((noinline)) void a(void)
{
	g("a"); /* line 15 */
	__asm__ volatile("");
}

static __attribute__((noinline)) void b(void)
{
	g("b"); /* line 21 */
	__asm__ volatile("");
}

int main(void)
{
	for (int i = 0; i < 2; i++) {
		a(); /* line 28 */
		b(); /* line 29 */
	}
	return n == 4 ? 0 : 1;
}
