#include <stdarg.h>
#include <stdio.h>

#include "libdwfix.h"

char dw_char(char c) { return c; }
short dw_short(short s) { return s; }
unsigned short dw_ushort(unsigned short s) { return s; }
int dw_int(int i) { return i; }
unsigned dw_uint(unsigned u) { return u; }
long dw_long(long l) { return l; }
unsigned long dw_ulong(unsigned long l) { return l; }
long long dw_llong(long long l) { return l; }
unsigned long long dw_ullong(unsigned long long l) { return l; }
double dw_double(double d, float f) { return d + f; }
bool dw_bool(bool b) { return !b; }

size_t dw_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

cstr dw_typedef_str(cstr s) { return s; }
void *dw_voidp(void *p, const void *q) { return q ? p : NULL; }
enum color dw_enum(enum color c) { return c == RED ? BLUE : c; }
double dw_point(const struct point *p) { return p->x * p->weight + p->y; }

int dw_list_sum(struct list *l)
{
	int s = 0;

	for (; l; l = l->next)
		s += l->value;
	return s;
}

int dw_named(struct named *n)
{
	return n->name[0] + n->counts[3] + n->u.i + (int)n->flags +
	       (int)n->tail;
}

int dw_apply(callback cb, int x, void *data) { return cb(x, data); }

int dw_printf(int level, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = level + vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int dw_varargs(int n, ...)
{
	va_list ap;
	int s = 0;

	va_start(ap, n);
	while (n-- > 0)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

void dw_void(void) {}

struct point dw_point_by_value(struct point p)
{
	p.x++;
	return p;
}

/* Not external: must not be found. */
static int dw_static(int x) { return x; }
int (*dw_static_ptr)(int) = dw_static;
