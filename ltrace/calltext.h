/* The text of one call: its arguments and its return value.
 *
 * The trace writer (ltrace/output.h) writes "name(", then what
 * calltext_entry appended, and at the return: what calltext_return
 * appended to MORE (arguments shown at return, i.e. after a '+' in the
 * prototype), ")", padding, " = " and RET.  Neither MORE nor the entry
 * text carries a leading or trailing ", ": the writer puts ", " between
 * them when both are non-empty, also on a "<... name resumed>" line.
 *
 * With a NULL prototype the call is shown the way ltrace shows functions
 * it knows nothing about: four integer arguments and an integer return,
 * each through the "guess" lens (decimal when in -10000..10000, else hex).
 */
#ifndef LTRACE_CALLTEXT_H
#define LTRACE_CALLTEXT_H

#include "forward.h"

/* Where each shown argument lies in the text appended: argument I is
 * [at[2I], at[2I + 1]) of the buffer (offsets from its start), without
 * the ", " between arguments.  For --format's array of arguments.
 * Filled by the *_split functions; the caller owns it (zeroed to start,
 * calltext_spans_destroy to release). */
struct arg_spans {
	size_t *at;
	size_t n; /* arguments */
	size_t cap;
};
void calltext_spans_destroy(struct arg_spans *s);

/* Fetch every argument and append those shown at entry to OUT.
 * Returns a state to hand to calltext_return (never NULL), holding
 * whatever the return needs (argument values referenced by expressions,
 * the fetch cursor for out-parameters). */
struct calltext *calltext_entry(const struct lens_limits *limits,
				const struct prototype *p, struct callsite *cs,
				struct strbuf *out);

/* calltext_entry for --format: every value as JSON (lenses/lens.h,
 * fmt_ctx.json), and SPANS (emptied first) set to where each argument
 * is in OUT. */
struct calltext *calltext_entry_split(const struct lens_limits *limits,
				      const struct prototype *p,
				      struct callsite *cs, struct strbuf *out,
				      struct arg_spans *spans);

/* Keep a copy of TEXT, the entry's arguments, and of their SPANS in CT
 * until it is released, for an output that shows a call whole at its
 * return (--format). */
void calltext_keep(struct calltext *ct, const struct strbuf *text,
		   const struct arg_spans *spans);
/* What calltext_keep kept, appended to TEXT and SPANS (offsets from
 * TEXT's start); nothing if nothing was kept. */
void calltext_kept(const struct calltext *ct, struct strbuf *text,
		   struct arg_spans *spans);

/* The call failed (a system call's error, or a failure its prototype's
 * errno clause tells from the return value): the pointers among the
 * arguments shown at return are shown as their addresses, since the
 * callee did not fill what they point to (strace shows a failed
 * call's out-parameters so).  Call before calltext_return. */
void calltext_failed(struct calltext *ct);

/* At the return stop: append the arguments shown at return to MORE and
 * the return value to RET ("<void>" for void).  Releases CT: do not call
 * calltext_free after it. */
void calltext_return(struct calltext *ct, struct callsite *cs,
		     struct strbuf *more, struct strbuf *ret);

/* calltext_return for --format: the values as JSON (a void return is
 * "null"), and where the arguments shown at return are in MORE appended
 * to SPANS, offsets plus BASE. */
void calltext_return_split(struct calltext *ct, struct callsite *cs,
			   struct strbuf *more, struct strbuf *ret,
			   struct arg_spans *spans, size_t base);

/* At the return stop of a call whose state was not kept: append its
 * return value, rendered with prototype P (NULL: the default), to RET;
 * no argument is shown and none can be referenced. */
void calltext_return_value(const struct lens_limits *limits,
			   const struct prototype *p, struct callsite *cs,
			   struct strbuf *ret);

/* Release the state without showing the return (the call never
 * returned: longjmp, exit, exec). */
void calltext_free(struct calltext *ct);

#endif
