/* queue.c - creating and destroying hardware queues through the thunk. The
 * engines themselves are the core's (engine.c). */
#define _GNU_SOURCE
#include "sim.h"

HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueue(HSAuint32 node, HSA_QUEUE_TYPE type, HSAuint32 pct,
                                          HSA_QUEUE_PRIORITY prio, void *ring, HSAuint64 size,
                                          HsaEvent *ev, HsaQueueResource *r) {
  (void)prio, (void)ev;
  if (!sim_is_gpu_node(node)) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  int aql = type == HSA_QUEUE_COMPUTE_AQL;
  if (!aql && type != HSA_QUEUE_SDMA && type != HSA_QUEUE_SDMA_XGMI)
    return HSAKMT_STATUS_NOT_SUPPORTED;
  /* AQL: ROCR points these at amd_queue_t.read/write_dispatch_id. SDMA: the
   * queue keeps its own, and ROCR reads them where we say. */
  sim_queue_t *q = sim_queue_start(aql, node, ring, size, aql ? r->Queue_read_ptr_aql : NULL,
                                   aql ? r->Queue_write_ptr_aql : NULL, pct == 0);
  if (!q) return HSAKMT_STATUS_NO_MEMORY;
  if (!aql) {
    r->Queue_read_ptr_aql = (HSAuint64 *)&q->rptr_store;
    r->Queue_write_ptr_aql = (HSAuint64 *)&q->wptr_store;
  }
  r->Queue_DoorBell_aql = (HSAuint64 *)&q->doorbell;
  r->QueueId = (HSA_QUEUEID)(uintptr_t)q;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtUpdateQueue(HSA_QUEUEID id, HSAuint32 pct, HSA_QUEUE_PRIORITY prio,
                                          void *ring, HSAuint64 size, HsaEvent *ev) {
  (void)prio, (void)ring, (void)size, (void)ev;
  sim_queue_t *q = (sim_queue_t *)(uintptr_t)id;
  if (!q) return HSAKMT_STATUS_INVALID_PARAMETER;
  sim_queue_suspend(q, pct == 0); /* ROCR suspends a queue by giving it 0% */
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyQueue(HSA_QUEUEID id) {
  sim_queue_t *q = (sim_queue_t *)(uintptr_t)id;
  if (!q) return HSAKMT_STATUS_INVALID_PARAMETER;
  sim_queue_stop(q);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtSetQueueCUMask(HSA_QUEUEID id, HSAuint32 n, HSAuint32 *mask) {
  (void)id, (void)n, (void)mask;
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtAllocQueueGWS(HSA_QUEUEID id, HSAuint32 n, HSAuint32 *first) {
  (void)id, (void)n;
  if (first) *first = 0;
  return HSAKMT_STATUS_SUCCESS;
}
