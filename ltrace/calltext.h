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

/* Fetch every argument and append those shown at entry to OUT.
 * Returns a state to hand to calltext_return (never NULL), holding
 * whatever the return needs (argument values referenced by expressions,
 * the fetch cursor for out-parameters). */
struct calltext *calltext_entry(const struct lens_limits *limits,
				const struct prototype *p, struct callsite *cs,
				struct strbuf *out);

/* At the return stop: append the arguments shown at return to MORE and
 * the return value to RET ("<void>" for void).  Releases CT: do not call
 * calltext_free after it. */
void calltext_return(struct calltext *ct, struct callsite *cs,
		     struct strbuf *more, struct strbuf *ret);

/* Release the state without showing the return (the call never
 * returned: longjmp, exit, exec). */
void calltext_free(struct calltext *ct);

#endif
