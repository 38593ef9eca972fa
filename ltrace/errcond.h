/* Failure conditions of prototypes: "errno(ALT|...)" after a conf
 * declaration's parameters says which return values mean the call
 * failed, and only then is the thread's errno shown, as strace shows a
 * failed system call's (ltrace.conf(5)).  An ALT is an integer (the
 * return equals it), nil or NULL (0), <0 (negative as a signed value
 * of the return type's size), !=0, or changed (errno differs from its
 * value at the entry: for functions such as strtol, whose failure
 * value is also a valid result), or ret (a return in 1..4095 is itself
 * the error number, errno is not read: pthread_mutex_lock). */
#ifndef LTRACE_ERRCOND_H
#define LTRACE_ERRCOND_H

#include <stdbool.h>

#include "forward.h"
#include "type.h"

struct lex;

/* The clause at LX's cursor, just after "errno", into PR->fail; its
 * return type is PR->ret.  False after an error (reported by LX). */
bool errcond_parse(struct lex *lx, struct prototype *pr);

/* Whether P has a clause: its calls may show errno. */
static inline bool errcond_any(const struct prototype *p)
{
	return p && (p->fail.flags || p->fail.nvalues);
}

/* Whether P's calls may read the thread's errno at their return (all
 * clauses but a lone "ret", whose return is the error number). */
static inline bool errcond_reads(const struct prototype *p)
{
	return p && ((p->fail.flags & ~ERRCOND_RET) || p->fail.nvalues);
}

/* Whether P's calls want the thread's errno read at their entry. */
static inline bool errcond_at_entry(const struct prototype *p)
{
	return p && (p->fail.flags & ERRCOND_CHANGED);
}

/* The errno P's call failed with, returning at stop CS, or 0: its
 * return meets P's condition and the thread's errno is known and not 0.
 * ENTRY is the errno read at the entry, NULL if not read.  The errno
 * is read only when the return meets the condition (always for
 * changed). */
int errcond_errno(const struct prototype *p, struct callsite *cs,
		  const int *entry);

/* Whether P's return at CS meets its values, classes or ret: a failure
 * told by the value, after which the callee wrote no out-parameter (not
 * so for changed: strtol sets its end pointer on ERANGE too). */
bool errcond_value_failed(const struct prototype *p, struct callsite *cs);

#endif
