/* Launch decomposition of one (process, GPU)'s kernels: for each kernel,
 *   api    the HIP call that launched it (its duration);
 *   queue  from its host enqueue (the packet's tick, else the call's end)
 *          to its start on the GPU;
 *   kernel its duration on the GPU;
 * summarised per kernel name and per queue (median, p95, max), with the
 * kernels shorter than their launch call (launch-bound). The queue-time
 * outliers are the queue_delay rule's (rules.h). */
#ifndef RTG_ANALYZE_LAUNCH_H
#define RTG_ANALYZE_LAUNCH_H

#include "attrib.h"

/* nearest-rank percentiles of what was known; n = how many */
typedef struct an_dist {
  uint64_t n, median, p95, max, total;
} an_dist;

typedef struct an_launch_row {
  uint32_t key; /* the kernel's name id, or its queue */
  uint64_t count;
  uint64_t launch_bound; /* kernels shorter than their launch call */
  an_dist api, queue, kernel;
} an_launch_row;

typedef struct an_launch {
  an_launch_row *by_name; /* the largest total kernel time first */
  size_t nname;
  an_launch_row *by_queue; /* by queue */
  size_t nqueue;
  uint64_t kernels, launch_bound;
} an_launch;

/* Fills out from the kernels among ops (any order); an_launch_free frees. */
void an_launch_compute(const an_op *ops, size_t n, an_launch *out);
/* One half of it, out cleared before: by_queue and kernels, or (by_name)
 * by_name and launch_bound; the two may run side by side. */
void an_launch_part(const an_op *ops, size_t n, an_launch *out, bool by_name);
void an_launch_free(an_launch *l);

/* The row of queue in l->by_queue; NULL: none. */
const an_launch_row *an_launch_queue(const an_launch *l, uint32_t queue);

#endif
