/* The names of copies and gaps on the timelines; see names.h. */
#include "names.h"

#include <stdio.h>

const char *cv_copy_name(const cv_event *ev, char *buf, size_t cap) {
  if (ev->has_bytes)
    snprintf(buf, cap, "%s %llu bytes", ev->name, (unsigned long long)ev->bytes);
  else
    snprintf(buf, cap, "%s", ev->name);
  return buf;
}

const char *cv_gap_name(const cv_ctx *ctx, uint64_t ns, char *buf, size_t cap) {
  rtg_gap_buckets b = cv_gap_buckets(ctx);
  return rtg_gap_bucket_name(&b, rtg_gap_bucket(&b, ns), buf, cap);
}
