/* A library built with -g whose prototypes the DWARF reader derives. */
#ifndef LIBDWFIX_H
#define LIBDWFIX_H

#include <stdbool.h>
#include <stddef.h>

enum color { RED, GREEN = 5, BLUE };

struct point {
	int x;
	int y;
	double weight;
};

struct list {
	int value;
	struct list *next;
};

struct named {
	char name[16];
	int counts[4];
	union {
		int i;
		double d;
	} u;
	unsigned flags : 3;
	unsigned mode : 5;
	long tail;
};

typedef const char *cstr;
typedef int (*callback)(int, void *);

char dw_char(char c);
short dw_short(short s);
unsigned short dw_ushort(unsigned short s);
int dw_int(int i);
unsigned dw_uint(unsigned u);
long dw_long(long l);
unsigned long dw_ulong(unsigned long l);
long long dw_llong(long long l);
unsigned long long dw_ullong(unsigned long long l);
double dw_double(double d, float f);
bool dw_bool(bool b);
size_t dw_strlen(const char *s);
cstr dw_typedef_str(cstr s);
void *dw_voidp(void *p, const void *q);
enum color dw_enum(enum color c);
double dw_point(const struct point *p);
int dw_list_sum(struct list *l);
int dw_named(struct named *n);
int dw_apply(callback cb, int x, void *data);
int dw_printf(int level, const char *fmt, ...);
int dw_varargs(int n, ...);
void dw_void(void);
struct point dw_point_by_value(struct point p);

#endif
