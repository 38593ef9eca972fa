/* The architecture's data model: size and alignment in bytes of each
 * scalar kind of the prototype language, defined by the backend
 * (sysdeps/linux-gnu/ARCH/abi.c).  type.c derives arrays and structs
 * from these; no other core file knows a size. */
#ifndef LTRACE_ABI_H
#define LTRACE_ABI_H

#include "type.h"

struct abi_scalar {
	unsigned char size;
	unsigned char align;
};

/* Indexed by enum type_kind.  A format pack is passed as its format
 * string's pointer; arrays and structs are not scalars. */
extern const struct abi_scalar abi_scalars[TYPE_NKINDS];

/* The offset of _fileno in glibc's struct _IO_FILE (FILE), part of its
 * ABI: where a FILE *'s descriptor is (lenses/fd.c). */
extern const unsigned abi_file_fileno;

#endif
