/* What /proc says of a process or thread: fields of its status, its run
 * state, its command name, its entry point and the objects mapped into
 * it.  Reads files only; uses no other backend file. */
#ifndef LTRACE_PROCFS_H
#define LTRACE_PROCFS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "forward.h"

/* Field KEY of /proc/PID/status as a number in BASE (SigPnd is hex), or
 * -1. */
long procfs_status_field(pid_t pid, const char *key, int base);
/* The state letter of /proc/TID/stat ('t': stopped by a tracer), or 0. */
char procfs_state(pid_t tid);
/* /proc/PID/comm into BUF (LEN bytes, at least 1), without the newline;
 * empty if it cannot be read. */
void procfs_comm(pid_t pid, char *buf, size_t len);
/* AT_ENTRY of /proc/PID/auxv: the program's entry point, or 0. */
uint64_t procfs_entry(pid_t pid);
/* Add the objects mapped in P that it does not know yet to its
 * lib_paths/lib_names (the program first).  Returns 0 or -1. */
int procfs_read_libs(struct process *p);

#endif
