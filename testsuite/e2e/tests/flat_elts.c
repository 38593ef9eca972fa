/* Arrays of structs whose members are integers and strings behind
 * pointers (lenses/flat.c shows them without the lens dispatch): every
 * kind of member and length the flat path takes, the edge cases of
 * each (nil, unreadable, a length past -s, a negative one, a length
 * member past the struct), a hidden member, and structs it leaves to
 * the generic path (a hex() member, a char member).  writev, readv and
 * pwritev on fd -1 fail before they read anything: the arrays are only
 * the tracer's to show, each function's through its own view. */
#include <sys/uio.h>
#include <unistd.h>

struct rec {
	const char *name; /* string[elt2] */
	int len;
	short s;
	long l;
	const char *z;	/* string: up to the NUL */
	const char *c5; /* string[5] */
	const char *bad; /* string[elt9]: no member 9 */
	int hidden;
	unsigned short us;
};

struct hrec {
	const char *name; /* string[elt2] */
	int n;		  /* hex(int) */
	short s;
};

struct odd {
	char c;
	const char *name;
};

int main(void)
{
	static struct rec r[] = {
		{ "abc", 3, -2, -5L, "zed", "12345678", "q", 42, 65535 },
		{ 0, 0, 7, 1L << 40, 0, 0, 0, 0, 0 },
		{ "long string past -s", 20, 0, 0, "x\ny\t\"z\"", "ab\0cd", "w", 1, 1 },
		{ "neg", -1, -32768, -1L, "", "", "v", 2, 2 },
		{ (const char *)8, 4, 1, 1, (const char *)16, (const char *)24, 0, 3, 3 },
		{ "cut by -A", 9, 0, 0, 0, 0, 0, 0, 0 },
	};
	static struct hrec h[] = { { "abc", 255, -2 }, { 0, 16, 3 } };
	static struct odd o[] = { { 'a', "one" }, { '\n', "two" } };

	writev(-1, (const struct iovec *)r, 6);
	readv(-1, (const struct iovec *)h, 2);
	pwritev(-1, (const struct iovec *)o, 2, 0);
	return 0;
}
