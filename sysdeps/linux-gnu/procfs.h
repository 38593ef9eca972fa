/* What /proc says of a process or thread: fields of its status, its run
 * state, its command name, its auxiliary vector and its executable.
 * Reads files only; uses no other backend file. */
#ifndef LTRACE_PROCFS_H
#define LTRACE_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Field KEY of /proc/PID/status as a number in BASE (SigPnd is hex), or
 * -1. */
long procfs_status_field(pid_t pid, const char *key, int base);
/* Whether TID's process has a handler for signal SIG (SigCgt of its
 * status; when /proc cannot say, it may). */
bool procfs_caught(pid_t tid, int sig);
/* The state letter of /proc/TID/stat ('t': stopped by a tracer), or 0. */
char procfs_state(pid_t tid);
/* /proc/PID/comm into BUF (LEN bytes, at least 1), without the newline;
 * empty if it cannot be read. */
void procfs_comm(pid_t pid, char *buf, size_t len);
/* The entry of TYPE (AT_ENTRY: the program's entry point, AT_BASE: where
 * the interpreter is loaded) in /proc/PID/auxv, or 0. */
uint64_t procfs_auxv(pid_t pid, unsigned long type);
/* The target of /proc/PID/exe into BUF (LEN bytes); 0, or -1. */
int procfs_exe(pid_t pid, char *buf, size_t len);
/* Whether /proc/PID/maps says ADDR is in an executable mapping. */
bool procfs_executable(pid_t pid, uint64_t addr);

#endif
