/* Breakpoints of one address space: a hash map from address to
 * breakpoint.  Breakpoints are never lifted while the tracee runs
 * (DESIGN.md, "Breakpoints and displaced execution"): a stub
 * breakpoint's jump is emulated; the instruction under a return, a
 * rendezvous or a call site breakpoint runs displaced, from a scratch
 * cell.  A lookup is
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
	BPT_STUB,   /* call stub: a traced call starts here */
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

/* The longest call stub kept: x86_64's (with its IBT and MPX prefixes)
 * is 11 bytes, aarch64's (bti, adrp, ldr, add, br) 20. */
#define BPT_STUB_MAX 20
/* The longest breakpoint instruction (ARCH_BREAKPOINT_LEN of arch.h):
 * x86_64's is 1 byte, aarch64's 4. */
#define BPT_INSN_MAX 4

/* The call part of the kinds a traced call starts at (BPT_STUB,
 * BPT_ENTRY, BPT_SITE) and of a system call's descriptor (BPT_SYSCALL). */
struct bpt_call {
	char *name; /* owned: the symbol, for prototype lookup */
	/* owned: what a call line shows, "caller->callee" or "callee"
	 * (demangled with -C); the callee part, for "<... callee
	 * resumed>", starts at label + label_callee */
	char *label;
	size_t label_callee;
	uint64_t got; /* runtime address of the GOT slot */
	const struct prototype *proto;
	bool proto_done; /* proto looked up (it may be NULL) */
};

/* BPT_STUB: the stub's bytes after those under the breakpoint, up to the
 * end of its jump (LEN bytes from the breakpoint's address in all), as
 * they were when the breakpoint went in: a stub the program rewrote since
 * (a PLT hook) runs as it now is, untraced.  With --fast: its calls go to
 * the recorder (the breakpoint lifted: FAST), or they never will
 * (FAST_REFUSED).  ADDR_READ: code may read the function's address in
 * its slot (struct plt_entry). */
struct bpt_stub {
	uint8_t tail[BPT_STUB_MAX - 1];
	uint8_t len;
	bool fast;
	bool fast_refused;
	bool addr_read;
};

/* BPT_ENTRY: the call's label is "name@soname" for a library's function,
 * and RESUMED (owned) the name "<... name resumed>" shows; RETURNS: some
 * traced call returns to this address too.  IFUNC: a resolver, whose
 * return value is the implementation (the call's GOT: the IRELATIVE slot
 * it fills, 0 if none).  FAST_UNWIND: with --fast, an entry of the C++
 * unwinder (fast.h, fast_select), internal: it shows no call. */
struct bpt_entry {
	char *resumed;
	bool returns;
	bool ifunc;
	bool fast_unwind;
	uint64_t size;	   /* the symbol's bytes (0: unknown) */
	bool fast_refused; /* --fast: its entry stays a breakpoint */
	/* --fast: failed tries to stop the other threads for its patch,
	 * and the entries to let pass before the next */
	uint16_t fast_tries;
	uint32_t fast_wait;
};

/* BPT_SITE: the instruction's length (a call returns to addr + LEN) and
 * whether it is a tail call (a jump: the return address is the
 * caller's). */
struct bpt_site {
	unsigned len;
	bool jump;
};

struct bpt_stop;

/* The handlers of one kind, as upstream ltrace's struct bp_callbacks:
 * the backend's event loop (sysdeps/linux-gnu/loop.c) gives one per kind
 * to bpt_set_ops, and calls them through each breakpoint's OPS instead
 * of telling the kinds apart itself.  S is the loop's stop context. */
struct bpt_ops {
	/* T stopped on B (inserted), its IP set back to B's address: show
	 * what the hit means and set T's registers for it to go on. */
	void (*hit)(struct task *t, struct breakpoint *b, struct bpt_stop *s);
	/* A traced call that started at B returned, T's registers as the
	 * return left them, after its line was shown; NULL if the kind has
	 * nothing more to do then. */
	void (*returned)(struct task *t, const struct breakpoint *b,
			 struct bpt_stop *s);
};

/* A breakpoint: the head every kind has, then its kind's part. */
struct breakpoint {
	uint64_t addr;
	enum bpt_kind kind;
	const struct bpt_ops *ops; /* the kind's handlers */
	/* the ARCH_BREAKPOINT_LEN bytes under the breakpoint */
	uint8_t orig[BPT_INSN_MAX];
	bool inserted;
	/* The kinds whose instruction runs displaced (BPT_RETURN,
	 * BPT_RENDEZVOUS, BPT_ENTRY, BPT_SITE): how (displace.h), and the
	 * scratch cell of its copy (DISPLACE_COPY).  BPT_ENTRY and BPT_SITE
	 * prepare DISP at their first hit (DISP_READY). */
	struct displaced disp;
	uint64_t cell;
	bool disp_ready;
	struct bpt_call call; /* BPT_STUB, BPT_ENTRY, BPT_SITE, BPT_SYSCALL */
	union {
		struct bpt_stub stub;
		struct bpt_entry entry;
		struct bpt_site site;
	};
};

/* Address -> struct breakpoint (each allocated on its own, so a pointer
 * to a breakpoint stays valid while the table grows). */
struct bpt_table {
	struct hmap map;
};

/* The handlers of each kind (BY_KIND[kind], NULL for a kind never hit)
 * that breakpoints added from now on point to; none before. */
void bpt_set_ops(const struct bpt_ops *const *by_kind);
void bpt_table_init(struct bpt_table *t);
/* Frees every breakpoint; does not touch the tracee. */
void bpt_table_destroy(struct bpt_table *t);
/* Deep copy (for a forked child with -f). */
void bpt_table_clone(struct bpt_table *dst, const struct bpt_table *src);
struct breakpoint *bpt_lookup(const struct bpt_table *t, uint64_t addr);
/* Add a new zeroed breakpoint of KIND at ADDR (which must not be
 * present), with its kind's handlers (bpt_set_ops). */
struct breakpoint *bpt_add(struct bpt_table *t, uint64_t addr,
			   enum bpt_kind kind);
/* Remove B from the table and free it; does not touch the tracee. */
void bpt_remove(struct bpt_table *t, struct breakpoint *b);
/* Call FN on every breakpoint, in no particular order (FN must not add
 * breakpoints). */
void bpt_foreach(const struct bpt_table *t,
		 void (*fn)(struct breakpoint *b, void *data), void *data);

#endif
