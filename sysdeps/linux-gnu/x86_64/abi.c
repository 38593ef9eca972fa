/* The x86_64 data model (System V psABI, LP64, 3.1.2 "Data
 * Representation"), for ltrace/abi.h. */
#include "abi.h"

const struct abi_scalar abi_scalars[TYPE_NKINDS] = {
	[TYPE_VOID] = { 0, 1 },	     [TYPE_CHAR] = { 1, 1 },
	[TYPE_SHORT] = { 2, 2 },     [TYPE_USHORT] = { 2, 2 },
	[TYPE_INT] = { 4, 4 },	     [TYPE_UINT] = { 4, 4 },
	[TYPE_LONG] = { 8, 8 },	     [TYPE_ULONG] = { 8, 8 },
	[TYPE_LLONG] = { 8, 8 },     [TYPE_ULLONG] = { 8, 8 },
	[TYPE_FLOAT] = { 4, 4 },     [TYPE_DOUBLE] = { 8, 8 },
	[TYPE_POINTER] = { 8, 8 },   [TYPE_PACK] = { 8, 8 },
	[TYPE_LDOUBLE] = { 16, 16 }, /* x87 80-bit, padded */
};

/* glibc's struct _IO_FILE (libio/bits/types/struct_FILE.h): int _flags,
 * padded to 8, then 13 pointers (_IO_read_ptr to _chain), then int
 * _fileno. */
const unsigned abi_file_fileno = 0x70;
