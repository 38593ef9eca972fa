/* A small shared library whose calls the e2e tests trace, so that argument
 * and return rendering does not depend on libc's prototype file. */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
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

short e2e_short(short x)
{
	return -x;
}

unsigned short e2e_ushort(unsigned short x)
{
	return x + 1;
}

unsigned long e2e_ulong(unsigned long x)
{
	return x / 2;
}

long long e2e_llong(long long x)
{
	return x * 2;
}

unsigned long long e2e_ullong(unsigned long long x)
{
	return x + 1;
}

float e2e_float(float f, double d)
{
	return f + (float)d;
}

bool e2e_bool(int x)
{
	return x > 0;
}

int e2e_color(int c)
{
	return c + 1;
}

short e2e_small(short s)
{
	return s * 150;
}

int e2e_sum3(const int *a)
{
	return a[0] + a[1] + a[2];
}

int e2e_points(const struct e2e_pt *p, int n)
{
	int s = 0;

	for (int i = 0; i < n; i++)
		s += p[i].x * p[i].y;
	return s;
}

int e2e_argv(const char *const *v)
{
	int n = 0;

	while (v[n])
		n++;
	return n;
}

int e2e_zero4(const int *a)
{
	int n = 0;

	while (n < 4 && a[n])
		n++;
	return n;
}

int e2e_struct(const struct e2e_outer *o)
{
	return o->a + o->in.s + (o->pin ? o->pin->s : 0);
}

int e2e_vec(const struct e2e_vec *v)
{
	return e2e_sum(v->v, v->n);
}

int e2e_list(const struct e2e_node *n)
{
	int len = 0;

	for (; n && len < 100; n = n->next)
		len++;
	return len;
}

int e2e_strn(const char *s, int n)
{
	return (int)strnlen(s, n);
}

int e2e_strarg(const char *s, int n)
{
	return (int)strnlen(s, n);
}

int e2e_strfix(const char *s)
{
	return (int)strlen(s);
}

int e2e_strarr(const char *s, long n)
{
	(void)s;
	return (int)n;
}

int e2e_printf(const char *fmt, ...)
{
	static char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return n;
}

unsigned e2e_mask(unsigned m)
{
	return m | 0xf0;
}

int e2e_mode(int m)
{
	return m & ~022;
}

int e2e_bits(unsigned b)
{
	return __builtin_popcount(b);
}

int e2e_hide(int a, int b, int c)
{
	return a + b + c;
}

int e2e_typedef(int x)
{
	return x << 4;
}

int e2e_div(int a, int b, int *q, int *r)
{
	*q = a / b;
	*r = a % b;
	return 0;
}

int e2e_fill(char *buf, int n)
{
	static const char text[] = "filled by the callee";
	int len = (int)sizeof(text) - 1 < n ? (int)sizeof(text) - 1 : n;

	memcpy(buf, text, len);
	memset(buf + len, '#', n - len);
	return len;
}

int e2e_later(void (*cb)(void), int *out)
{
	cb();
	*out = 77;
	return 1;
}

double e2e_deref(const double *d, const char *c)
{
	return *d + *c;
}

int e2e_named(const struct e2e_named *n)
{
	return n->id + (int)strnlen(n->name, sizeof(n->name));
}
