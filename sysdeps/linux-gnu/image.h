/* A process's image as the tracer prepares it: its ELF file read, its
 * load bias, scratch memory near it, and an int3 on each of its call
 * stubs; and the original bytes put back. */
#ifndef LTRACE_IMAGE_H
#define LTRACE_IMAGE_H

#include "forward.h"

/* T's process has just been started, attached or exec'd (and knows no
 * image): open its /proc/PID/mem, read its image, map scratch memory
 * near it (T is stopped; its registers are left as they were) and put
 * breakpoints on its call stubs.  Errors are reported; the process is
 * then traced with what could be done. */
void image_setup(struct task *t);
/* Write back the original byte of every inserted breakpoint of BPTS
 * through MEMFD (the table itself is not changed). */
void image_restore_bytes(const struct bpt_table *bpts, int memfd);

#endif
