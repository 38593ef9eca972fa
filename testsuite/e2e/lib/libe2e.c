/* A small shared library whose calls the e2e tests trace, so that argument
 * and return rendering does not depend on libc's prototype file. */
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include "libe2e.h"

int e2e_int(int a, int b)
{
	return a - b;
}

unsigned e2e_uint(unsigned x)
{
	return x * 2;
}

char e2e_char(char c)
{
	return c + 1;
}

long e2e_long(long x)
{
	return -x;
}

double e2e_double(double d, float f)
{
	return d * f;
}

void e2e_void(void)
{
}

void *e2e_ptr(void *p)
{
	return p;
}

char *e2e_str(const char *s)
{
	return s ? (char *)s + 1 : NULL;
}

int e2e_sum(const int *a, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

void e2e_sethandler(int sig, void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigaction(sig, &sa, NULL);
}

int e2e_raise(int sig)
{
	return raise(sig);
}
