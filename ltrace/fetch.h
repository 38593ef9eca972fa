/* The contract between the text of a call (ltrace/calltext.c, lenses/)
 * and the architecture's calling convention (sysdeps/<arch>/fetch.c).
 *
 * fetch_begin snapshots the registers of the entry stop, so arguments can
 * be fetched again at the return stop (out-parameters, parameter packs
 * printed at return) from the values they had at entry; memory (stack
 * words, pointees) is read through whatever memsrc the caller passes, at
 * the time of the call. */
#ifndef LTRACE_FETCH_H
#define LTRACE_FETCH_H

#include <stdbool.h>
#include <stddef.h>

#include "forward.h"

struct fetch_ctx;

/* Start fetching the arguments of a call whose return type is RET (a
 * struct returned in memory takes the first integer register).  CS is at
 * its entry stop.  With WANT_FP the floating point registers are
 * snapshotted now; otherwise they are read only if an SSE argument is
 * fetched while CS is still at entry.  Never NULL. */
struct fetch_ctx *fetch_begin(struct callsite *cs, const struct type *ret,
			      bool want_fp);

/* Fetch the next argument of type T into BUF (fetch_bufsize(T) bytes).  An
 * array parameter decays to a pointer (8 bytes).  CS is the current stop
 * (entry or return) and is used for memory and lazy fpregs.  Returns 0,
 * or -1 when the value cannot be read (the bytes not read are zero). */
int fetch_arg(struct fetch_ctx *f, struct callsite *cs, const struct type *t,
	      void *buf);

/* A copy of F's cursor position, to fetch again from there. */
struct fetch_ctx *fetch_clone(const struct fetch_ctx *f);

/* At the return stop CS: the return value of type T into BUF
 * (fetch_bufsize(T) bytes).  Returns 0, or -1 as fetch_arg. */
int fetch_retval(struct fetch_ctx *f, struct callsite *cs, const struct type *t,
		 void *buf);

void fetch_free(struct fetch_ctx *f);

/* Bytes of buffer a fetched value of type T needs. */
size_t fetch_bufsize(const struct type *t);

#endif
