/* Starting and stopping to trace: launching a program, attaching to a
 * running process (-p), and detaching from everything cleanly.  It
 * implements backend_launch, backend_check_program, backend_attach and
 * backend_cleanup of backend.h. */
#ifndef LTRACE_ATTACH_H
#define LTRACE_ATTACH_H

#include <sys/types.h>

/* The pid of the program backend_launch started, 0 if none. */
pid_t attach_launched_pid(void);
/* Stop every task, put back every byte we changed, unmap the scratch
 * pages, leave each thread at a valid instruction of its own, detach. */
void attach_detach_all(void);

#endif
