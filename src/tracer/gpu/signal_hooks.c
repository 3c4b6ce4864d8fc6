/* The application's own waits and loads complete the GPU ops they see
 * completed.
 *
 * While an op is in flight its application signal is raised by one
 * (sigtrack.c), so the value the application waits for comes only after the
 * tracer has read the op's times and taken the one away.  Left to a waiter
 * thread, that is a thread hop per completion: the waiter wakes, works,
 * signals, and only then the application wakes, a little later on a big
 * host and much later on a small one.  Here the application's thread does
 * it: a wait on a signal whose owning op is in flight first waits for the
 * hardware's decrement of that op (within the application's timeout),
 * completes the op if no other thread has claimed it, then checks the
 * application's own condition; a load that sees the decrement does the
 * same before it returns.  The application's thread then leaves its wait
 * when it would have without the tracer.
 *
 * Nothing changes for signals without an op in flight but one atomic load
 * (a count of raised signals); the application's wait itself is the
 * runtime's, with the application's wait state.  Hooked: hsa_signal_wait_*,
 * hsa_amd_signal_wait_any, hsa_signal_load_*, hsa_signal_destroy (and
 * hsa_amd_signal_async_handler: async_handlers.c). */
#include "gpu_op.h"

#include <hsa/amd_hsa_signal.h>

#include <sched.h>
#include <time.h>

typedef hsa_signal_value_t (*wait_fn)(hsa_signal_t, hsa_signal_condition_t, hsa_signal_value_t,
                                      uint64_t, hsa_wait_state_t);

/* One signal shared by ops in flight (a count of completions, sigtrack.c):
 * once its owner landed, each other op's decrement reaches it only when
 * that op is completed, through its own tool signal.  Left to the queues'
 * waiters, the application's wait would return one of their polls (200 us
 * to 1 ms) after the last op ended.  So the waiting thread blocks on the
 * tool signals (which have an event) of the newest forward of each queue
 * among the oldest FWD_MAX, and on the application's condition, together;
 * completes the forwards that landed when it wakes, and returns once the
 * condition holds.  One wake-up per queue, not per op: a count waited down
 * to 0 is woken by its last op, as without the tracer (a condition met
 * halfway through waits for the waiters' polls, as before).  The older
 * forwards are left to their waiters meanwhile, so that few are left to
 * complete here once the newest lands.  1: the condition held,
 * *out the value; 0: a forward progressed or is landing (look again); -1:
 * none to wait for here (none in flight, none with an event, or no
 * wait_any); -2: timed out, *out the value. */
enum { FWD_MAX = 63 };

/* Does the hardware's completion of this signal wake a thread blocked on
 * it (an interrupt signal: the runtime gave it an event)? */
static bool has_event(uint64_t signal) {
  return ((const amd_signal_t *)(uintptr_t)signal)->event_mailbox_ptr != 0;
}

static int wait_forwards(hsa_signal_t sig, hsa_signal_condition_t cond, hsa_signal_value_t cmp,
                         uint64_t timeout, hsa_wait_state_t state, hsa_signal_value_t *out) {
  rtg_owner_ref f[FWD_MAX], w[FWD_MAX];
  hsa_signal_t sigs[FWD_MAX + 1];
  hsa_signal_condition_t c[FWD_MAX + 1];
  hsa_signal_value_t v[FWD_MAX + 1];
  if (!rtg_real.hsa_amd_signal_wait_any) return -1;
  uint32_t n = rtg_sigtrack_forwards(sig.handle, f, FWD_MAX), m = 0;
  if (!n) return -1;
  *out = rtg_real.hsa_signal_load_relaxed(sig);
  if (rtg_signal_condition_met(cond, *out, cmp)) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE); /* (the value came from a relaxed load) */
    return 1;
  }
  bool progressed = false, landing = false;
  for (uint32_t i = 0; i < n; i++) {
    if ((f[i].claim & 3) != RTG_OP_PENDING) { /* another thread completes it */
      landing = true;
      continue;
    }
    if (rtg_owner_hw_done(&f[i])) {
      rtg_op_mark_waited(&f[i]); /* (this thread is in its wait for it) */
      if (rtg_op_try_complete(&f[i]))
        progressed = true;
      else
        landing = true;
      continue;
    }
    if (!has_event(f[i].signal)) continue; /* nothing would wake this thread: its waiter's */
    /* the newest of its queue's: its queue's older ones have landed by
     * then, and one wake-up completes them all */
    uint32_t j = 0;
    while (j < m && w[j].lane != f[i].lane) j++;
    w[j] = f[i];
    sigs[j] = (hsa_signal_t){f[i].signal};
    c[j] = HSA_SIGNAL_CONDITION_LT;
    v[j] = 1;
    if (j == m) m++;
  }
  if (progressed) return 0;
  if (!m) {
    if (!landing) return -1; /* none to block on: the waiters complete them */
    sched_yield();           /* claimed by another thread now: it lands in a moment */
    return 0;
  }
  sigs[m] = sig, c[m] = cond, v[m] = cmp;
  for (uint32_t i = 0; i < m; i++) /* left to this thread by their waiters (waiters.c) */
    atomic_fetch_add_explicit(&w[i].op->app_waits, 1, memory_order_relaxed);
  hsa_signal_value_t got = 0;
  uint32_t k = rtg_real.hsa_amd_signal_wait_any(m + 1, sigs, c, v, timeout, state, &got);
  if (k < m) rtg_op_mark_waited(&w[k]), rtg_op_try_complete(&w[k]);
  for (uint32_t i = 0; i < m; i++)
    atomic_fetch_sub_explicit(&w[i].op->app_waits, 1, memory_order_relaxed);
  if (k < m) return 0;
  if (k == m) {
    __atomic_thread_fence(__ATOMIC_ACQUIRE); /* as the application's wait would */
    *out = got;
    return 1;
  }
  *out = rtg_real.hsa_signal_load_relaxed(sig);
  return -2;
}

/* Complete the owners of sig as the hardware finishes them, and its
 * forwards once no owner is left, until the application's condition holds,
 * no op of sig is in flight, or the wait for one timed out (then the
 * runtime's own wait decides, as it would). */
static hsa_signal_value_t wait_completing(wait_fn real, hsa_signal_t sig,
                                          hsa_signal_condition_t cond, hsa_signal_value_t cmp,
                                          uint64_t timeout, hsa_wait_state_t state) {
  rtg_owner_ref o;
  for (int rounds = 0, fwd_rounds = 0; rounds < 64 && fwd_rounds < 65536;) {
    if (!rtg_sigtrack_owner(sig.handle, &o)) {
      hsa_signal_value_t v;
      int r = wait_forwards(sig, cond, cmp, timeout, state, &v);
      if (r < -1 || r > 0) return v;
      if (r < 0) break;
      fwd_rounds++;
      continue;
    }
    rounds++;
    hsa_signal_value_t v = rtg_real.hsa_signal_load_relaxed(sig);
    /* finished, also between the look-up and the load (the value then
     * shows the hardware's decrement while the op is still raised):
     * completed before the application sees it (a quiet op's signal has
     * the application's value, which may meet its condition) */
    if (rtg_owner_hw_done(&o)) {
      rtg_op_settle(sig.handle, &o);
      continue;
    }
    v = rtg_signal_app_value(sig, &o, v);
    if (rtg_signal_condition_met(cond, v, cmp)) { /* as the runtime returns at once */
      __atomic_thread_fence(__ATOMIC_ACQUIRE);    /* (the value came from a relaxed load) */
      return v;
    }
    atomic_fetch_add_explicit(&o.op->app_waits, 1, memory_order_relaxed);
    rtg_op_mark_waited(&o);
    v = real(sig, HSA_SIGNAL_CONDITION_LT, o.wait_below, timeout, state);
    if (v >= o.wait_below) {
      atomic_fetch_sub_explicit(&o.op->app_waits, 1, memory_order_relaxed);
      return rtg_signal_app_value(sig, &o, v); /* timed out: may return early */
    }
    rtg_op_settle(sig.handle, &o);
    atomic_fetch_sub_explicit(&o.op->app_waits, 1, memory_order_relaxed);
  }
  return real(sig, cond, cmp, timeout, state);
}

static hsa_signal_value_t hook_wait_scacquire(hsa_signal_t sig, hsa_signal_condition_t cond,
                                              hsa_signal_value_t cmp, uint64_t timeout,
                                              hsa_wait_state_t state) {
  return wait_completing(rtg_real.hsa_signal_wait_scacquire, sig, cond, cmp, timeout, state);
}

static hsa_signal_value_t hook_wait_relaxed(hsa_signal_t sig, hsa_signal_condition_t cond,
                                            hsa_signal_value_t cmp, uint64_t timeout,
                                            hsa_wait_state_t state) {
  return wait_completing(rtg_real.hsa_signal_wait_relaxed, sig, cond, cmp, timeout, state);
}

/* hsa_amd_signal_wait_any, the same way: each signal whose owning op is in
 * flight is waited on for the hardware's decrement instead of the
 * application's condition (unless that already holds); the one that fires
 * first is completed, and the wait starts again with what is left.  A
 * signal without an owner keeps the application's condition, so its index
 * is returned as the runtime would.  Arrays longer than WAIT_ANY_MAX (no
 * runtime client comes near) are left to the runtime and the waiters. */
enum { WAIT_ANY_MAX = 64 };

/* The first signal whose condition holds in the application's values, as
 * the runtime answers a wait whose condition already holds; n if none. */
static uint32_t first_met(uint32_t n, hsa_signal_t *sigs, hsa_signal_condition_t *conds,
                          hsa_signal_value_t *vals, hsa_signal_value_t *out) {
  for (uint32_t j = 0; j < n; j++) {
    rtg_owner_ref o;
    bool owned = rtg_sigtrack_owner(sigs[j].handle, &o);
    hsa_signal_value_t v = rtg_real.hsa_signal_load_relaxed(sigs[j]);
    if (owned && rtg_owner_hw_done(&o)) { /* finished since the look-up: its times first */
      rtg_op_settle(sigs[j].handle, &o);
      owned = rtg_sigtrack_owner(sigs[j].handle, &o);
      v = rtg_real.hsa_signal_load_relaxed(sigs[j]);
    }
    if (owned) v = rtg_signal_app_value(sigs[j], &o, v);
    if (!rtg_signal_condition_met(conds[j], v, vals[j])) continue;
    __atomic_thread_fence(__ATOMIC_ACQUIRE); /* (the value came from a relaxed load) */
    if (out) *out = v;
    return j;
  }
  return n;
}

static uint32_t hook_wait_any(uint32_t n, hsa_signal_t *sigs, hsa_signal_condition_t *conds,
                              hsa_signal_value_t *vals, uint64_t timeout, hsa_wait_state_t state,
                              hsa_signal_value_t *out) {
  hsa_signal_condition_t c[WAIT_ANY_MAX];
  hsa_signal_value_t v[WAIT_ANY_MAX];
  rtg_owner_ref o[WAIT_ANY_MAX];
  bool owned[WAIT_ANY_MAX];
  for (int rounds = 0; n <= WAIT_ANY_MAX && sigs && conds && vals && rounds < 64; rounds++) {
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
      c[i] = conds[i];
      v[i] = vals[i];
      owned[i] = rtg_sigtrack_owner(sigs[i].handle, &o[i]);
      if (owned[i] && rtg_owner_hw_done(&o[i])) { /* completed before anyone sees it */
        rtg_op_settle(sigs[i].handle, &o[i]);
        owned[i] = rtg_sigtrack_owner(sigs[i].handle, &o[i]);
      }
      if (!owned[i]) continue;
      if (rtg_signal_condition_met(
              conds[i],
              rtg_signal_app_value(sigs[i], &o[i], rtg_real.hsa_signal_load_relaxed(sigs[i])),
              vals[i])) {
        uint32_t k = first_met(n, sigs, conds, vals, out); /* as the runtime returns at once */
        if (k < n) return k;
      }
      any = true;
      c[i] = HSA_SIGNAL_CONDITION_LT;
      v[i] = o[i].wait_below;
    }
    if (!any) break;
    hsa_signal_value_t got = 0;
    for (uint32_t i = 0; i < n; i++)
      if (owned[i]) atomic_fetch_add_explicit(&o[i].op->app_waits, 1, memory_order_relaxed);
    uint32_t k = rtg_real.hsa_amd_signal_wait_any(n, sigs, c, v, timeout, state, &got);
    if (k < n && owned[k]) rtg_op_mark_waited(&o[k]), rtg_op_settle(sigs[k].handle, &o[k]);
    for (uint32_t i = 0; i < n; i++)
      if (owned[i]) atomic_fetch_sub_explicit(&o[i].op->app_waits, 1, memory_order_relaxed);
    if (k >= n) return k; /* timed out: a wait may return early */
    if (!owned[k]) {
      if (out) *out = got;
      return k;
    }
    /* usually the application's condition holds now: answer without a
     * second wait (the runtime's sets up its event list on every call) */
    hsa_signal_value_t now = rtg_real.hsa_signal_load_relaxed(sigs[k]);
    if (rtg_signal_condition_met(conds[k], now, vals[k])) {
      if (out) *out = now;
      return k;
    }
  }
  return rtg_real.hsa_amd_signal_wait_any(n, sigs, conds, vals, timeout, state, out);
}

static hsa_signal_value_t hook_load_scacquire(hsa_signal_t sig) {
  return rtg_signal_load(rtg_real.hsa_signal_load_scacquire, true, sig);
}
static hsa_signal_value_t hook_load_relaxed(hsa_signal_t sig) {
  return rtg_signal_load(rtg_real.hsa_signal_load_relaxed, true, sig);
}

/* The application may destroy a signal as soon as the hardware is done with
 * it, without waiting on it (it waited on a later op that depended on it):
 * finish what the tracer still owes that signal first, or the runtime
 * would see a destroyed signal touched.  The owner is completed right here;
 * ops forwarded to it (a shared signal) are its waiters' to finish, soon.
 * Bounded: an application destroying a signal still in use by the GPU
 * gets RTG_EXIT_WAIT_MS, then its destroy as it asked, and what is still
 * in flight is orphaned (sigtrack.c): counted as unfinished, never looked
 * for in that memory again. */
static hsa_status_t hook_signal_destroy(hsa_signal_t sig) {
  uint64_t deadline = 0;
  while (rtg_sigtrack_busy(sig.handle)) {
    rtg_owner_ref o;
    if (rtg_sigtrack_owner(sig.handle, &o) && rtg_op_try_complete(&o)) continue;
    uint64_t now = rtg_now();
    if (!deadline) deadline = now + (uint64_t)rtg_cfg.exit_wait_ms * 1000000ull;
    if (now >= deadline) {
      rtg_sigtrack_orphan(sig.handle);
      break;
    }
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
  }
  rtg_async_forget(sig.handle);
  return rtg_real.hsa_signal_destroy(sig);
}

void rtg_signal_hooks_init(void) {
  if (!rtg_cfg.profile && !rtg_cfg.profile_copy) return;
  if (!rtg_real.hsa_signal_wait_scacquire || !rtg_real.hsa_signal_wait_relaxed ||
      !rtg_real.hsa_signal_load_scacquire || !rtg_real.hsa_signal_load_relaxed)
    return;
  rtg_impl.hsa_signal_wait_scacquire = hook_wait_scacquire;
  rtg_impl.hsa_signal_wait_relaxed = hook_wait_relaxed;
  rtg_impl.hsa_signal_load_scacquire = hook_load_scacquire;
  rtg_impl.hsa_signal_load_relaxed = hook_load_relaxed;
  if (rtg_real.hsa_signal_destroy) rtg_impl.hsa_signal_destroy = hook_signal_destroy;
  if (rtg_real.hsa_amd_signal_wait_any) rtg_impl.hsa_amd_signal_wait_any = hook_wait_any;
  rtg_async_handlers_install();
}
