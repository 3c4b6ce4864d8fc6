/* qsort that first checks whether the array is sorted already: the
 * analysis sorts ops and calls that mostly come in order. */
#ifndef RTG_ANALYZE_SORT_H
#define RTG_ANALYZE_SORT_H

#include <stddef.h>
#include <stdint.h>

void an_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* Reorders the n elements of base (size bytes each) by key[i], keeping
 * the order of equal keys (a counting sort: keys are small dense ids such
 * as queues); key is reordered with them. */
void an_group(void *base, size_t n, size_t size, uint32_t *key);

/* to[i] = from[perm[i]] for i < n (elements of size bytes), the range cut
 * in parts gathered side by side when it is large. */
void an_gather(void *to, const void *from, size_t size, const uint32_t *perm, size_t n);

/* perm[0..n) = the indices of key in the order of their keys, equal keys
 * in index order (an LSD radix sort over the bits the keys span).  n <
 * 2^32. */
void an_order_by_key(const uint64_t *key, size_t n, uint32_t *perm);
/* The GPU ops from which the analysis runs its independent parts side by
 * side (the ops' order and the resolving, the ops' gathering and the
 * calls' segments, a GPU's queues, the critical path's links, the
 * interval sets, the idle causes by parts of the idle time): 64k, or
 * RTG_ANALYZE_APART (tests: 1 always, a large number never). */
size_t an_apart(void);

#endif
