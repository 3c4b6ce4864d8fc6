/* The gap trackers of the GPU resources, one per (process, device, queue),
 * in one index: the time model (timemodel.h), which the reports use,
 * finds a resource's tracker here.
 *
 * An entry is the caller's own struct, which begins with a gap_res; it is
 * made zeroed on first use and stays where it is (pointers to it stay
 * valid).  Entries are kept, swept and freed in the order they were
 * added, so what their gaps write does not depend on the index. */
#ifndef RTG_CONVERT_GAPINDEX_H
#define RTG_CONVERT_GAPINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "agents.h"
#include "gaptrack.h"
#include "u64map.h"

#define GAP_DEVICE UINT64_MAX /* the queue of an entry for the whole device */

typedef struct gap_index gap_index;

typedef struct gap_res {
  uint32_t proc;
  rtg_device device;
  uint64_t queue; /* GAP_DEVICE: the whole device */
  gaptrack gt;    /* its gaps go to the index's on_gap */
  gap_index *x;
} gap_res;

/* A gap of r's tracker, from start to end, between the ops named before
 * and after (gaptrack.h). */
typedef void (*gap_res_fn)(void *arg, gap_res *r, uint64_t start, uint64_t end, uint32_t before,
                           uint32_t after);

struct gap_index {
  rtg_u64map map; /* key of (proc, device, queue) -> position in r */
  gap_res **r;
  uint32_t n, cap;
  size_t size; /* of an entry */
  gap_res_fn on_gap;
  void *arg;
  gt_pool pool; /* the budget its trackers share (and the callers' trackers joined) */
};

/* An empty index of entries of size bytes (at least a gap_res); the gaps
 * of every tracker go to on_gap (NULL: none) with arg. */
void gap_index_init(gap_index *x, size_t size, gap_res_fn on_gap, void *arg);
/* The entry of (proc, device, queue); *added (may be NULL) tells whether
 * it was made now. */
gap_res *gap_index_get(gap_index *x, uint32_t proc, rtg_device device, uint64_t queue, bool *added);
/* Sweeps every tracker: their last gaps go out, their totals are final. */
void gap_index_finish(gap_index *x);
/* Frees the trackers and the entries. */
void gap_index_free(gap_index *x);

#endif
