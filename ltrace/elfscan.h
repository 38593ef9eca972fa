/* What the tracer needs to know of one ELF file: its segments, its call
 * stubs, the call sites of its code built without a PLT and the symbols
 * it exports.  Implemented with libelf in sysdeps/linux-gnu/elf.c (the
 * image), elfsites.c (the sites) and elfsyms.c (the exports), with the
 * per-architecture decoding in sysdeps/linux-gnu/<arch>/plt.c and
 * sites.c. */
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
	/* bytes from addr to the end of its indirect jump, which no call
	 * site scan must see */
	unsigned len;
	/* the slot is a GLOB_DAT one too: code may read the function's
	 * address there, and keep it (a callback) */
	bool addr_read;
};

/* A GOT slot of a function (FUNC or IFUNC) that code may call through
 * with no stub: a JUMP_SLOT no stub jumps through, or any GLOB_DAT (code
 * built without a PLT, -fno-plt, calls through it directly, whether or
 * not a .plt.got stub also does; address-taken functions have one).
 * __libc_start_main's is left out: crt1's _start calls it through its
 * slot in every program, and ltrace never shows it. */
struct elf_slot {
	uint64_t got; /* link-time address of the slot */
	char *name;   /* symbol name, without version */
};

/* Addresses are link-time addresses: add the load bias. */
struct elf_image {
	bool is_dyn;	  /* ET_DYN (PIE or DSO): addresses are biased */
	uint64_t entry;	  /* e_entry */
	char *soname;	  /* DT_SONAME, or NULL */
	char *interp;	  /* PT_INTERP: the program interpreter, or NULL */
	uint64_t dynamic; /* PT_DYNAMIC's address, 0 if none */
	/* [load_lo, load_hi): the span of the PT_LOAD segments (load_hi 0
	 * if none) */
	uint64_t load_lo, load_hi;
	struct plt_entry *plt; /* sorted by addr */
	size_t nplt;
	/* the slots code may call through with no stub, sorted by got:
	 * elf_sites_read looks for the calls only if there are any */
	struct elf_slot *slots;
	size_t nslots;
	/* The slot the loader fills with the offset of the object's TLS
	 * variable "errno" from the thread pointer (libc's), or 0: a
	 * thread's errno is at its thread pointer plus the slot's value. */
	uint64_t errno_got;
};

/* Read PATH into IMG, from what the loader reads (program headers, the
 * dynamic section, its relocations and symbols, the code's bytes): the
 * section headers may lie or be absent.  Returns 0, or a negative errno-style code with a
 * one-line reason in ERRBUF (ERRLEN bytes): strerror's for a file that
 * cannot be opened, "not an ELF file", "ELF for another architecture
 * (AArch64)"...  A static binary is no error: it has no stubs (nplt 0).
 * elf_image_destroy releases what a successful read filled in. */
int elf_image_read(struct elf_image *img, const char *path, char *errbuf,
		   size_t errlen);
/* elf_image_read without the stubs and slots (nplt and nslots 0): what
 * an object whose own calls are not traced needs.  Scanning libc's
 * 1.5 MB of code for stubs and naming its IRELATIVE slots was about 1.3
 * ms of every traced start. */
int elf_image_read_shape(struct elf_image *img, const char *path, char *errbuf,
			 size_t errlen);
void elf_image_destroy(struct elf_image *img);

/* A call site of code built without a PLT: an instruction that calls
 * (or, JUMP, tail-calls) the function whose address is in a GOT slot,
 * with no stub: the architecture's indirect call through memory or a
 * register loaded from the slot (plt_arch.h). */
struct elf_site {
	uint64_t addr; /* link-time address of the instruction */
	size_t slot;   /* the slot it reads: an index in the image's slots */
	unsigned len;  /* its length: a call returns to addr + len */
	bool jump;     /* a tail call: it pushes nothing */
};

/* The sites of one file, sorted by addr. */
struct elf_sites {
	struct elf_site *v;
	size_t n;
};

/* Find the sites of PATH, whose image (as elf_image_read filled it) is
 * IMG, in its executable segments, through IMG's slots only; the jumps
 * of IMG's stubs are not sites.  Returns 0 (none found if IMG has no slots, without
 * opening PATH), or a negative errno-style code; reports nothing.
 * Costs a byte search of the code, and a decoding sweep up to the last
 * place a site can be.  elf_sites_destroy releases S after a successful
 * read. */
int elf_sites_read(struct elf_sites *s, const char *path,
		   const struct elf_image *img);
void elf_sites_destroy(struct elf_sites *s);

/* A symbol an object defines in its dynamic symbol table with global or
 * weak binding. */
struct elf_export {
	const char *name; /* in the table's strings, without version */
	uint64_t addr;	  /* st_value (link-time) */
	bool func;	  /* STT_FUNC or STT_GNU_IFUNC */
};

/* The exports of one file, sorted by name (a name defined under several
 * versions appears once per version). */
struct elf_exports {
	struct elf_export *v;
	size_t n;
	char *strs; /* owned: a copy of the dynamic string table */
};

/* Read the exports of PATH into EX, from its dynamic section (DT_SYMTAB,
 * counted by DT_GNU_HASH or DT_HASH; .dynsym's section header only for a
 * file without one).  Returns 0 (a file without dynamic symbols exports
 * nothing), or a negative errno-style code; reports nothing.
 * elf_exports_destroy releases EX after a successful read. */
int elf_exports_read(struct elf_exports *ex, const char *path);
/* The export named NAME, or NULL. */
const struct elf_export *elf_exports_find(const struct elf_exports *ex,
					  const char *name);
void elf_exports_destroy(struct elf_exports *ex);

/* A function an object defines, for -x (read by elfsyms.c, like the
 * exports): a FUNC or IFUNC symbol of its
 * .symtab and of its dynamic symbols, defined in a section, at a non-zero
 * address within an executable segment. */
struct elf_func {
	const char *name; /* in the table's strings, without version */
	uint64_t addr;	  /* st_value (link-time) */
	uint8_t bind;	  /* 0 global, 1 weak, 2 local: lower is better */
	bool ifunc;	  /* STT_GNU_IFUNC: ADDR is its resolver's */
	uint64_t size;	  /* st_size: 0 unknown */
};

/* An IRELATIVE relocation: the dynamic linker (or a static program's
 * start-up code) stores in the slot GOT what the resolver at RESOLVER
 * returns.  Both link-time addresses. */
struct elf_irel {
	uint64_t resolver;
	uint64_t got;
};

/* The functions of one file.  V is sorted by address; the aliases of
 * one address are adjacent, the public name first: fewer leading
 * underscores (ftell before _IO_ftell, malloc before __libc_malloc),
 * then global over weak over local, then the shorter name, then strcmp
 * order. */
struct elf_funcs {
	struct elf_func *v;
	size_t n;
	struct elf_irel *irel; /* sorted by resolver */
	size_t nirel;
	/* [text_lo, text_hi): the span of its executable PT_LOAD segments
	 * (link-time; both 0 if it has none) */
	uint64_t text_lo, text_hi;
	char *strs; /* owned: copies of the string tables */
};

/* Read the functions, IRELATIVE relocations and executable span of PATH
 * into FS.  Returns 0 (a file without symbols defines no function), or
 * a negative errno-style code; reports nothing.  elf_funcs_destroy
 * releases FS after a successful read. */
int elf_funcs_read(struct elf_funcs *fs, const char *path);
/* The link-time slot of an IRELATIVE relocation whose resolver is at
 * RESOLVER (link-time), or 0 if FS has none. */
uint64_t elf_funcs_irel_slot(const struct elf_funcs *fs, uint64_t resolver);
void elf_funcs_destroy(struct elf_funcs *fs);

#endif
