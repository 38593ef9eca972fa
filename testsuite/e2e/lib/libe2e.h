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

#endif
