/* Zeroed memory for tables that are read before they are written (hash
 * tables probed for a free slot).  calloc's fresh pages are mapped to the
 * shared zero page on the first read, and the first write to each then
 * takes a second fault that must also flush the other CPUs' TLBs (an
 * interprocessor interrupt while the parsing thread runs there), several
 * microseconds a page on a virtual machine.  Writing the zeros first maps
 * each page once. */
#ifndef RTG_ZALLOC_H
#define RTG_ZALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* n items of size bytes, zeroed; NULL when out of memory. */
static inline void *rtg_zalloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  size_t bytes = n * size;
  void *p = malloc(bytes ? bytes : 1);
  if (p) memset(p, 0, bytes);
  return p;
}

#endif
