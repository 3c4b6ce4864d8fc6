/* Allocation for the offline tools (rtg-convert, rpt), for what a tool
 * cannot go on without: on failure they say what could not be allocated,
 * its size and where in the source, and exit 1 (rtg_die, diag.h):
 *   rtg-convert: error: out of memory: cannot allocate 4096 bytes for the
 *   JSON output (at src/convert/out/chrome/chrome.c:60): Cannot allocate memory
 * The tracer does not use them: it counts what it cannot record and goes
 * on. */
#ifndef RTG_XALLOC_H
#define RTG_XALLOC_H

#include <errno.h>
#include <stddef.h>

#include "diag.h"

/* Memory for what (a noun: "the JSON output's buffers") ran out. */
#define rtg_out_of_memory(what)                                                                    \
  rtg_die_at(__FILE__, __LINE__, ENOMEM, "out of memory: cannot allocate %s", what)

void *rtg_xmalloc_at(size_t size, const char *what, const char *file, int line);
void *rtg_xcalloc_at(size_t n, size_t size, const char *what, const char *file, int line);
void *rtg_xrealloc_at(void *p, size_t size, const char *what, const char *file, int line);
char *rtg_xstrdup_at(const char *s, const char *what, const char *file, int line);
#define rtg_xmalloc(size, what) rtg_xmalloc_at(size, what, __FILE__, __LINE__)
#define rtg_xcalloc(n, size, what) rtg_xcalloc_at(n, size, what, __FILE__, __LINE__)
#define rtg_xrealloc(p, size, what) rtg_xrealloc_at(p, size, what, __FILE__, __LINE__)
#define rtg_xstrdup(s, what) rtg_xstrdup_at(s, what, __FILE__, __LINE__)

#endif
