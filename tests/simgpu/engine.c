/* engine.c - starting and stopping the engine of one hardware queue: a
 * worker thread per queue (aql_queue.c or sdma_queue.c), so kernels on
 * different queues and GPUs run concurrently as on a real GPU. Both front
 * ends create their queues here. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "sim_core.h"

static uint32_t next_qid = 1;

sim_queue_t *sim_queue_start(int is_aql, uint32_t node, void *ring, uint64_t ring_size,
                             volatile uint64_t *rptr, volatile uint64_t *wptr, int suspended) {
  sim_queue_t *q;
  if (posix_memalign((void **)&q, 4096, sizeof *q)) return NULL;
  memset(q, 0, sizeof *q);
  q->is_aql = is_aql;
  q->id = __atomic_fetch_add(&next_qid, 1, __ATOMIC_RELAXED);
  q->node = node;
  q->ring = ring;
  q->ring_size = ring_size;
  q->suspended = suspended;
  /* AQL: amd_queue_t.read/write_dispatch_id. SDMA: the front end's words,
   * or, when it passes none, the queue's own. */
  q->rptr = rptr ? rptr : &q->rptr_store;
  q->wptr = wptr ? wptr : &q->wptr_store;
  sim_monitor_add(q);

  /* Workers never run the application's signal handlers. */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  int err = pthread_create(&q->thread, NULL, is_aql ? sim_aql_worker : sim_sdma_worker, q);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (err) {
    sim_monitor_remove(q);
    free(q);
    return NULL;
  }
  SIM_LOG("create %s queue %u on node %u ring=%p size=%#llx\n", is_aql ? "AQL" : "SDMA", q->id,
          node, ring, (unsigned long long)ring_size);
  return q;
}

void sim_queue_suspend(sim_queue_t *q, int suspended) {
  q->suspended = suspended;
  if (!suspended) sim_kick();
}

void sim_queue_stop(sim_queue_t *q) {
  q->stop = 1;
  sim_unpark(q);
  pthread_join(q->thread, NULL);
  sim_monitor_remove(q);
  SIM_LOG("destroy queue %u after %llu packets\n", q->id, (unsigned long long)q->npackets);
  free(q);
}
