/* Diagnostics: one write per message, always to stderr, never into the
 * trace stream.  Messages are prefixed with "ltrace: ". */
#ifndef LTRACE_ERROR_H
#define LTRACE_ERROR_H

#include <stdnoreturn.h>

void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As error_msg, with ": strerror(errno)" appended. */
void perror_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print, run the registered cleanup (detach every tracee), exit(1). */
noreturn void error_msg_and_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
noreturn void perror_msg_and_die(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* The function error_msg_and_die calls before exiting; NULL for none. */
void error_set_cleanup(void (*fn)(void));

#endif
