/* Finding and opening the DWARF of an ELF file, for dwarf.c.  It is
 * taken from the file itself when it carries .debug_info, else from a
 * separate debug file: first by build-id
 * (/usr/lib/debug/.build-id/xx/rest.debug), then by .gnu_debuglink
 * (beside the file, in its .debug/ folder, under /usr/lib/debug/DIR/),
 * gdb's order.  A separate debug file must carry the file's build-id
 * when the file has one. */
#ifndef LTRACE_DEBUGFILE_H
#define LTRACE_DEBUGFILE_H

#include "dwlib.h"

#include "elffile.h"

struct debugfile {
	struct elf_file file; /* the ELF file */
	struct elf_file dbg;  /* the separate debug file (elf NULL if none) */
	Dwarf *dw;	      /* from file's or dbg's */
};

/* Open the ELF file PATH and its DWARF into DF; both files are opened
 * by elf_file_open (elffile.h: a regular file, an ELF file of this
 * architecture).  Returns 0, or -errno when PATH cannot be opened,
 * -ENODATA when it is not such an ELF file or no debug info is found;
 * then DF holds nothing to close.  Never prints: a file without debug
 * info is the normal case. */
int debugfile_open(struct debugfile *df, const char *path);

/* Release what debugfile_open opened. */
void debugfile_close(struct debugfile *df);

#endif
