/* an_sort: see sort.h. */
#include "sort.h"

#include <stdlib.h>

void an_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  const char *p = base;
  size_t i = 1;
  while (i < n && cmp(p + (i - 1) * size, p + i * size) <= 0) i++;
  if (i < n) qsort(base, n, size, cmp);
}
