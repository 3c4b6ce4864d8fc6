/* Allocation that says what failed and where; see xalloc.h. */
#include "xalloc.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "diag.h"

/* Blocks of this size or more are advised to the kernel as wanting huge
 * pages: the analysis's and the report's arrays of a large trace are
 * hundreds of MB touched once, where 4 KB pages cost a fault each (advice
 * only: without transparent huge pages nothing changes). */
#define HUGE_FROM ((size_t)4 << 20)

static void *advise(void *p, size_t size) {
#ifdef MADV_HUGEPAGE
  if (size >= HUGE_FROM) {
    uintptr_t a = ((uintptr_t)p + 4095) & ~(uintptr_t)4095,
              b = ((uintptr_t)p + size) & ~(uintptr_t)4095;
    if (b > a) madvise((void *)a, b - a, MADV_HUGEPAGE);
  }
#else
  (void)size;
#endif
  return p;
}

static _Noreturn void no_memory(size_t n, size_t size, const char *what, const char *file,
                                int line) {
  if (n > 1)
    rtg_die_at(file, line, ENOMEM, "out of memory: cannot allocate %zu x %zu bytes for %s", n, size,
               what);
  rtg_die_at(file, line, ENOMEM, "out of memory: cannot allocate %zu bytes for %s", size, what);
}

void *rtg_xmalloc_at(size_t size, const char *what, const char *file, int line) {
  void *p = malloc(size ? size : 1);
  if (!p) no_memory(1, size, what, file, line);
  return advise(p, size);
}

void *rtg_xcalloc_at(size_t n, size_t size, const char *what, const char *file, int line) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) no_memory(n, size, what, file, line);
  return advise(p, n * size);
}

void *rtg_xrealloc_at(void *p, size_t size, const char *what, const char *file, int line) {
  void *np = realloc(p, size ? size : 1);
  if (!np) no_memory(1, size, what, file, line);
  return advise(np, size);
}

char *rtg_xstrdup_at(const char *s, const char *what, const char *file, int line) {
  char *p = strdup(s);
  if (!p) no_memory(1, strlen(s) + 1, what, file, line);
  return p;
}
