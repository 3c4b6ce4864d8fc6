/* A loop over [0, n) cut in parts that run side by side: for work whose
 * parts write disjoint outputs (gathering an array into a new order,
 * encoding a buffer). */
#ifndef RTG_PARTS_H
#define RTG_PARTS_H

#include <stddef.h>

/* fn(arg, lo, hi) for consecutive [lo, hi) covering [0, n): one part per
 * CPU, at most max_parts, each of min_part elements or more; the first
 * part on the calling thread, the others on threads of their own (on the
 * calling thread too where one cannot be started).  Returns when all are
 * done. */
void rtg_parts_run(size_t n, size_t min_part, size_t max_parts,
                   void (*fn)(void *arg, size_t lo, size_t hi), void *arg);

#endif
