/* queue.c - creating and destroying hardware queues. Each queue gets its own
 * worker thread, so kernels on different queues run concurrently as on a
 * real GPU; aql_queue.c and sdma_queue.c are the workers. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

static uint32_t next_qid = 1;

HSAKMT_STATUS HSAKMTAPI hsaKmtCreateQueue(HSAuint32 node, HSA_QUEUE_TYPE type, HSAuint32 pct,
                                          HSA_QUEUE_PRIORITY prio, void *ring, HSAuint64 size,
                                          HsaEvent *ev, HsaQueueResource *r) {
  (void)prio, (void)ev;
  if (!sim_is_gpu_node(node)) return HSAKMT_STATUS_INVALID_NODE_UNIT;
  void *(*worker)(void *);
  if (type == HSA_QUEUE_COMPUTE_AQL)
    worker = sim_aql_worker;
  else if (type == HSA_QUEUE_SDMA || type == HSA_QUEUE_SDMA_XGMI)
    worker = sim_sdma_worker;
  else
    return HSAKMT_STATUS_NOT_SUPPORTED;

  sim_queue_t *q;
  if (posix_memalign((void **)&q, 4096, sizeof *q)) return HSAKMT_STATUS_NO_MEMORY;
  memset(q, 0, sizeof *q);
  q->type = type;
  q->id = __atomic_fetch_add(&next_qid, 1, __ATOMIC_RELAXED);
  q->node = node;
  q->ring = ring;
  q->ring_size = size;
  q->suspended = pct == 0;
  if (type == HSA_QUEUE_COMPUTE_AQL) {
    /* ROCR points these at amd_queue_t.read/write_dispatch_id. */
    q->rptr = r->Queue_read_ptr_aql;
    q->wptr = r->Queue_write_ptr_aql;
  } else {
    q->rptr = &q->rptr_store;
    q->wptr = &q->wptr_store;
    r->Queue_read_ptr_aql = (HSAuint64 *)&q->rptr_store;
    r->Queue_write_ptr_aql = (HSAuint64 *)&q->wptr_store;
  }
  r->Queue_DoorBell_aql = (HSAuint64 *)&q->doorbell;
  r->QueueId = (HSA_QUEUEID)(uintptr_t)q;
  sim_monitor_add(q);

  /* Workers never run the application's signal handlers. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int err = pthread_create(&q->thread, NULL, worker, q);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (err) {
    sim_monitor_remove(q);
    free(q);
    return HSAKMT_STATUS_NO_MEMORY;
  }
  SIM_LOG("create %s queue %u on node %u ring=%p size=%#llx\n",
          type == HSA_QUEUE_COMPUTE_AQL ? "AQL" : "SDMA", q->id, node, ring,
          (unsigned long long)size);
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtUpdateQueue(HSA_QUEUEID id, HSAuint32 pct, HSA_QUEUE_PRIORITY prio,
                                          void *ring, HSAuint64 size, HsaEvent *ev) {
  (void)prio, (void)ring, (void)size, (void)ev;
  sim_queue_t *q = (sim_queue_t *)(uintptr_t)id;
  if (!q) return HSAKMT_STATUS_INVALID_PARAMETER;
  q->suspended = pct == 0; /* ROCR suspends a queue by giving it 0% */
  if (!q->suspended) sim_kick();
  return HSAKMT_STATUS_SUCCESS;
}

HSAKMT_STATUS HSAKMTAPI hsaKmtDestroyQueue(HSA_QUEUEID id) {
  sim_queue_t *q = (sim_queue_t *)(uintptr_t)id;
  if (!q) return HSAKMT_STATUS_INVALID_PARAMETER;
  q->stop = 1;
  sim_unpark(q);
  pthread_join(q->thread, NULL);
  sim_monitor_remove(q);
  SIM_LOG("destroy queue %u after %llu packets\n", q->id, (unsigned long long)q->npackets);
  free(q);
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
