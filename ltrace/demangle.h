/* C++ names for -C/--demangle, through the C++ runtime's __cxa_demangle
 * (the tracer carries no demangler of its own). */
#ifndef LTRACE_DEMANGLE_H
#define LTRACE_DEMANGLE_H

/* The demangled form of the mangled C++ symbol NAME ("_ZN3foo3barEv" ->
 * "foo::bar()"), newly allocated (free it), or NULL when NAME is not a
 * mangled name or cannot be demangled. */
char *demangle(const char *name);

#endif
