/* qsort that first checks whether the array is sorted already: the
 * analysis sorts ops and calls that mostly come in order. */
#ifndef RTG_ANALYZE_SORT_H
#define RTG_ANALYZE_SORT_H

#include <stddef.h>

void an_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
