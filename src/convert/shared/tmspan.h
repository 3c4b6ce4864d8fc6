/* The span of the time model (timemodel.h), on its own so that the
 * analysis's attribution (analyze/attrib.c), which tests feed by hand,
 * takes it without the converter. */
#ifndef RTG_CONVERT_TMSPAN_H
#define RTG_CONVERT_TMSPAN_H

#include <stdbool.h>
#include <stdint.h>

/* The span from the process's start (0: unknown), its first op's start and
 * its last op's end, in the window [ws, we] (0 or UINT64_MAX: open); false
 * when it is empty. */
static inline bool tm_span(uint64_t proc_start, uint64_t first, uint64_t last, uint64_t ws,
                           uint64_t we, uint64_t *s, uint64_t *e) {
  *s = proc_start && proc_start < first ? proc_start : first;
  *e = last;
  if (*s < ws) *s = ws;
  if (we && *e > we) *e = we;
  return *e > *s;
}

#endif
