/* Completion of GPU operations ("1:1 forwarding", as rocprofiler-sdk does).
 *
 * The packet keeps the application's completion signal; before it is
 * published the signal was raised by one (sigtrack.c), so it cannot reach
 * the value the application waits for until the tracer has (1) seen the
 * hardware's decrement, (2) read the start and end times the hardware
 * wrote into that signal, and (3) taken the extra one away again.  The
 * application sees the same values and timestamps as without the tracer.
 *
 * Who does it: the first thread that sees the decrement and claims the op
 * (an atomic claim word).  Usually that is the application's own thread,
 * in its hsa_signal_wait_* or hsa_signal_load_* call (signal_hooks.c): it
 * returns as soon as it would have without the tracer, with no thread hop.
 * Otherwise the op's waiter thread (waiters.c), which is also the only one
 * that frees an op, so an op claimed on the application's thread stays
 * valid until its waiter has seen it done. */
#include "core/spin.h"
#include "gpu_op.h"

#include <hsa/amd_hsa_signal.h>
#include <sched.h>

/* The thread that waited for op in its current life; 0: none. */
static uint32_t waited_by(const rtg_op *op) {
  uint64_t v = atomic_load_explicit(&((rtg_op *)op)->waited_by, memory_order_relaxed);
  uint32_t gen = atomic_load_explicit(&((rtg_op *)op)->claim, memory_order_relaxed) >> 2;
  return v >> 32 == gen ? (uint32_t)v : 0;
}

/* The runtime turns the GPU's ticks into host time under a mutex of the
 * GPU's (ROCR's GpuAgent::TranslateTime, twice per op), and the threads
 * that complete ops meet there: a queue's waiter finishing a burst of
 * HIP's kernels, the application's or the async-events thread finishing a
 * marker.  Each time one finds it held it sleeps until the holder wakes it
 * (core/spin.h), between the marker's end and the return of the
 * application's synchronisation.  Taken in turn here, the tracer's threads
 * never find that mutex held by each other. */
static rtg_spin times_mu;

/* The application's own reads (HIP's of its markers' times, on the
 * application's and the async-events thread) take the same turn: it would
 * otherwise meet a waiter in the runtime's mutex and sleep there. */
static hsa_status_t hook_dispatch_time(hsa_agent_t agent, hsa_signal_t sig,
                                       hsa_amd_profiling_dispatch_time_t *t) {
  rtg_spin_lock(&times_mu);
  hsa_status_t st = rtg_real.hsa_amd_profiling_get_dispatch_time(agent, sig, t);
  rtg_spin_unlock(&times_mu);
  return st;
}

static hsa_status_t hook_copy_time(hsa_signal_t sig, hsa_amd_profiling_async_copy_time_t *t) {
  rtg_spin_lock(&times_mu);
  hsa_status_t st = rtg_real.hsa_amd_profiling_get_async_copy_time(sig, t);
  rtg_spin_unlock(&times_mu);
  return st;
}

void rtg_op_times_hooks_init(void) {
  /* free again in a child that forked while a thread held it, whose new
   * hsa_init comes here */
  rtg_spin_init(&times_mu);
  if (!rtg_cfg.profile && !rtg_cfg.profile_copy) return;
  if (rtg_real.hsa_amd_profiling_get_dispatch_time)
    rtg_impl.hsa_amd_profiling_get_dispatch_time = hook_dispatch_time;
  if (rtg_real.hsa_amd_profiling_get_async_copy_time)
    rtg_impl.hsa_amd_profiling_get_async_copy_time = hook_copy_time;
}

/* Read the op's times, record it, and leave the application's signal as the
 * hardware would have.  The caller claimed the op.  Returns true when the
 * op is kept by sigtrack.c (a forward waiting for its owner). */
static bool finish(rtg_op *op) {
  uint64_t start = 0, stop = 0;
  hsa_status_t st;
  if (op->kind == RTG_OP_COPY) {
    hsa_amd_profiling_async_copy_time_t t = {0, 0};
    rtg_spin_lock(&times_mu);
    st = rtg_real.hsa_amd_profiling_get_async_copy_time(op->signal, &t);
    rtg_spin_unlock(&times_mu);
    start = t.start, stop = t.end;
  } else {
    hsa_amd_profiling_dispatch_time_t t = {0, 0};
    rtg_spin_lock(&times_mu);
    st = rtg_real.hsa_amd_profiling_get_dispatch_time(op->hsa_agent, op->signal, &t);
    rtg_spin_unlock(&times_mu);
    start = t.start, stop = t.end;
  }
  if (st == HSA_STATUS_SUCCESS)
    rtg_op_record_done(op, start, stop, waited_by(op));
  else
    rtg_count(RTG_CNT_LOST_GPU, 1);
  /* No longer in flight before the application can see completion: once
   * released, it may die at once (fatal signal, _exit), and the summary
   * must not count as unfinished an op whose record is already queued.
   * The exit and queue-destroy waits still cover the release below: after
   * inflight reaches 0 they join the waiter, which frees the op only once
   * it is done. */
  rtg_op_landed(op);
  /* last touch of the application's signal: after this it may destroy it */
  return rtg_op_release_signal(op);
}

static bool claim(rtg_op *op, uint32_t pending) {
  return atomic_compare_exchange_strong_explicit(&op->claim, &pending, pending | RTG_OP_CLAIMED,
                                                 memory_order_acq_rel, memory_order_relaxed);
}

/* Read from the signal's memory, not through the runtime: once another
 * thread has completed the op, the application may destroy its signal at
 * any time, and the runtime asserts on a destroyed handle.  The memory
 * stays mapped (signal pools), and a stale value cannot complete anything:
 * the claim of a completed op fails. */
static bool signal_done(uint64_t signal, hsa_signal_value_t wait_below, bool quiet) {
  const amd_signal_t *s = (const amd_signal_t *)(uintptr_t)signal;
  return __atomic_load_n(&s->value, __ATOMIC_ACQUIRE) < wait_below ||
         (quiet && __atomic_load_n(&s->end_ts, __ATOMIC_ACQUIRE));
}

/* For the op's waiter, which frees it: the op is in this life. */
static bool hw_done(const rtg_op *op) {
  return signal_done(op->signal.handle, op->wait_below, op->quiet);
}

bool rtg_op_seen_done(const rtg_op *op) {
  uint32_t c = atomic_load_explicit(&op->claim, memory_order_acquire);
  return (c & 3) == RTG_OP_DONE || ((c & 3) == RTG_OP_PENDING && hw_done(op));
}

bool rtg_op_seen_ended(const rtg_op *op) {
  if (rtg_op_seen_done(op)) return true;
  /* a pooled signal's end time is an earlier op's, a copy's its engine's */
  if (op->tool_signal || op->kind == RTG_OP_COPY || !op->signal.handle) return false;
  const amd_signal_t *s = (const amd_signal_t *)(uintptr_t)op->signal.handle;
  return __atomic_load_n(&s->end_ts, __ATOMIC_ACQUIRE) != 0;
}

bool rtg_owner_hw_done(const rtg_owner_ref *o) {
  return signal_done(o->signal, o->wait_below, o->quiet);
}

/* Only owners of an application signal come here (never kept by sigtrack),
 * so the op can be marked done for its waiter to free.  Until its claim
 * succeeds the op may be in a later life: only its atomic words are read. */
bool rtg_op_try_complete(const rtg_owner_ref *o) {
  rtg_op *op = o->op;
  uint32_t pending = o->claim;
  if ((pending & 3) != RTG_OP_PENDING || !atomic_load_explicit(&op->queued, memory_order_acquire) ||
      !rtg_owner_hw_done(o) || !claim(op, pending))
    return false;
  finish(op);
  atomic_store_explicit(&op->claim, pending | RTG_OP_DONE, memory_order_release);
  return true;
}

void rtg_op_settle(uint64_t handle, const rtg_owner_ref *o) {
  while (!rtg_op_try_complete(o)) {
    rtg_owner_ref now;
    if (!rtg_sigtrack_owner(handle, &now) || now.op != o->op || now.claim != o->claim) return;
    sched_yield();
  }
}

void rtg_op_mark_waited(const rtg_owner_ref *o) {
  uint64_t gen = o->claim >> 2, v = gen << 32 | (uint32_t)rtg_tid();
  if (atomic_load_explicit(&o->op->claim, memory_order_relaxed) >> 2 != gen) return; /* reused */
  uint64_t cur = atomic_load_explicit(&o->op->waited_by, memory_order_relaxed);
  if (cur >> 32 == gen && (uint32_t)cur) return; /* another thread waits too: the first */
  atomic_compare_exchange_strong_explicit(&o->op->waited_by, &cur, v, memory_order_relaxed,
                                          memory_order_relaxed);
}

bool rtg_op_waiter_try(rtg_op *op) {
  uint32_t c = atomic_load_explicit(&op->claim, memory_order_acquire);
  if ((c & 3) == RTG_OP_DONE) { /* the application's thread completed it */
    rtg_op_free(op);
    return true;
  }
  if ((c & 3) == RTG_OP_CLAIMED || !hw_done(op)) return false;
  if (!claim(op, c)) return false;
  if (!finish(op)) rtg_op_free(op);
  return true;
}
