/* Backtraces for -w: the stack of a task stopped at the return of a
 * traced call, unwound with libunwind's remote interface and named with
 * libdw.
 *
 * libunwind reads the tracee only through this file's accessors: memory
 * through the memory layer (mem.c: process_vm_readv and its page cache,
 * never a PTRACE_PEEKDATA per word as libunwind's stock _UPT_accessors
 * do), registers from the ones the loop fetched at the stop.  Finding the
 * unwind tables of an address is left to libunwind's ptrace helpers
 * (_UPT_find_proc_info: /proc/PID/maps and the object's file, then the
 * tables through the accessors).  Each process has one libunwind address
 * space with caching on, made at its first backtrace; it is flushed when
 * the process's objects change (exec, dlopen, dlclose).  Symbols and
 * source lines come from one libdw Dwfl per object file, opened at the
 * first frame in it and kept for the whole run, with its separate debug
 * file when there is one (build-id, then .gnu_debuglink).
 *
 * A backtrace at an IP whose last one read the same registers and stack
 * words shows that one's frames without unwinding (unwind.c, the memo).
 *
 * What it costs per call once warm: the stack pages the unwinder reads
 * (one gathered process_vm_readv in most cases), no ptrace request, no
 * file access (DESIGN.md, "The per-call budget"). */
#ifndef LTRACE_UNWIND_H
#define LTRACE_UNWIND_H

#include "forward.h"

struct arch_regs;

/* Show up to DEPTH frames of task T's stack through the output writer
 * (output_frame, then output_frames_end), T stopped with registers REGS
 * just after a traced call returned: the first frame is the caller, at
 * the return address.  MEM reads T's memory (the stop's memsrc, or
 * --fast's over a return record's copy of the stack, fastbt.c).  Never
 * fails: the list ends at the first frame that cannot be unwound. */
void unwind_show(struct task *t, const struct arch_regs *regs,
		 struct memsrc *mem, unsigned depth);

/* Release the address spaces and the object files kept open. */
void unwind_free_all(void);

#endif
