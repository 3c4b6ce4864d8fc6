/* Allocation that says what failed and where; see xalloc.h. */
#include "xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

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
  return p;
}

void *rtg_xcalloc_at(size_t n, size_t size, const char *what, const char *file, int line) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) no_memory(n, size, what, file, line);
  return p;
}

void *rtg_xrealloc_at(void *p, size_t size, const char *what, const char *file, int line) {
  void *np = realloc(p, size ? size : 1);
  if (!np) no_memory(1, size, what, file, line);
  return np;
}

char *rtg_xstrdup_at(const char *s, const char *what, const char *file, int line) {
  char *p = strdup(s);
  if (!p) no_memory(1, strlen(s) + 1, what, file, line);
  return p;
}
