/* Gap bucket names and limits; see gap_buckets.h. */
#include "gap_buckets.h"

#include <stdio.h>
#include <stdlib.h>

const char *rtg_gap_bucket_name(const rtg_gap_buckets *b, size_t i, char *buf, size_t cap) {
  if (i == 0)
    snprintf(buf, cap, "gap <%lluus", (unsigned long long)b->limit_us[0]);
  else if (i >= b->n)
    snprintf(buf, cap, "gap >=%lluus", (unsigned long long)b->limit_us[b->n - 1]);
  else
    snprintf(buf, cap, "gap %lluus-%lluus", (unsigned long long)b->limit_us[i - 1],
             (unsigned long long)b->limit_us[i]);
  return buf;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

size_t rtg_gap_limits_normalize(uint64_t *limit_us, size_t n) {
  qsort(limit_us, n, sizeof *limit_us, cmp_u64);
  size_t m = 0; /* equal limits would make empty buckets with odd names */
  for (size_t k = 0; k < n; k++)
    if (m == 0 || limit_us[m - 1] != limit_us[k]) limit_us[m++] = limit_us[k];
  return m;
}
