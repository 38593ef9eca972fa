/* System calls (-S): each syscall-stop decoded with one
 * PTRACE_GET_SYSCALL_INFO and reported to ltrace/calls.c as a traced
 * call, so that everything a library call has (the pending-call stack,
 * "<unfinished ...>" and "<... resumed>" lines, -f prefixes) a system
 * call has too.  Each syscall number has one descriptor, a struct
 * breakpoint of kind BPT_SYSCALL that is in no breakpoint table: label
 * "name@SYS", its prototype from syscalls.conf (the shipped etc/ file, in
 * the search directories of protoset.h), looked up at its first call.
 * Names come from the architecture's table (syscallnames.h, generated
 * at build time from the kernel's <asm/unistd_64.h>); a number it does
 * not name shows as "SYS_<nr>". */
#ifndef LTRACE_SYSCALLS_H
#define LTRACE_SYSCALLS_H

#include "forward.h"

/* With -S: make every resume PTRACE_SYSCALL (tracee_trace_syscalls) and
 * look prototypes up in PS (borrowed: it outlives the tracing). */
void syscalls_init(struct protoset *ps);
/* T is in a syscall-stop: report the system call's entry, or the return
 * of the one it entered (nothing when it entered none we saw: a task
 * attached or created in the middle of one, the execve an exec
 * forgot).  The caller resumes T. */
void syscalls_stop(struct task *t);
/* Free the descriptors, after the last stop. */
void syscalls_free(void);

#endif
