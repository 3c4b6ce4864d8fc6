/* AQL packets: every queue the application (or HIP) creates with
 * hsa_queue_create becomes an intercept queue with profiling on, and every
 * packet passes through on_packets().  Kernel dispatches, barriers and AMD
 * barrier-value packets are forwarded unchanged except for the completion
 * signal, which is raised by one (or, when absent or shared with another op
 * in flight, replaced by a pooled tool signal, sigtrack.c) so that the GPU
 * times can be read before the application sees completion (completion.c),
 * and for a dependency on such a raised signal, whose condition is handed
 * to the GPU in the raised world (gpu_deps.c).
 * Other packet types pass through untouched and are counted.
 *
 * Cooperative queues (HSA_QUEUE_TYPE_COOPERATIVE, one per device in HIP):
 * ROCR gives every cooperative create on a GPU the same queue (the agent's
 * GWS queue), counts the references, and its destroy only drops one: the
 * GPU agent owns that queue and deletes it itself (at the last reference, or
 * at hsa_shut_down).  An intercept queue owns the queue it wraps and deletes
 * it at its own destroy, behind the agent's back, which then deletes it
 * again in hsa_shut_down (a virtual call through freed memory: SIGSEGV), and
 * a second intercept queue over the same queue would write its packets
 * beside the first's.  So a GPU's cooperative creates share one intercept
 * queue, counted here like ROCR counts them; at its last destroy the
 * GPU's queue is released through ROCR's own destroy (coop_release), and
 * the intercept queue's own memory stays until the process ends. */
#include "destroy_rescue.h"
#include "gpu_op.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct qinfo {
  struct qinfo *next; /* live queues, for hsa_queue_destroy */
  hsa_queue_t *queue;
  rtg_agent *agent;
  uint32_t index;       /* global, in creation order */
  uint32_t agent_queue; /* per agent (HCC_PROFILE's #agent.queue.seq) */
  _Atomic uint64_t seq;
  rtg_op_waiter *waiter;
  uint32_t chunk; /* packets per writer call (on_packets) */
  bool coop;      /* a GPU's shared cooperative queue (never destroyed) */
  bool retired;   /* cooperative, of a runtime that has shut down */
  uint64_t coop_agent;
  uint32_t coop_refs; /* its creates not yet destroyed */
} qinfo;

static _Atomic uint32_t n_queues;
static qinfo *live;
static pthread_mutex_t live_mu = PTHREAD_MUTEX_INITIALIZER;
/* held across a cooperative create: one intercept queue per GPU */
static pthread_mutex_t coop_mu = PTHREAD_MUTEX_INITIALIZER;

/* An AMD vendor-specific packet of format BARRIER_VALUE (the only vendor
 * packet with a completion signal the tracer can time; the others, PM4
 * indirect buffers, pass untouched). */
static bool is_barrier_value(const hsa_kernel_dispatch_packet_t *pkt) {
  return ((const hsa_amd_barrier_value_packet_t *)pkt)->header.AmdFormat ==
         HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
}

/* Prepare one dispatch, barrier or barrier-value packet (a copy in pkt) and
 * queue its op. */
static void track(qinfo *q, hsa_kernel_dispatch_packet_t *pkt, unsigned type, uint64_t ring_pos) {
  rtg_op_kind kind = type == HSA_PACKET_TYPE_KERNEL_DISPATCH ? RTG_OP_DISPATCH
                     : type == HSA_PACKET_TYPE_BARRIER_AND   ? RTG_OP_BARRIER_AND
                     : type == HSA_PACKET_TYPE_BARRIER_OR    ? RTG_OP_BARRIER_OR
                                                             : RTG_OP_BARRIER_VALUE;
  /* completion_signal sits at the same offset in dispatch, barrier and
   * barrier-value packets */
  rtg_op *op = rtg_op_begin(kind, q->waiter, pkt->completion_signal);
  if (!op) return;
  op->hsa_agent = q->agent ? q->agent->agent : (hsa_agent_t){0};
  op->agent = q->agent ? q->agent->index : 0;
  op->queue = q->index;
  op->agent_queue = q->agent_queue;
  op->seq = atomic_fetch_add(&q->seq, 1);
  op->ring_pos = ring_pos;
  if (op->kind == RTG_OP_DISPATCH) {
    op->kernel_object = pkt->kernel_object;
    op->grid = (rtg_dim3){pkt->grid_size_x, pkt->grid_size_y, pkt->grid_size_z};
    op->wg = (rtg_dim3){pkt->workgroup_size_x, pkt->workgroup_size_y, pkt->workgroup_size_z};
    op->lds = pkt->group_segment_size;
    op->scratch = pkt->private_segment_size;
    /* on the submitting thread (ROCR calls on_packets from the doorbell
     * write); the name stays valid until exit (roctx.c) */
    if (rtg_cfg.kernel_rename) op->rename = rtg_range_current();
  } else if (op->kind == RTG_OP_BARRIER_VALUE) {
    const hsa_amd_barrier_value_packet_t *v = (const hsa_amd_barrier_value_packet_t *)pkt;
    op->deps[0] = v->signal.handle;
    op->bv_value = v->value;
    op->bv_mask = v->mask;
    op->bv_cond = v->cond;
    if (!rtg_gpu_deps_rewrite(pkt, op->kind)) rtg_async_arm_deps(&v->signal, 1);
  } else { /* the record keeps the packet as the application wrote it */
    hsa_barrier_and_packet_t b = *(const hsa_barrier_and_packet_t *)pkt;
    for (int i = 0; i < 5; i++) op->deps[i] = b.dep_signal[i].handle;
    if (!rtg_gpu_deps_rewrite(pkt, op->kind)) rtg_async_arm_deps(b.dep_signal, 5);
  }
  pkt->completion_signal = op->signal;
  rtg_op_submit(op);
}

/* Does the tracer record this packet (kernel dispatch, barrier AND/OR, AMD
 * barrier-value)?  Its type in *type. */
static bool tracked(const hsa_kernel_dispatch_packet_t *p, unsigned *type) {
  *type = p->header & ((1u << HSA_PACKET_HEADER_WIDTH_TYPE) - 1);
  return *type == HSA_PACKET_TYPE_KERNEL_DISPATCH || *type == HSA_PACKET_TYPE_BARRIER_AND ||
         *type == HSA_PACKET_TYPE_BARRIER_OR ||
         (*type == HSA_PACKET_TYPE_VENDOR_SPECIFIC && is_barrier_value(p));
}

/* ROCR >= 7.2 hands a callback every packet waiting on the intercept queue,
 * up to a whole queue.  Such a batch never fits the wrapped queue at once:
 * ROCR then writes its retry barrier first, and on an empty wrapped queue
 * that barrier sits at the read index, which ROCR's pending-retry test
 * (retry index > read index) takes for already started; a doorbell before
 * the GPU has taken the barrier then asserts "no free slot for a retry
 * barrier packet" (test 187).  So packets go to the writer in chunks of at
 * most q->chunk, each after throttling for its own ops: with at most half
 * the queue in flight a chunk always fits, and ROCR's overflow path is never
 * taken.  Several writer calls are fine while none overflows (ROCR asserts
 * when a writer call finds its overflow buffer in use); up to 6.x a
 * callback has one packet, hence one call. */
static void on_packets(const void *pkts, uint64_t count, uint64_t user_pkt_index, void *data,
                       hsa_amd_queue_intercept_packet_writer writer) {
  (void)user_pkt_index;
  qinfo *q = data;
  enum { LOCAL = 64 };
  hsa_kernel_dispatch_packet_t local[LOCAL];
  hsa_kernel_dispatch_packet_t *out = count <= LOCAL ? local : malloc(count * sizeof *out);
  if (!out) { /* cannot track: pass them on as they are */
    writer(pkts, count);
    rtg_waiter_wrote(q->waiter, count);
    return;
  }
  memcpy(out, pkts, count * sizeof *out);
  unsigned type;
  for (uint64_t first = 0, len; first < count; first += len) {
    len = count - first < q->chunk ? count - first : q->chunk;
    uint32_t n = 0;
    for (uint64_t i = first; i < first + len; i++) n += tracked(&out[i], &type);
    /* before any op of the chunk: its ops run only after writer() below */
    if (n) rtg_waiter_throttle(q->waiter, n, (uint32_t)len);
    uint64_t pos = rtg_waiter_ring_pos(q->waiter);
    for (uint64_t i = first; i < first + len; i++) {
      if (tracked(&out[i], &type))
        track(q, &out[i], type, pos + (i - first));
      else
        rtg_count(RTG_CNT_OTHER_PACKETS, 1);
    }
    writer(&out[first], len);
    rtg_waiter_wrote(q->waiter, len);
  }
  if (out != local) free(out);
}

/* Make *queue an intercept queue with profiling on, its packets traced;
 * *info its qinfo (NULL when the queue is a plain one, or untraced). */
static hsa_status_t intercept_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                     rtg_hsa_queue_create_callback_fn callback, void *data,
                                     uint32_t private_segment_size, uint32_t group_segment_size,
                                     hsa_queue_t **queue, qinfo **info) {
  *info = NULL;
  hsa_status_t st = rtg_real.hsa_amd_queue_intercept_create(
      agent, size, type, callback, data, private_segment_size, group_segment_size, queue);
  if (st != HSA_STATUS_SUCCESS) /* not interceptable: a plain queue, untraced */
    return rtg_real.hsa_queue_create(agent, size, type, callback, data, private_segment_size,
                                     group_segment_size, queue);
  qinfo *q = calloc(1, sizeof *q);
  if (!q) return st;
  q->queue = *queue;
  q->agent = rtg_agent_find(agent);
  q->index = atomic_fetch_add(&n_queues, 1);
  q->agent_queue = q->agent ? __atomic_fetch_add(&q->agent->queues, 1, __ATOMIC_RELAXED) : 0;
  /* half the queue in flight at most, written a quarter at a time: the
   * device-side ring then always has room for the next chunk, so ROCR's
   * intercept overflow path is never taken, and the GPU still has a chunk
   * queued while the tracer waits for room for the next */
  q->waiter = rtg_waiter_create(size / 2 ? size / 2 : 1, size);
  q->chunk = size / 4 ? size / 4 : 1;
  if (!q->waiter) {
    free(q);
    return st;
  }
  if (type == HSA_QUEUE_TYPE_COOPERATIVE) {
    q->coop = true;
    q->coop_agent = agent.handle;
    q->coop_refs = 1;
  }
  pthread_mutex_lock(&live_mu);
  q->next = live;
  live = q;
  pthread_mutex_unlock(&live_mu);
  rtg_real.hsa_amd_profiling_set_profiler_enabled(*queue, 1);
  if (rtg_real.hsa_amd_queue_intercept_register(*queue, on_packets, q) != HSA_STATUS_SUCCESS)
    rtg_log(0, "Cannot intercept a queue: its packets are not traced");
  rtg_record r;
  rtg_record_init(&r, RTG_KIND_QUEUE, rtg_pid(), rtg_tid());
  r.u.QUEUE.index = q->index;
  r.u.QUEUE.agent = q->agent ? q->agent->index : 0;
  RTG_SET(&r, QUEUE, size, (*queue)->size);
  RTG_SET(&r, QUEUE, hw_id, (*queue)->id);
  rtg_emit(&r);
  *info = q;
  return st;
}

/* A cooperative create: the GPU's shared intercept queue, made at the
 * first (see the top of this file). */
static hsa_status_t coop_create(hsa_agent_t agent, uint32_t size,
                                rtg_hsa_queue_create_callback_fn callback, void *data,
                                uint32_t private_segment_size, uint32_t group_segment_size,
                                hsa_queue_t **queue) {
  pthread_mutex_lock(&coop_mu);
  pthread_mutex_lock(&live_mu);
  qinfo *q = live;
  while (q && !(q->coop && !q->retired && q->coop_agent == agent.handle)) q = q->next;
  if (q) {
    q->coop_refs++;
    *queue = q->queue;
  }
  pthread_mutex_unlock(&live_mu);
  hsa_status_t st = HSA_STATUS_SUCCESS;
  if (!q)
    st = intercept_create(agent, size, HSA_QUEUE_TYPE_COOPERATIVE, callback, data,
                          private_segment_size, group_segment_size, queue, &q);
  pthread_mutex_unlock(&coop_mu);
  return st;
}

static hsa_status_t hook_queue_create(hsa_agent_t agent, uint32_t size, hsa_queue_type32_t type,
                                      rtg_hsa_queue_create_callback_fn callback, void *data,
                                      uint32_t private_segment_size, uint32_t group_segment_size,
                                      hsa_queue_t **queue) {
  if (type == HSA_QUEUE_TYPE_COOPERATIVE)
    return coop_create(agent, size, callback, data, private_segment_size, group_segment_size,
                       queue);
  qinfo *q;
  return intercept_create(agent, size, type, callback, data, private_segment_size,
                          group_segment_size, queue, &q);
}

/* The last destroy of a GPU's shared cooperative intercept queue q (taken
 * out of the live list): its ops done, the reference the intercept queue
 * holds on the GPU's queue is dropped as ROCR's own destroy drops it, so
 * the agent deletes that queue now, as it would untraced.  The queue's
 * handle comes from one more cooperative create of the runtime's own
 * (another reference, dropped too).  The intercept queue itself is never
 * destroyed: it would delete the queue it wraps a second time. */
static void coop_release(qinfo *q) {
  rtg_waiter_destroy(q->waiter, rtg_cfg.exit_wait_ms);
  q->waiter = NULL;
  hsa_queue_t *gws;
  if (rtg_real.hsa_queue_create((hsa_agent_t){q->coop_agent}, q->queue->size,
                                HSA_QUEUE_TYPE_COOPERATIVE, NULL, NULL, UINT32_MAX, UINT32_MAX,
                                &gws) != HSA_STATUS_SUCCESS)
    return; /* the agent deletes it at hsa_shut_down */
  rtg_real.hsa_queue_destroy(gws);
  int watch = rtg_destroy_rescue_begin(gws);
  rtg_real.hsa_queue_destroy(gws);
  rtg_destroy_rescue_end(watch);
}

/* The queue's waiter thread ends with it (bounded: its ops get at most
 * RTG_EXIT_WAIT_MS, the app should have waited for them anyway). */
static hsa_status_t hook_queue_destroy(hsa_queue_t *queue) {
  pthread_mutex_lock(&coop_mu);
  pthread_mutex_lock(&live_mu);
  qinfo **l = &live;
  while (*l && (*l)->queue != queue) l = &(*l)->next;
  qinfo *q = *l;
  if (q && q->coop) { /* one reference less, as ROCR counts them */
    bool last = q->coop_refs && --q->coop_refs == 0;
    if (last) *l = q->next; /* the next create makes a new one */
    pthread_mutex_unlock(&live_mu);
    if (last) coop_release(q);
    pthread_mutex_unlock(&coop_mu);
    return HSA_STATUS_SUCCESS;
  }
  pthread_mutex_unlock(&coop_mu);
  if (q) *l = q->next;
  pthread_mutex_unlock(&live_mu);
  if (q) rtg_waiter_destroy(q->waiter, rtg_cfg.exit_wait_ms);
  int watch = rtg_destroy_rescue_begin(queue);
  hsa_status_t st = rtg_real.hsa_queue_destroy(queue);
  rtg_destroy_rescue_end(watch);
  free(q);
  return st;
}

/* hsa_shut_down: the cooperative queues go with the runtime's agents; a
 * runtime started again makes its own (their destroys still find these). */
void rtg_queues_unload(void) {
  pthread_mutex_lock(&live_mu);
  for (qinfo *q = live; q; q = q->next) q->retired = true;
  pthread_mutex_unlock(&live_mu);
}

void rtg_queues_after_fork(void) {
  pthread_mutex_init(&live_mu, NULL);
  pthread_mutex_init(&coop_mu, NULL);
  live = NULL; /* the parent's queues (their waiters are not in the child) */
}

void rtg_queue_intercept_init(void) {
  if (!rtg_cfg.profile) return;
  if (!rtg_real.hsa_amd_queue_intercept_create || !rtg_real.hsa_amd_queue_intercept_register ||
      !rtg_real.hsa_amd_profiling_get_dispatch_time || !rtg_real.hsa_signal_cas_scacq_screl) {
    rtg_log(0, "the runtime lacks queue interception: kernels and barriers are not traced");
    return;
  }
  rtg_impl.hsa_queue_create = hook_queue_create;
  rtg_impl.hsa_queue_destroy = hook_queue_destroy;
}
