/* Out-parameters ('+') in ltrace 0.7.91's style, lines without ';'
 * (conf_outparams_nosemi.conf): what the callee stored is printed at
 * the return, a string as long as the return value, an argument or a
 * constant says.  The program's own functions, traced with -x; built
 * without debug information, so that only the conf file describes
 * them. */
#include <string.h>

#define NOINLINE __attribute__((noinline))

NOINLINE void out_int(int *p)
{
	*p = 42;
}

/* N bytes of text at BUF, not terminated; how many are text. */
NOINLINE int out_fill(char *buf, int n)
{
	static const char text[] = "filled by the callee";
	int len = (int)sizeof(text) - 1 < n ? (int)sizeof(text) - 1 : n;

	memcpy(buf, text, len);
	memset(buf + len, '#', n - len);
	return len;
}

NOINLINE void out_argn(int n, char *buf)
{
	(void)n;
	strcpy(buf, "abcdefgh");
}

NOINLINE void out_four(char *buf)
{
	strcpy(buf, "wxyz1234");
}

int main(void)
{
	char buf[32];
	int v = -1;

	memset(buf, '.', sizeof(buf));
	out_int(&v);
	out_fill(buf, 6);
	out_fill(buf, 24);
	out_argn(3, buf);
	out_four(buf);
	return 0;
}
