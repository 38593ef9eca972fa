/* The tracee memory layer: every read of tracee memory goes through here.
 *
 * Reads use process_vm_readv; a page it refuses is tried through
 * /proc/PID/mem (which also reads PROT_NONE pages), then through
 * PTRACE_PEEKDATA on aligned words when the file cannot be used.  Reads
 * are served from a cache of whole pages that lives for one stop:
 * mem_reset drops it before the tracee resumes.  mem_prefetch fills the
 * cache for several pages with one process_vm_readv.  Errors are sorted
 * as the kernel reports them: a gone tracee (ESRCH) and unreadable memory
 * (EFAULT, EIO, ENOMEM) are silent and read as short; anything else is
 * reported once. */
#ifndef LTRACE_MEM_H
#define LTRACE_MEM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "memsrc.h"

/* Point the layer at process PID (PROCMEM is its /proc/PID/mem or -1) and
 * return the memsrc to read it through.  Drops the cache when the process
 * changes. */
struct memsrc *mem_bind(pid_t pid, int procmem);
/* Drop the cache: call before the tracee resumes. */
void mem_reset(void);
/* Read into the cache, in one system call, the pages holding the N
 * addresses (in order of importance: a failing page stops the batch). */
void mem_prefetch(const uint64_t *addrs, size_t n);
/* Write LEN bytes at ADDR through PROCMEM (works on read-only text).
 * Returns 0 or -errno. */
int mem_write(int procmem, uint64_t addr, const void *buf, size_t len);
/* One process_vm_readv of the REMOTE spans of PID into LOCAL, past the
 * page cache (the --fast ring, which the program writes while it runs):
 * the bytes read, or -errno. */
struct iovec;
ssize_t mem_gather(pid_t pid, const struct iovec *local, size_t nlocal,
		   const struct iovec *remote, size_t nremote);
/* Counters for the syscall budget: reads issued since start. */
unsigned long mem_syscalls(void);
/* PTRACE_PEEKDATA words read since start (the fallback's cost). */
unsigned long mem_peeks(void);

#endif
