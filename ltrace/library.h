/* The objects loaded in a process: the main program and each shared
 * library, with where it is mapped and what its ELF file holds.  They
 * are the one source of truth for "what is loaded": breakpoints are
 * placed per object, the filters are asked about objects, and the
 * prototypes are looked up in their order.
 *
 * A process owns its list (process->libs), in load order: the program
 * first, then the libraries in the order of the dynamic linker's r_map
 * (DT_NEEDED breadth first, the dynamic linker itself, then dlopen'd
 * ones).  The backend fills it (sysdeps/linux-gnu/bptmem.c for the
 * program, rtld.c for the libraries) and removes a library at its
 * dlclose. */
#ifndef LTRACE_LIBRARY_H
#define LTRACE_LIBRARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfscan.h"
#include "forward.h"

struct library {
	/* As mapped: the program's /proc/PID/exe target, a library's
	 * l_name (made absolute).  Owned. */
	char *path;
	/* Where the tracer opens it: PATH, or the program's /proc/PID/exe.
	 * Owned. */
	char *file;
	/* DT_SONAME, else the file name of PATH.  Owned. */
	char *soname;
	bool is_main;
	uint64_t bias; /* load bias: run-time minus link-time address */
	/* [lo, hi): the run-time span of its PT_LOAD segments */
	uint64_t lo, hi;
	/* Its struct link_map in the tracee: identifies it in r_map (0 for
	 * the program) */
	uint64_t lmap;
	struct elf_image image; /* its call stubs (link-time addresses) */
	/* -l selects it: calls into what it exports are traced (set by the
	 * backend when it places the object's breakpoints) */
	bool callee;
	/* [text_lo, text_hi): the run-time span of its executable segments,
	 * read with its functions when -x is given (0 before) */
	uint64_t text_lo, text_hi;
	/* What it exports, read at the first library_exports */
	struct elf_exports exports;
	bool exports_read;
	/* Its call sites through stub-less GOT slots (-fno-plt code), read
	 * at the first library_sites */
	struct elf_sites sites;
	bool sites_read;
	struct library *next;
};

/* library_new's FLAGS: the main program; an object whose own calls no
 * filter can select (no stubs read: elf_image_read_shape). */
#define LIBRARY_MAIN 1u
#define LIBRARY_NO_CALLS 2u

/* Read the ELF file FILE (PATH as the tracee maps it; FILE is where the
 * tracer can open it, e.g. /proc/PID/exe).  Returns the new object, not
 * placed yet (bias 0), or NULL with a one-line reason in ERRBUF (ERRLEN
 * bytes), as elf_image_read. */
struct library *library_new(const char *path, const char *file, unsigned flags,
			    char *errbuf, size_t errlen);
/* L is loaded with load bias BIAS: set its bias and span. */
void library_place(struct library *l, uint64_t bias);
void library_free(struct library *l);
/* A deep copy, for a forked child (the exports are read again when
 * needed). */
struct library *library_clone(const struct library *l);
/* Whether L defines NAME as a global function (FUNC or IFUNC, global or
 * weak): reads L's exports at the first call. */
bool library_exports(struct library *l, const char *name);
/* L's call sites through its stub-less slots (-fno-plt code, elfscan.h):
 * read from its file at the first call, only if L has such slots; none
 * if the file cannot be read.  Owned by L. */
const struct elf_sites *library_sites(struct library *l);
/* Whether ADDR lies in L's mapped span. */
bool library_contains(const struct library *l, uint64_t addr);

/* P's objects: append L (P takes it), unlink L (the caller frees it),
 * the program (NULL before it is read), free them all, copy SRC's into
 * DST (which has none). */
void library_append(struct process *p, struct library *l);
void library_unlink(struct process *p, struct library *l);
struct library *library_main(const struct process *p);
void library_clear(struct process *p);
void library_clone_all(struct process *dst, const struct process *src);
/* The number of P's objects. */
size_t library_count(const struct process *p);

#endif
