/* Functions of the end-to-end test library libe2e.so; prototypes for the
 * tracer are in e2e.conf beside this file. */
#ifndef LIBE2E_H
#define LIBE2E_H

int e2e_int(int a, int b);
unsigned e2e_uint(unsigned x);
char e2e_char(char c);
long e2e_long(long x);
double e2e_double(double d, float f);
void e2e_void(void);
void *e2e_ptr(void *p);
char *e2e_str(const char *s);
int e2e_sum(const int *a, int n);
void e2e_sethandler(int sig, void (*handler)(int));
int e2e_raise(int sig);

/* One function per type and lens of the prototype language, for the conf
 * tests (tests/conf_*.c); each returns something derived from its
 * arguments so both directions are checked. */
#include <stdbool.h>

struct e2e_inner {
	char c;
	short s;
};

struct e2e_outer {
	int a;
	struct e2e_inner in;
	double d;
	const char *name;
	struct e2e_inner *pin;
};

struct e2e_vec {
	int n;
	const int *v;
};

struct e2e_node {
	int v;
	struct e2e_node *next;
};

struct e2e_pt {
	int x, y;
};

short e2e_short(short x);
unsigned short e2e_ushort(unsigned short x);
unsigned long e2e_ulong(unsigned long x);
long long e2e_llong(long long x);
unsigned long long e2e_ullong(unsigned long long x);
float e2e_float(float f, double d);
bool e2e_bool(int x);
int e2e_color(int c);
short e2e_small(short s);
int e2e_sum3(const int *a);
int e2e_points(const struct e2e_pt *p, int n);
int e2e_argv(const char *const *v);
int e2e_zero4(const int *a);
int e2e_struct(const struct e2e_outer *o);
int e2e_vec(const struct e2e_vec *v);
int e2e_list(const struct e2e_node *n);
int e2e_strn(const char *s, int n);
int e2e_strarg(const char *s, int n);
int e2e_strfix(const char *s);
int e2e_strarr(const char *s, long n);
int e2e_printf(const char *fmt, ...);
unsigned e2e_mask(unsigned m);
int e2e_mode(int m);
int e2e_bits(unsigned b);
int e2e_hide(int a, int b, int c);
int e2e_typedef(int x);
int e2e_div(int a, int b, int *q, int *r);
int e2e_fill(char *buf, int n);
int e2e_later(void (*cb)(void), int *out);
double e2e_deref(const double *d, const char *c);

struct e2e_named {
	int id;
	char name[12];
};

int e2e_named(const struct e2e_named *n);

#endif
