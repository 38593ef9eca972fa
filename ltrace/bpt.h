/* Breakpoints of one address space: a hash map from address to
 * breakpoint.  Breakpoints are never lifted while the tracee runs
 * (DESIGN.md, "Breakpoints and displaced execution"): a stub
 * breakpoint's jump is emulated; the instruction under a return, a
 * rendezvous or a call site breakpoint runs displaced, from a scratch
 * slot.  A lookup is
 * one probe sequence of the map, without allocation: it happens at every
 * stop. */
#ifndef LTRACE_BPT_H
#define LTRACE_BPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "displace.h"
#include "forward.h"
#include "hmap.h"

enum bpt_kind {
	BPT_PLT,    /* call stub: a traced call starts here */
	BPT_RETURN, /* return address of a traced call */
	/* the dynamic linker's r_brk (_dl_debug_state): the loaded objects
	 * changed; its first instruction runs displaced */
	BPT_RENDEZVOUS,
	/* a function's entry (-x): a traced call starts here, and its first
	 * instruction runs displaced */
	BPT_ENTRY,
	/* a call through a GOT slot with no stub (-fno-plt): a traced call
	 * starts here, and its instruction runs displaced.  It is also the
	 * return breakpoint of a call that returns here. */
	BPT_SITE,
	/* a system call's descriptor (-S, sysdeps/linux-gnu/syscalls.c):
	 * name, label ("name@SYS") and prototype; in no table, never
	 * inserted, addr 0 */
	BPT_SYSCALL,
};

/* The longest call stub kept: x86_64's endbr64, bnd, jmp *GOT(%rip) is
 * 11 bytes, aarch64's bti c, adrp, ldr, add, br 20. */
#define BPT_STUB_MAX 20
/* The longest breakpoint instruction (ARCH_BREAKPOINT_LEN of arch.h):
 * x86_64's int3 is 1 byte, aarch64's BRK 4. */
#define BPT_INSN_MAX 4

struct breakpoint {
	uint64_t addr;
	enum bpt_kind kind;
	/* the ARCH_BREAKPOINT_LEN bytes under the breakpoint */
	uint8_t orig[BPT_INSN_MAX];
	bool inserted;
	/* BPT_PLT, BPT_ENTRY, BPT_SITE */
	char *name; /* owned: the symbol, for prototype lookup */
	/* owned: what a call line shows, "caller->callee" or "callee"
	 * (demangled with -C); the callee part, for "<... callee
	 * resumed>", starts at label + label_callee */
	char *label;
	size_t label_callee;
	uint64_t got; /* runtime address of the GOT slot */
	const struct prototype *proto;
	bool proto_done; /* proto looked up (it may be NULL) */
	/* BPT_RETURN, BPT_RENDEZVOUS, BPT_ENTRY, BPT_SITE */
	struct displaced plan;
	uint64_t slot; /* scratch slot address (DISPLACE_COPY) */
	/* BPT_ENTRY, BPT_SITE: PLAN is made at the first hit (PLANNED) */
	bool planned;
	/* BPT_ENTRY: label is "name@soname" for a library's function, and
	 * RESUMED (owned) the name "<... name resumed>" shows; RETURNS: some
	 * traced call returns to this address too.  IFUNC: a resolver, whose
	 * return value is the implementation (GOT: the IRELATIVE slot it
	 * fills, 0 if none) */
	char *resumed;
	bool returns;
	bool ifunc;
	/* BPT_SITE: the instruction's length (a call returns to addr +
	 * site_len) and whether it is a tail call (a jump: the return
	 * address is the caller's) */
	unsigned site_len;
	bool site_jump;
	/* BPT_PLT: the stub's bytes after those under the breakpoint, up
	 * to the end of its jump (STUB_LEN bytes from ADDR in all), as they
	 * were when the breakpoint went in: a stub the program rewrote since
	 * (a PLT hook) runs as it now is, untraced */
	uint8_t stub_tail[BPT_STUB_MAX - 1];
	uint8_t stub_len;
	/* BPT_PLT with --fast: its calls go to the recorder (the breakpoint
	 * lifted), or they never will (FAST_REFUSED) */
	bool fast;
	bool fast_refused;
	/* BPT_ENTRY with --fast: an entry of the C++ unwinder (fast.h,
	 * fast_select), internal: it shows no call */
	bool fast_unwind;
};

/* Address -> struct breakpoint (each allocated on its own, so a pointer
 * to a breakpoint stays valid while the table grows). */
struct bpt_table {
	struct hmap map;
};

void bpt_table_init(struct bpt_table *t);
/* Frees every breakpoint; does not touch the tracee. */
void bpt_table_destroy(struct bpt_table *t);
/* Deep copy (for a forked child with -f). */
void bpt_table_clone(struct bpt_table *dst, const struct bpt_table *src);
struct breakpoint *bpt_lookup(const struct bpt_table *t, uint64_t addr);
/* Add a new zeroed breakpoint at ADDR (which must not be present). */
struct breakpoint *bpt_add(struct bpt_table *t, uint64_t addr,
			   enum bpt_kind kind);
/* Remove B from the table and free it; does not touch the tracee. */
void bpt_remove(struct bpt_table *t, struct breakpoint *b);
/* Call FN on every breakpoint, in no particular order (FN must not add
 * breakpoints). */
void bpt_foreach(const struct bpt_table *t,
		 void (*fn)(struct breakpoint *b, void *data), void *data);

#endif
