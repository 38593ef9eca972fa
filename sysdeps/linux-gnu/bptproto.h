/* Which prototype describes the function a breakpoint traces, looked up
 * once per breakpoint at its first call: the prototype files, then the
 * DWARF of the loaded objects. */
#ifndef LTRACE_BPTPROTO_H
#define LTRACE_BPTPROTO_H

#include "forward.h"

struct dwarf_protos;

/* The prototype files PS and the DWARF tables D to look in; both stay
 * the caller's and must outlive every breakpoint hit. */
void bptproto_init(struct protoset *ps, struct dwarf_protos *d);

/* The prototype of B's function for T's process (NULL: none), kept in B
 * (proto, proto_done) from the first call on. */
const struct prototype *bptproto_resolve(struct task *t, struct breakpoint *b);

#endif
