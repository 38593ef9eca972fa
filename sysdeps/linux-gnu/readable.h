/* The readable ranges of a traced process: where the --fast recorder
 * may copy the program's memory directly instead of by system call
 * (recorder/ring.h, "Readable ranges"; DESIGN.md, "Fast mode").  Reads
 * the text of /proc/PID/maps; uses no other backend file. */
#ifndef LTRACE_READABLE_H
#define LTRACE_READABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct rec_range;

/* Whether a mapping with PERMS ("r-xp") and PATH (the rest of its maps
 * line, "" for an anonymous one) is plain memory a copy may read: it is
 * readable, and anonymous, a file's, the heap or a stack; not a
 * device's, nor one of the kernel's special pages ([vvar], [vsyscall]),
 * nor an anon_inode's or socket's, whose reads may do more than read. */
bool readable_plain(const char *perms, const char *path);

/* The plain mappings of the maps text in F as ranges into OUT (at most
 * MAX, more than 0): sorted, disjoint, adjacent mappings merged, without
 * [SKIP_LO, SKIP_HI) (the recorder's own region) nor the pages at
 * BAD[0..NBAD) (page-aligned: where a direct copy faulted).  With more
 * than MAX, the largest MAX are kept.  Returns how many, or -errno. */
long readable_ranges(FILE *f, struct rec_range *out, size_t max,
		     uint64_t skip_lo, uint64_t skip_hi, const uint64_t *bad,
		     size_t nbad);

#endif
