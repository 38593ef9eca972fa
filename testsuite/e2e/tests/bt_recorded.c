/* -w on calls that --fast records (from a function's second call on):
 * the same frames as ptrace mode's.  strlen returns inside e2e_later
 * (traced, still pending: its return address on the stack is the
 * recorder's, which the backtrace must not show), under a frame with a
 * large local array (the stack copy must reach the frames above it),
 * and scrub() overwrites that stack after each return: a backtrace
 * read from the live stack later would differ. */
#include <string.h>

#include "libe2e.h"

static volatile size_t n;

static void later(void)
{
	n += strlen("callback"); /* line 16 */
}

static __attribute__((noinline)) int deep(int *out)
{
	volatile char pad[3000];
	pad[0] = 1;
	return e2e_later(later, out) + pad[0]; /* line 23 */
}

static __attribute__((noinline)) int mid(int *out)
{
	return deep(out) + 1; /* line 28 */
}

static __attribute__((noinline)) void scrub(void)
{
	volatile char junk[8192];
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = 0x5a;
}

static __attribute__((noinline)) int loop(int *out)
{
	for (int i = 0; i < 3; i++) {
		if (mid(out) != 3) /* line 41 */
			return 1;
		scrub();
	}
	return 0;
}

int main(void)
{
	int out = 0;

	return loop(&out) == 0 && n == 24 && out == 77 ? 0 : 1; /* line 52 */
}
