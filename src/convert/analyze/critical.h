/* The critical path of one process through its host calls and GPU ops,
 * and what-ifs on it.
 *
 * The graph: each top-level call of a thread and each GPU op has a start
 * and an end event. An event's time is the latest of its predecessors'
 * plus the delay of the edge:
 *   call start  <- the thread's previous call's end (the CPU time between);
 *   call end    <- its start (its duration); a synchronisation also <- the
 *                  op it waited for plus the time it took to return after
 *                  that op: the latest op to end within it that its
 *                  thread waited for (the trace's waiter), else the latest
 *                  op of the process to end within it, launched before it
 *                  ended;
 *   op start    <- the start of the call that enqueued it (the API time to
 *                  its enqueue, then the queue latency), the end of the op
 *                  before it in its queue, and for a barrier that waits the
 *                  op whose completion signal it waited on (the last to
 *                  complete on one of its dependency signals before it
 *                  ended; without one found, the op that ended last before
 *                  it on another queue);
 *   op end      <- its start (its duration).
 * The edge that set an event's time in the trace carries the observed
 * delay; the others carry none (the slack they had is usable). The
 * critical path walks back from the last event along the edges that set
 * each time; its parts are the edges' delays by category. A what-if runs
 * the graph forward again with some ops' durations halved. */
#ifndef RTG_ANALYZE_CRITICAL_H
#define RTG_ANALYZE_CRITICAL_H

#include "attrib.h"

enum an_cp_cat {
  AN_CP_HOST_CPU, /* the threads' own time between calls (and before the first) */
  AN_CP_API,      /* in runtime calls, to the enqueue or to the return */
  AN_CP_QUEUE,    /* enqueued to started, or waiting for the op before */
  AN_CP_KERNEL,
  AN_CP_COPY,
  AN_CP_BARRIER,
  AN_CP_NCATS
};

extern const char *const an_cp_cat_names[AN_CP_NCATS];

/* A waiting barrier (ops index) and the op that signalled it: src_op of
 * the process's GPU src_gpu (an index in the an_cp_gpu array). */
typedef struct an_cp_dep {
  size_t op;
  uint32_t src_gpu;
  size_t src_op;
} an_cp_dep;

/* The ops of one GPU of the process (kernels, copies, barriers), in
 * an_sort_ops's order, and what its waiting barriers waited for. */
typedef struct an_cp_gpu {
  const an_op *ops;
  size_t nops;
  const an_cp_dep *deps;
  size_t ndeps;
  const uint32_t *waiter; /* per op: the thread that waited for its end, 0: none; NULL: none */
} an_cp_gpu;

typedef struct an_cp_share {
  uint32_t name;
  uint64_t ns;
} an_cp_share;

#define AN_CP_TOP 8
#define AN_CP_WHATIFS 4

typedef struct an_cp_whatif {
  uint32_t name; /* the kernel made twice as fast; AN_CP_ALL_COPIES: every copy */
  uint64_t length;
} an_cp_whatif;

#define AN_CP_ALL_COPIES UINT32_MAX

typedef struct an_cp_result {
  uint64_t start, end, length;                      /* the process's start to its last event */
  uint64_t cat[AN_CP_NCATS];                        /* the path's parts; they add up to length */
  an_cp_share kernels[AN_CP_TOP], calls[AN_CP_TOP]; /* the largest first */
  int nkernels, ncalls;
  uint64_t steps; /* edges on the path */
  an_cp_whatif whatif[AN_CP_WHATIFS];
  int nwhatif;
} an_cp_result;

/* calls sorted by thread and start, outer call first (as an_attribute
 * leaves them); calls_top: they are all top-level (an_calls_shape's
 * AN_CALLS_TOP for proc_start), so the graph takes them as they are
 * instead of a copy of its own; ops with their api_s/tid/enq resolved.
 * false when there is nothing (no op). */
bool an_critical_path(uint64_t proc_start, const an_call *calls, size_t ncalls, bool calls_top,
                      const an_cp_gpu *gpus, size_t ngpus, an_cp_result *out);

#endif
