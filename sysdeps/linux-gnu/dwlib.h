/* libdw, loaded at its first use instead of at every start of the
 * tracer: linked, it and the compression libraries it needs (liblzma,
 * libbz2) cost each start about 1.4 ms here, and a run needs it only for
 * a function no prototype file describes (DWARF prototypes) or for -w's
 * frame names.  The files that use libdw include this header instead of
 * elfutils': every libdw function they name is a macro for the pointer
 * dlsym found under that name in the library configure found a program
 * linked with libdw to need (DWLIB_SONAME). */
#ifndef LTRACE_DWLIB_H
#define LTRACE_DWLIB_H

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

/* Every libdw function the tracer calls. */
#define DWLIB_FUNCTIONS(X)              \
	X(dwarf_aggregate_size)         \
	X(dwarf_attr)                   \
	X(dwarf_attr_integrate)         \
	X(dwarf_begin_elf)              \
	X(dwarf_child)                  \
	X(dwarf_diename)                \
	X(dwarf_dieoffset)              \
	X(dwarf_end)                    \
	X(dwarf_formflag)               \
	X(dwarf_formref_die)            \
	X(dwarf_formsdata)              \
	X(dwarf_formudata)              \
	X(dwarf_get_units)              \
	X(dwarf_getlocation)            \
	X(dwarf_hasattr)                \
	X(dwarf_hasattr_integrate)      \
	X(dwarf_haschildren)            \
	X(dwarf_lowpc)                  \
	X(dwarf_offdie)                 \
	X(dwarf_ranges)                 \
	X(dwarf_siblingof)              \
	X(dwarf_srclang)                \
	X(dwarf_tag)                    \
	X(dwelf_elf_gnu_build_id)       \
	X(dwelf_elf_gnu_debuglink)      \
	X(dwfl_begin)                   \
	X(dwfl_end)                     \
	X(dwfl_lineinfo)                \
	X(dwfl_module_addrinfo)         \
	X(dwfl_module_getsrc)           \
	X(dwfl_report_begin)            \
	X(dwfl_report_elf)              \
	X(dwfl_report_end)              \
	X(dwfl_standard_find_debuginfo) \
	X(dwfl_offline_section_address)

struct dwlib {
#define DWLIB_FIELD(f) __typeof__(f) *f;
	DWLIB_FUNCTIONS(DWLIB_FIELD)
#undef DWLIB_FIELD
};

/* libdw's functions, loaded at the first call.  libdw is no optional
 * part of the tracer (configure requires it): when it cannot be loaded
 * after all, the tracer says why and dies. */
const struct dwlib *dwlib(void);

#ifndef DWLIB_NO_MACROS
#define dwarf_aggregate_size (dwlib()->dwarf_aggregate_size)
#define dwarf_attr (dwlib()->dwarf_attr)
#define dwarf_attr_integrate (dwlib()->dwarf_attr_integrate)
#define dwarf_begin_elf (dwlib()->dwarf_begin_elf)
#define dwarf_child (dwlib()->dwarf_child)
#define dwarf_diename (dwlib()->dwarf_diename)
#define dwarf_dieoffset (dwlib()->dwarf_dieoffset)
#define dwarf_end (dwlib()->dwarf_end)
#define dwarf_formflag (dwlib()->dwarf_formflag)
#define dwarf_formref_die (dwlib()->dwarf_formref_die)
#define dwarf_formsdata (dwlib()->dwarf_formsdata)
#define dwarf_formudata (dwlib()->dwarf_formudata)
#define dwarf_get_units (dwlib()->dwarf_get_units)
#define dwarf_getlocation (dwlib()->dwarf_getlocation)
#define dwarf_hasattr (dwlib()->dwarf_hasattr)
#define dwarf_hasattr_integrate (dwlib()->dwarf_hasattr_integrate)
#define dwarf_haschildren (dwlib()->dwarf_haschildren)
#define dwarf_lowpc (dwlib()->dwarf_lowpc)
#define dwarf_offdie (dwlib()->dwarf_offdie)
#define dwarf_ranges (dwlib()->dwarf_ranges)
#define dwarf_siblingof (dwlib()->dwarf_siblingof)
#define dwarf_srclang (dwlib()->dwarf_srclang)
#define dwarf_tag (dwlib()->dwarf_tag)
#define dwelf_elf_gnu_build_id (dwlib()->dwelf_elf_gnu_build_id)
#define dwelf_elf_gnu_debuglink (dwlib()->dwelf_elf_gnu_debuglink)
#define dwfl_begin (dwlib()->dwfl_begin)
#define dwfl_end (dwlib()->dwfl_end)
#define dwfl_lineinfo (dwlib()->dwfl_lineinfo)
#define dwfl_module_addrinfo (dwlib()->dwfl_module_addrinfo)
#define dwfl_module_getsrc (dwlib()->dwfl_module_getsrc)
#define dwfl_report_begin (dwlib()->dwfl_report_begin)
#define dwfl_report_elf (dwlib()->dwfl_report_elf)
#define dwfl_report_end (dwlib()->dwfl_report_end)
#define dwfl_standard_find_debuginfo (dwlib()->dwfl_standard_find_debuginfo)
#define dwfl_offline_section_address (dwlib()->dwfl_offline_section_address)
#endif

#endif
