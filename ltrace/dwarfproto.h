/* Prototypes derived from DWARF debug information (libdw), for functions
 * that no prototype file describes.  Conf files win: the core asks here
 * only after protolib_lookup missed.
 *
 * Debug info is taken from the ELF file itself when it carries
 * .debug_info, else from a separate debug file found by build-id, then
 * by .gnu_debuglink (sysdeps/linux-gnu/debugfile.h has the paths).
 *
 * Everything is lazy and cached: a file's DWARF is opened and indexed
 * (name -> DIE, one pass over the top-level DIEs of each CU) at most
 * once, on the first lookup for that file; each name's prototype is built
 * at most once, and misses are cached too.  Derived types are bounded:
 * no more than DWARF_MAX_DEPTH levels of nesting (deeper pointers become
 * addresses), no more than DWARF_MAX_FIELDS members per struct (both in
 * sysdeps/linux-gnu/dwarftypes.h); sizes and counts above LONG_MAX
 * saturate; then each parameter's type passes type_hold, as conf
 * files' do.
 *
 * Mapping (sizes from the architecture's data model, abi.h):
 *   base types by DW_ATE encoding and size: char, short/ushort, int/uint,
 *     long/ulong, llong/ullong ("long long"), float, double (long double
 *     too, so its value is not shown right), bool -> bool lens on
 *     char/int;
 *   char * and const char * -> string; void * and function pointers ->
 *     addr; pointers to the C library's handles (FILE, DIR, locale_t,
 *     jmp_buf, va_list, the pthread objects: dwhandles.h) -> addr;
 *     T * -> pointer to T; typedefs, const, volatile, restrict
 *     are looked through (mode_t is shown in octal);
 *   enum -> enum lens over its underlying integer, with its enumerators;
 *   struct -> struct with its members in order (bitfields and gaps are
 *     hidden padding, so the layout matches the DWARF one); a struct is
 *     built once per DIE and reused, so recursive structs are cycles
 *     through pointers; one that would contain itself by value (only
 *     crafted DWARF can say so) is its bytes in hex where it recurs;
 *   union -> array(char, size) in hex; T[N] -> array(T, N) (char[N] as a
 *     string); flexible array members are dropped;
 *   variadic functions whose last fixed parameter is a char * named
 *     fmt/format -> that parameter becomes `format'; other varargs are
 *     not shown.
 */
#ifndef LTRACE_DWARFPROTO_H
#define LTRACE_DWARFPROTO_H

#include <stdint.h>

#include "forward.h"

struct dwarf_protos;

/* An empty cache.  Never fails; opens nothing. */
struct dwarf_protos *dwarf_protos_new(void);

/* Close every DWARF file and free every prototype and type handed out.
 * NULL is allowed. */
void dwarf_protos_free(struct dwarf_protos *d);

/* The prototype of the external function NAME as the DWARF of the ELF
 * file PATH (a loaded library or the main executable, as named in
 * /proc/PID/maps) describes it, or NULL when there is none (no debug
 * info, not an external function, unreadable file).  The result is
 * owned by D and lives until dwarf_protos_free.  Prints nothing for a
 * file without debug info, the normal case; a type the tracer cannot
 * hold (type_check: a struct of absurd size, an array longer than 2^30
 * bytes, types nested too deeply) gets a warning on stderr, once, and is
 * shown as conf files' are (an address, a hex number, capped).
 *
 * When NAME has no DIE of its own (glibc's fopen is defined as
 * _IO_new_fopen), a symbol of PATH at the same address that has one is
 * used, and the prototype still carries NAME. */
const struct prototype *dwarf_lookup(struct dwarf_protos *d, const char *path,
				     const char *name);

/* The prototype of the function, a static one too, whose definition
 * starts at link-time address ADDR of the ELF file PATH, named NAME
 * (for -x: the symbol there may be local, or share its name with other
 * static functions); NULL when there is none.  Owned by D, cached by
 * address; warns as dwarf_lookup does. */
const struct prototype *dwarf_lookup_at(struct dwarf_protos *d,
					const char *path, uint64_t addr,
					const char *name);

#endif
