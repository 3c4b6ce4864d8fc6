/* The GPU side of the tracer as the process sees it: its hooks, set up at
 * load (gpu.c), and what exit, exec, fork and a fatal signal need of the
 * ops in flight (waiters.c). */
#ifndef RTG_GPU_H
#define RTG_GPU_H

#include "core/visibility.h"

#include <stdint.h>

/* At load, after the runtime's tables are read: the hooks the settings ask
 * for (kernel names, completion in the application's waits, queues,
 * copies), put into rtg_impl. */
RTG_HIDDEN void rtg_gpu_init(void);

/* Process end: wait for the ops in flight, at most ms; count what is left
 * unfinished and stop the waiters; then give the tool signals back. */
RTG_HIDDEN void rtg_gpu_finish(int ms);
/* OnUnload (hsa_shut_down): the runtime's agents, and with them the
 * queues they own, are about to go. */
RTG_HIDDEN void rtg_gpu_unload(void);
/* exec: wait for the ops in flight, at most ms, and leave them running. */
RTG_HIDDEN void rtg_gpu_quiesce(int ms);
/* Ops in flight now, without a lock (the fatal-signal path: a lock holder
 * may never run again). */
RTG_HIDDEN uint64_t rtg_gpu_inflight(void);

/* Fork child: the parent's ops, waiters and queues are the parent's. */
RTG_HIDDEN void rtg_gpu_after_fork(void);

#endif
