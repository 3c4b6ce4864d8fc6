/* GPU idle gaps sorted into buckets by size, the one definition that rpt
 * (its summary rows and -t markers) and rtg-convert (--gaps, the -g gap
 * events) share.  The limits are microseconds, ascending; with the
 * default 10,20,50,100,1000,10000,100000 the buckets are named
 *
 *   gap <10us, gap 10us-20us, ..., gap 10000us-100000us, gap >=100000us
 *
 * A gap of exactly a limit belongs to the bucket above it.  Gaps are
 * compared in whole microseconds (ns / 1000), so no limit overflows. */
#ifndef RTG_GAP_BUCKETS_H
#define RTG_GAP_BUCKETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The limits the old rpt and rtg-convert use when none are given. */
#define RTG_GAP_BUCKETS_DEFAULT                                                                    \
  { 10, 20, 50, 100, 1000, 10000, 100000 }

typedef struct rtg_gap_buckets {
  const uint64_t *limit_us; /* ascending, distinct, > 0; the caller owns them */
  size_t n;                 /* >= 1; there are n + 1 buckets */
} rtg_gap_buckets;

/* The bucket of a gap: 0..n (n: at or above the last limit). */
static inline size_t rtg_gap_bucket(const rtg_gap_buckets *b, uint64_t gap_ns) {
  uint64_t us = gap_ns / 1000;
  size_t i = 0;
  /* ascending limits: counting those passed needs no early exit (no branch
   * that a CPU would mispredict on gaps of random size) */
  for (size_t k = 0; k < b->n; k++) i += us >= b->limit_us[k];
  return i;
}

/* "gap 10us-20us": the name of bucket i into buf; returns buf. */
const char *rtg_gap_bucket_name(const rtg_gap_buckets *b, size_t i, char *buf, size_t cap);

/* Sort limits in place and drop repeated ones; returns how many remain. */
size_t rtg_gap_limits_normalize(uint64_t *limit_us, size_t n);

#endif
