/* What the tracer needs to know of one ELF file: its call stubs.
 * Implemented with libelf in sysdeps/linux-gnu/elf.c, with the
 * per-architecture stub decoding in sysdeps/linux-gnu/<arch>/plt.c. */
#ifndef LTRACE_ELFSCAN_H
#define LTRACE_ELFSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One library call stub (a PLT entry): calling ADDR ends up in the
 * function whose address is stored in the GOT slot at GOT.  Both are
 * link-time addresses (add the load bias for a PIE or a DSO). */
struct plt_entry {
	/* first byte of the stub: where the breakpoint goes */
	uint64_t addr;
	uint64_t got; /* the slot its indirect jump reads */
	char *name;   /* symbol name, without version */
};

struct elf_image {
	bool is_dyn;	       /* ET_DYN (PIE or DSO): addresses are biased */
	uint64_t entry;	       /* e_entry */
	char *soname;	       /* DT_SONAME, or NULL */
	struct plt_entry *plt; /* sorted by addr */
	size_t nplt;
};

/* Read PATH into IMG.  Returns 0, or a negative errno-style code with a
 * one-line reason in ERRBUF (ERRLEN bytes): strerror's for a file that
 * cannot be opened, "not an ELF file", "ELF for another architecture
 * (AArch64)"...  A static binary is no error: it has no stubs (nplt 0).
 * elf_image_destroy releases what a successful read filled in. */
int elf_image_read(struct elf_image *img, const char *path, char *errbuf,
		   size_t errlen);
void elf_image_destroy(struct elf_image *img);

#endif
