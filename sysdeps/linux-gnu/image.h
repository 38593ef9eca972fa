/* The objects of a process as the tracer prepares them: the program read
 * at an exec or an attach (its ELF file, load bias, scratch memory near
 * it), the call stubs of each object the filters select given a
 * breakpoint, a page at a time; the breakpoints of an object that goes
 * dropped; and the original bytes put back.  The breakpoint instruction
 * is the architecture's (ARCH_BREAKPOINT, ARCH_BREAKPOINT_LEN bytes):
 * every read and write of it goes through the functions here. */
#ifndef LTRACE_IMAGE_H
#define LTRACE_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "forward.h"

/* Write the breakpoint instruction at ADDR through MEMFD: mem_write's
 * result. */
int image_write_bpt(int memfd, uint64_t addr);
/* Whether CODE (ARCH_BREAKPOINT_LEN bytes) is the breakpoint
 * instruction. */
bool image_is_bpt(const uint8_t *code);
/* Write B's original bytes back at its address: mem_write's result. */
int image_write_orig(int memfd, const struct breakpoint *b);
/* BUF[0..N) holds the bytes at ADDR as read from the tracee: put back
 * the original bytes under every breakpoint of T in place there. */
void image_undo_bpts(const struct bpt_table *t, uint64_t addr, uint8_t *buf,
		     size_t n);

/* Before anything else: the options whose filters select the stubs. */
void image_init(const struct options *o);
/* The library_new flags of an object the dynamic linker brought: its
 * stubs are read only when the filters may select one of them
 * (select_library_calls). */
unsigned image_library_flags(void);
/* T's process has just been started, attached or exec'd (and knows no
 * object): open its /proc/PID/mem, read its program into its objects,
 * map scratch memory near it (T is stopped; its registers are left as
 * they were) and put breakpoints on its selected call stubs.  Errors are
 * reported; the process is then traced with what could be done. */
void image_setup(struct task *t);
/* LIBS[0..N) have just been appended to P's objects (P is stopped, or
 * the objects are not yet reachable by its running threads): put
 * breakpoints on their selected stubs, and on the stubs of the other
 * objects that now call into a library -l selects. */
void image_add(struct process *p, struct library *const *libs, size_t n);
/* L (still in P's objects) is no longer mapped: drop every breakpoint in
 * its span from P's table, and the pending calls that depended on it,
 * writing nothing to the tracee. */
void image_remove(struct process *p, const struct library *l);
/* Which breakpoints image_restore_bytes puts back: those in place, and
 * those lifted since they were (a fork child's copy of the memory may
 * hold the breakpoint of one lifted after the fork: the fork came before the
 * lift, its report after; the child would stop on it for ever, or die
 * of it untraced). */
enum { IMAGE_INSERTED = 1, IMAGE_LIFTED = 2 };
/* Write back the original bytes of every breakpoint of BPTS that WHICH
 * names through MEMFD, a page at a time, where the breakpoint still is
 * (a byte the program changed since stays the program's); the table
 * itself is not changed. */
void image_restore_bytes(const struct bpt_table *bpts, int memfd,
			 unsigned which);
/* Whether the stub under B (BPT_PLT) no longer has the bytes it had when
 * its breakpoint went in, read through M (a PLT hook rewrote its jump): then
 * its jump must not be emulated. */
bool image_stub_changed(const struct breakpoint *b, struct memsrc *m);
/* Put B's original bytes back in P and mark it not inserted: the code
 * there runs as the program left it, untraced.  B stays in the table,
 * since pending calls may point to it. */
void image_lift(struct process *p, struct breakpoint *b);
/* Whether B is ours but no longer in place (lifted, by image_lift or
 * for the recorder) over bytes that are not a breakpoint of the
 * program's: a trap of the CPU there came from ours, hit before. */
bool image_lifted(const struct breakpoint *b);
/* B, lifted, in P: its original bytes back if our breakpoint is still
 * there. */
void image_unlift_one(struct process *p, const struct breakpoint *b);

#endif
