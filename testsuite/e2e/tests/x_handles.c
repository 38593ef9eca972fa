/* The program's own functions taking the C library's handles, which its
 * DWARF (-g) describes whole from the headers: struct _IO_FILE, struct
 * __jmp_buf_tag, struct __va_list_tag, pthread_mutex_t's union.  And a
 * struct of its own, which stays shown member by member. */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>

struct point {
	int x, y;
	FILE *out;
};

__attribute__((noinline)) long h_file(FILE *f, const FILE *g)
{
	return f == g;
}

__attribute__((noinline)) FILE *h_open(const char *path)
{
	return fopen(path, "r");
}

__attribute__((noinline)) int h_dir(DIR *d)
{
	return d != NULL;
}

__attribute__((noinline)) int h_lock(pthread_mutex_t *m)
{
	return pthread_mutex_lock(m);
}

__attribute__((noinline)) int h_jmp(jmp_buf env)
{
	return env != NULL;
}

__attribute__((noinline)) int h_va(int n, va_list ap)
{
	return n + va_arg(ap, int);
}

__attribute__((noinline)) int h_vcall(int n, ...)
{
	va_list ap;
	va_start(ap, n);
	int r = h_va(n, ap);
	va_end(ap);
	return r;
}

__attribute__((noinline)) int h_point(struct point *p)
{
	return p->x + p->y;
}

int main(void)
{
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	jmp_buf env;
	FILE *f = h_open("/dev/null");
	struct point p = { 1, 2, f };

	h_file(f, stdout);
	h_dir(NULL);
	h_lock(&m);
	h_jmp(env);
	h_vcall(1, 2);
	h_point(&p);
	fclose(f);
	return 0;
}
