#include "error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void (*cleanup_fn)(void);

void error_set_cleanup(void (*fn)(void))
{
	cleanup_fn = fn;
}

/* Build the whole message first so that it reaches stderr in one write. */
static void vmsg(const char *fmt, va_list ap, int err)
{
	char buf[1024];
	int n = snprintf(buf, sizeof(buf), "ltrace: ");
	n += vsnprintf(buf + n, sizeof(buf) - n, fmt, ap);
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	if (err)
		n += snprintf(buf + n, sizeof(buf) - n, ": %s", strerror(err));
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}

/* The body of each variadic function below: the message with ERR's
 * text (0 for none), errno read before anything can change it. */
#define VMSG(fmt, err)               \
	do {                         \
		int err_ = (err);    \
		va_list ap;          \
		va_start(ap, fmt);   \
		vmsg(fmt, ap, err_); \
		va_end(ap);          \
	} while (0)

void error_msg(const char *fmt, ...)
{
	VMSG(fmt, 0);
}

void perror_msg(const char *fmt, ...)
{
	VMSG(fmt, errno);
}

static noreturn void die(void)
{
	if (cleanup_fn) {
		void (*fn)(void) = cleanup_fn;
		cleanup_fn = NULL;
		fn();
	}
	exit(1);
}

void error_msg_and_die(const char *fmt, ...)
{
	VMSG(fmt, 0);
	die();
}

void perror_msg_and_die(const char *fmt, ...)
{
	VMSG(fmt, errno);
	die();
}
