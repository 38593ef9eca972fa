/* One ELF file open for reading, for the readers of sysdeps/linux-gnu
 * (elf.c, elfsites.c, elfsyms.c): the open, the checks every reader
 * makes, and the matching close, in one place. */
#ifndef LTRACE_ELFFILE_H
#define LTRACE_ELFFILE_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

struct elf_file {
	int fd;
	Elf *elf;	    /* libelf's handle, ELF_C_READ_MMAP */
	const uint8_t *raw; /* the whole file, SIZE bytes (libelf's map) */
	size_t size;
};

/* Open PATH: a regular file (O_NONBLOCK, so a FIFO cannot hang the
 * tracer) starting with the ELF magic, that libelf reads as an ELF file
 * of this architecture's machine and class (plt_arch.h).  Returns 0, or
 * a negative errno-style code with a one-line reason in ERRBUF (ERRLEN
 * bytes; ERRBUF may be NULL): strerror's for a file that cannot be
 * opened, "not an ELF file", "ELF for another architecture (AArch64)".
 * Reports nothing.  elf_file_close releases F after a successful open;
 * on failure nothing is left open. */
int elf_file_open(struct elf_file *f, const char *path, char *errbuf,
		  size_t errlen);
void elf_file_close(struct elf_file *f);

#endif
