/* Async copies: hsa_amd_memory_async_copy, _rect and (5.6+) _on_engine.
 * The copy keeps the application's completion signal, raised by one before
 * the copy is issued (or a forwarded tool signal when another op in flight
 * uses it, sigtrack.c); the copy's start and end are read from it
 * (hsa_amd_profiling_get_async_copy_time) and the one taken away again, as
 * for packets (completion.c).  Copy timestamps need
 * hsa_amd_profiling_async_copy_enable(true): the tracer turns it on and keeps
 * it on while RTG_PROFILE_COPY is set, whatever the application (HIP
 * toggles it) asks, remembering the application's wish. */
#include "gpu_op.h"

#include <pthread.h>
#include <stdatomic.h>

/* One waiter per (source agent, destination agent), made at first use:
 * ROCR gives each direction of each agent pair its own engine (or blit
 * queue), so copies on one waiter finish in the order it waits for them,
 * and a slow copy never holds back the completion the application sees of
 * a copy on another engine.  More pairs than slots share by hash. */
enum { COPY_WAITERS = 32 };
static _Atomic(rtg_op_waiter *) copy_waiters[COPY_WAITERS];
static pthread_mutex_t copy_waiters_mu = PTHREAD_MUTEX_INITIALIZER;
static bool copies_on;

static rtg_op_waiter *copy_waiter(uint32_t src, uint32_t dst) {
  size_t i = (src * 9u + dst) % COPY_WAITERS;
  rtg_op_waiter *w = atomic_load_explicit(&copy_waiters[i], memory_order_acquire);
  if (w) return w;
  pthread_mutex_lock(&copy_waiters_mu);
  if (!(w = atomic_load(&copy_waiters[i]))) {
    w = rtg_waiter_create(1024, 0);
    atomic_store_explicit(&copy_waiters[i], w, memory_order_release);
  }
  pthread_mutex_unlock(&copy_waiters_mu);
  return w;
}
static bool app_wants_copy_timing;

static const char *copy_kind(hsa_device_type_t src, hsa_device_type_t dst) {
  bool s_cpu = src == HSA_DEVICE_TYPE_CPU, d_cpu = dst == HSA_DEVICE_TYPE_CPU;
  return s_cpu && d_cpu ? "HostToHost"
         : s_cpu        ? "HostToDevice"
         : d_cpu        ? "DeviceToHost"
                        : "DeviceToDevice";
}

/* Before the copy: an op for the waiter, or NULL when not traced. */
static rtg_op *copy_begin(hsa_agent_t src, hsa_agent_t dst, const char *kind, uint64_t bytes,
                          uint32_t ndeps, const hsa_signal_t *deps, hsa_signal_t sig,
                          const char *api) {
  rtg_async_arm_deps(deps, ndeps);
  if (!copies_on || !sig.handle) return NULL;
  rtg_agent *sa = rtg_agent_find(src), *da = rtg_agent_find(dst);
  rtg_op_waiter *w = copy_waiter(sa ? sa->index : 0, da ? da->index : 0);
  if (!w) return NULL;
  /* the GPU end names the engine's agent, as the original tracer did */
  rtg_agent *on = sa && sa->type != HSA_DEVICE_TYPE_CPU ? sa : da ? da : sa;
  rtg_waiter_throttle(w, 1, 1);
  rtg_op *op = rtg_op_begin(RTG_OP_COPY, w, sig);
  if (!op) return NULL;
  op->hsa_agent = on ? on->agent : src;
  op->agent = on ? on->index : 0;
  op->src_agent = sa ? sa->index : 0;
  op->dst_agent = da ? da->index : 0;
  op->agent_queue = on ? on->queues : 0;
  op->seq = on ? __atomic_fetch_add(&on->copies, 1, __ATOMIC_RELAXED) : 0;
  op->copy_kind =
      kind ? kind
           : copy_kind(sa ? sa->type : HSA_DEVICE_TYPE_CPU, da ? da->type : HSA_DEVICE_TYPE_CPU);
  op->bytes = bytes;
  op->api = api;
  for (uint32_t i = 0; i < ndeps && i < 5 && deps; i++) op->deps[i] = deps[i].handle;
  return op;
}

/* After: hand the op to the waiter, or undo the raise if the copy failed. */
static void copy_end(rtg_op *op, hsa_status_t st) {
  if (!op) return;
  if (st == HSA_STATUS_SUCCESS)
    rtg_op_submit(op);
  else
    rtg_op_cancel(op);
}

static hsa_status_t hook_copy(void *dst, hsa_agent_t dst_agent, const void *src,
                              hsa_agent_t src_agent, size_t size, uint32_t ndeps,
                              const hsa_signal_t *deps, hsa_signal_t sig) {
  rtg_op *op = copy_begin(src_agent, dst_agent, NULL, size, ndeps, deps, sig, "async_copy");
  hsa_status_t st = rtg_real.hsa_amd_memory_async_copy(dst, dst_agent, src, src_agent, size, ndeps,
                                                       deps, op ? op->signal : sig);
  copy_end(op, st);
  return st;
}

static hsa_status_t hook_copy_on_engine(void *dst, hsa_agent_t dst_agent, const void *src,
                                        hsa_agent_t src_agent, size_t size, uint32_t ndeps,
                                        const hsa_signal_t *deps, hsa_signal_t sig, int engine,
                                        bool force_sdma) {
  rtg_op *op =
      copy_begin(src_agent, dst_agent, NULL, size, ndeps, deps, sig, "async_copy_on_engine");
  hsa_status_t st = rtg_real.hsa_amd_memory_async_copy_on_engine(
      dst, dst_agent, src, src_agent, size, ndeps, deps, op ? op->signal : sig, engine, force_sdma);
  copy_end(op, st);
  return st;
}

static hsa_status_t hook_copy_rect(const hsa_pitched_ptr_t *dst, const hsa_dim3_t *dst_offset,
                                   const hsa_pitched_ptr_t *src, const hsa_dim3_t *src_offset,
                                   const hsa_dim3_t *range, hsa_agent_t copy_agent,
                                   hsa_amd_copy_direction_t dir, uint32_t ndeps,
                                   const hsa_signal_t *deps, hsa_signal_t sig) {
  static const char *const kinds[] = {"HostToHost", "HostToDevice", "DeviceToHost",
                                      "DeviceToDevice"};
  const char *kind = (unsigned)dir < 4 ? kinds[dir] : "UnknownCopy";
  uint64_t bytes = range ? (uint64_t)range->x * range->y * (range->z ? range->z : 1) : 0;
  /* the direction names the host end; the copy agent is the device end */
  rtg_agent *host = rtg_agent_host();
  hsa_agent_t h = host ? host->agent : copy_agent;
  hsa_agent_t from = dir == hsaHostToDevice || dir == hsaHostToHost ? h : copy_agent;
  hsa_agent_t to = dir == hsaDeviceToHost || dir == hsaHostToHost ? h : copy_agent;
  rtg_op *op = copy_begin(from, to, kind, bytes, ndeps, deps, sig, "async_copy_rect");
  hsa_status_t st = rtg_real.hsa_amd_memory_async_copy_rect(
      dst, dst_offset, src, src_offset, range, copy_agent, dir, ndeps, deps, op ? op->signal : sig);
  copy_end(op, st);
  return st;
}

static hsa_status_t hook_copy_enable(bool enable) {
  app_wants_copy_timing = enable;
  return rtg_real.hsa_amd_profiling_async_copy_enable(true);
}

void rtg_copies_init(void) {
  if (!rtg_cfg.profile_copy) return;
  if (!rtg_real.hsa_amd_profiling_async_copy_enable ||
      !rtg_real.hsa_amd_profiling_get_async_copy_time) {
    rtg_log(0, "the runtime lacks copy profiling: copies are not traced");
    return;
  }
  if (rtg_real.hsa_amd_profiling_async_copy_enable(true) != HSA_STATUS_SUCCESS) {
    rtg_log(0, "Cannot enable copy timestamps: copies are not traced");
    return;
  }
  copies_on = true;
  rtg_impl.hsa_amd_profiling_async_copy_enable = hook_copy_enable;
  if (rtg_real.hsa_amd_memory_async_copy) rtg_impl.hsa_amd_memory_async_copy = hook_copy;
  if (rtg_real.hsa_amd_memory_async_copy_rect)
    rtg_impl.hsa_amd_memory_async_copy_rect = hook_copy_rect;
  if (rtg_real.hsa_amd_memory_async_copy_on_engine)
    rtg_impl.hsa_amd_memory_async_copy_on_engine = hook_copy_on_engine;
}

/* fork child: the parent's waiter threads are not here */
void rtg_copies_after_fork(void) {
  for (int i = 0; i < COPY_WAITERS; i++) atomic_store(&copy_waiters[i], NULL);
  pthread_mutex_init(&copy_waiters_mu, NULL);
}
