/* Application async handlers (hsa_amd_signal_async_handler).
 *
 * A signal with a handler of the application's is "watched".  An op that
 * completes a watched signal leaves it at the application's value (a quiet
 * owner, sigtrack.c): the runtime's async-events thread runs the handler on
 * the hardware's decrement, as without the tracer, and the handler's
 * wrapper here first completes the op (reads its times) on that thread,
 * then calls the application's handler.  HIP >= 6 and HIP 5.x register a
 * handler on each marker before they submit it.
 *
 * A handler registered after its op was submitted finds the signal raised
 * by one (sigtrack.c), so it could only run once the op is completed: the
 * application's own waits and loads complete it at once (signal_hooks.c),
 * but the async-events thread just sees the condition unmet and waits
 * again, and the op would wait for its queue's waiter thread (200 us to
 * 1 ms).  Such an op gets a handler of the tracer's on the hardware's
 * decrement (value < the raised value), which completes it in the
 * runtime's thread; the application's handler then sees the value the
 * hardware left, in the same wake-up of that thread.
 *
 * Watching ends when the application's handler returns false (the runtime
 * drops it), or with the signal.  Signals nobody watches cost one atomic
 * load per op. */
#include "gpu_op.h"
#include "handle_table.h"

#include <sched.h>
#include <stdlib.h>

typedef struct watch {
  rtg_handle_node node; /* first: the table's entry is the watch */
  uint32_t handlers;    /* the application's, registered and not yet dropped */
} watch;

static rtg_handle_table table;
static _Atomic uint32_t n_watched; /* 0: nothing to look up */

/* Adds d (+1 or -1) to the handlers watching handle. */
static void watch_add(uint64_t handle, int d) {
  rtg_handle_bucket *b = rtg_handle_bucket_of(&table, handle);
  watch *fresh = d > 0 ? calloc(1, sizeof *fresh) : NULL, *gone = NULL; /* (outside the lock) */
  rtg_spin_lock(&b->mu);
  rtg_handle_node **l;
  watch *w = (watch *)rtg_handle_find(b, handle, &l);
  if (!w && fresh) {
    w = fresh, fresh = NULL;
    w->node.handle = handle;
    *l = &w->node;
    atomic_fetch_add_explicit(&n_watched, 1, memory_order_relaxed);
  }
  if (w) {
    w->handlers = d > 0 ? w->handlers + 1 : w->handlers ? w->handlers - 1 : 0;
    if (!w->handlers) {
      *l = w->node.next;
      gone = w;
      atomic_fetch_sub_explicit(&n_watched, 1, memory_order_relaxed);
    }
  }
  rtg_spin_unlock(&b->mu);
  free(fresh);
  free(gone);
}

bool rtg_async_watched(uint64_t handle) {
  if (!atomic_load_explicit(&n_watched, memory_order_relaxed)) return false;
  rtg_handle_bucket *b = rtg_handle_bucket_of(&table, handle);
  rtg_spin_lock(&b->mu);
  bool found = rtg_handle_find(b, handle, NULL) != NULL;
  rtg_spin_unlock(&b->mu);
  return found;
}

/* ------------------------------------------------- the tracer's handler */

static bool complete_on_decrement(hsa_signal_value_t value, void *arg) {
  (void)value;
  rtg_owner_ref *r = arg; /* as looked up: a later life of the op is not claimed */
  /* armed just before the op was handed to its waiter: a decrement seen
   * first (a very short kernel) waits the moment it takes to publish it */
  for (int i = 0; i < 10000 && !atomic_load_explicit(&r->op->queued, memory_order_acquire) &&
                  atomic_load_explicit(&r->op->claim, memory_order_relaxed) == r->claim;
       i++)
    sched_yield();
  rtg_op_try_complete(r); /* ops are pooled, never unmapped */
  free(r);
  return false; /* once */
}

/* sig: the op's signal, as known to the caller (once the op is done, its
 * fields belong to its next life) */
static void arm(rtg_op *op, uint32_t claim, hsa_signal_t sig, hsa_signal_value_t wait_below) {
  rtg_owner_ref *r = malloc(sizeof *r);
  if (!r) return; /* the waiter completes it, later */
  *r = (rtg_owner_ref){.op = op, .claim = claim, .signal = sig.handle, .wait_below = wait_below};
  if (rtg_real.hsa_amd_signal_async_handler(sig, HSA_SIGNAL_CONDITION_LT, wait_below,
                                            complete_on_decrement, r) != HSA_STATUS_SUCCESS)
    free(r);
}

void rtg_async_arm(rtg_op *op) {
  /* raised owners only: a forwarded op's hardware signal is the tracer's,
   * a quiet one's handler is the application's */
  if (!op->app_signal || op->forward || op->quiet || !rtg_real.hsa_amd_signal_async_handler ||
      !rtg_async_watched(op->app_signal))
    return;
  arm(op, atomic_load_explicit(&op->claim, memory_order_relaxed), op->signal, op->wait_below);
}

/* The GPU waiting on a raised signal (a barrier's dependency, a copy's)
 * would wait for the tracer too: nothing in the application waits on such a
 * signal, so only its queue's waiter would complete the op, 200 us to 1 ms
 * later, and every dependency between queues (a HIP stream waiting on
 * another's event) would stretch by that. */
void rtg_async_arm_deps(const hsa_signal_t *deps, uint32_t n) {
  if (!rtg_real.hsa_amd_signal_async_handler || !deps) return;
  for (uint32_t i = 0; i < n; i++) {
    rtg_owner_ref o;
    if (deps[i].handle && rtg_sigtrack_owner(deps[i].handle, &o) && !o.quiet)
      arm(o.op, o.claim, deps[i], o.wait_below);
  }
}

/* ------------------------------------------ the application's handlers */

typedef struct app_handler {
  hsa_amd_signal_handler fn;
  void *arg;
  uint64_t handle;
  hsa_signal_condition_t cond; /* the application's condition */
  hsa_signal_value_t cmp;
  bool on_change; /* registered for "the value changes", not for cond */
} app_handler;

static bool app_trampoline(hsa_signal_value_t value, void *arg);

/* Registers a's trampoline again: for the application's condition, or for
 * any change of the value now in the signal. */
static bool rearm(app_handler *a, bool on_change) {
  hsa_signal_t sig = {a->handle};
  hsa_signal_condition_t c = on_change ? HSA_SIGNAL_CONDITION_NE : a->cond;
  hsa_signal_value_t v = on_change ? rtg_real.hsa_signal_load_relaxed(sig) : a->cmp;
  a->on_change = on_change;
  return rtg_real.hsa_amd_signal_async_handler(sig, c, v, app_trampoline, a) == HSA_STATUS_SUCCESS;
}

/* The runtime decides on the signal's raw value.  While an op raised it,
 * that is not the application's (one more): a handler registered after
 * the submit would run at once on "not 1" or "at least 2".  The trampoline
 * decides on the application's value instead; when that does not meet the
 * condition, it waits for the raw value to change and decides again. */
static bool app_trampoline(hsa_signal_value_t value, void *arg) {
  app_handler *a = arg;
  rtg_owner_ref o;
  bool owned = rtg_sigtrack_owner(a->handle, &o);
  if (owned && o.quiet) { /* a quiet op the hardware finished: its times first */
    if (rtg_owner_hw_done(&o)) rtg_op_settle(a->handle, &o);
  } else if (owned || a->on_change) {
    value = owned ? rtg_signal_app_load((hsa_signal_t){a->handle})
                  : rtg_real.hsa_signal_load_scacquire((hsa_signal_t){a->handle});
    if (!rtg_signal_condition_met(a->cond, value, a->cmp)) {
      if (rearm(a, rtg_sigtrack_owner(a->handle, &o) && !o.quiet)) return false;
      return true; /* could not register again: keep this registration */
    }
  }
  bool again = a->fn(value, a->arg);
  if (again && a->on_change && rearm(a, false)) return false;
  if (!again) {
    watch_add(a->handle, -1);
    free(a);
  }
  return again;
}

static hsa_status_t hook_async_handler(hsa_signal_t sig, hsa_signal_condition_t cond,
                                       hsa_signal_value_t value, hsa_amd_signal_handler handler,
                                       void *arg) {
  app_handler *a = handler && sig.handle ? malloc(sizeof *a) : NULL;
  if (!a) return rtg_real.hsa_amd_signal_async_handler(sig, cond, value, handler, arg);
  *a = (app_handler){handler, arg, sig.handle, cond, value, false};
  watch_add(sig.handle, +1);
  hsa_status_t st = rtg_real.hsa_amd_signal_async_handler(sig, cond, value, app_trampoline, a);
  if (st != HSA_STATUS_SUCCESS) {
    watch_add(sig.handle, -1);
    free(a);
    return st;
  }
  /* registered after the op that raised the signal was submitted */
  rtg_owner_ref o;
  if (rtg_sigtrack_owner(sig.handle, &o) && !o.quiet) arm(o.op, o.claim, sig, o.wait_below);
  return st;
}

void rtg_async_forget(uint64_t handle) {
  if (!rtg_async_watched(handle)) return;
  rtg_handle_bucket *b = rtg_handle_bucket_of(&table, handle);
  rtg_spin_lock(&b->mu);
  rtg_handle_node **l;
  watch *w = (watch *)rtg_handle_find(b, handle, &l);
  if (w) {
    *l = w->node.next;
    atomic_fetch_sub_explicit(&n_watched, 1, memory_order_relaxed);
  }
  rtg_spin_unlock(&b->mu);
  free(w);
}

void rtg_async_handlers_install(void) {
  rtg_handle_table_reset(&table);
  if (rtg_real.hsa_amd_signal_async_handler)
    rtg_impl.hsa_amd_signal_async_handler = hook_async_handler;
}

/* Fork child: the runtime's handlers are the parent's. */
void rtg_async_after_fork(void) {
  atomic_store(&n_watched, 0);
  rtg_handle_table_reset(&table);
}
