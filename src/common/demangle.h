/* A self-contained demangler for the Itanium C++ ABI (with clang's
 * extensions: address spaces, _Float16, _BitInt, vector types, lambdas...),
 * whose text is the one llvm-cxxfilt prints.  It links without libstdc++,
 * so the tracer and the tools show the same kernel names on every system.
 *
 * Safety: it reads exactly len bytes (no NUL needed), bounds its recursion,
 * its memory and its output, and gives up (NULL) on anything it does not
 * understand, so a caller shows the mangled name instead. */
#ifndef RTG_DEMANGLE_H
#define RTG_DEMANGLE_H

#include <stddef.h>

/* Longest mangled name accepted, longest demangled text produced. */
#define RTG_DEMANGLE_MAX_IN (64u * 1024u)
#define RTG_DEMANGLE_MAX_OUT (1024u * 1024u)

/* Demangles mangled[0..len), a name that starts with "_Z" (a ".suffix"
 * such as ".cold" or ".kd" is shown as llvm-cxxfilt does: "f() (.cold)").
 * Returns the text in a malloc'd NUL-terminated string the caller frees,
 * or NULL when the input is not such a name, is malformed, holds control
 * characters, or exceeds the limits above. */
char *rtg_demangle(const char *mangled, size_t len);

#endif
