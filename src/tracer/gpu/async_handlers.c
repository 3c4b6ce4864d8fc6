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
 * drops it), or with the signal.  Until a program registers its first
 * handler, an op costs one load of a flag here.
 *
 * A handler per op means two threads per op at its signal's entry: the
 * application's registers, the async-events thread drops.  What they
 * share is that entry alone: no count of all signals, no allocation made
 * on one thread and freed on the other (each such line moves between
 * their cores, on the path from a kernel's end to the next submit). */
#include "gpu_op.h"
#include "handle_table.h"

#include <sched.h>
#include <stdlib.h>

typedef struct watch watch;

typedef struct app_handler {
  hsa_amd_signal_handler fn;
  void *arg;
  uint64_t handle;
  hsa_signal_condition_t cond; /* the application's condition */
  hsa_signal_value_t cmp;
  bool on_change; /* registered for "the value changes", not for cond */
  watch *w;       /* the signal's, which outlives every registration of it */
} app_handler;

/* A signal's entry stays while the signal lives, at 0 handlers too, and
 * holds the registration of a signal watched by one handler at a time
 * (each op's, in HIP and in programs that register per op): registering
 * and dropping such a handler allocates and frees nothing, and changes
 * nothing that other signals' ops share.  An entry that its signal's
 * destroy finds with handlers still registered is freed by the last one
 * dropped. */
struct watch {
  rtg_handle_node node; /* first: the table's entry is the watch */
  uint32_t handlers;    /* the application's, registered and not yet dropped */
  bool forgotten;       /* the signal was destroyed: out of the table */
  bool own_busy;        /* own is registered */
  app_handler own;
};

static rtg_handle_table table;
/* set at the first registration, never cleared but by a fork: nothing to
 * look up before (written once, so the ops of every thread only read it) */
static _Atomic bool watching;

/* A registration of handle's for the application's handler: the entry's
 * own when free, else an allocated one; NULL: no memory. */
static app_handler *watch_take(uint64_t handle) {
  if (!atomic_load_explicit(&watching, memory_order_relaxed))
    atomic_store_explicit(&watching, true, memory_order_relaxed);
  rtg_handle_bucket *b = rtg_handle_bucket_of(&table, handle);
  watch *fresh = NULL;
  app_handler *extra = NULL;
  for (;;) { /* (allocations outside the lock) */
    rtg_spin_lock(&b->mu);
    rtg_handle_node **l;
    watch *w = (watch *)rtg_handle_find(b, handle, &l);
    if (!w && fresh) {
      w = fresh, fresh = NULL;
      w->node.handle = handle;
      *l = &w->node;
    }
    app_handler *a = NULL;
    if (w && !w->own_busy)
      a = &w->own, w->own_busy = true;
    else if (w && extra)
      a = extra, extra = NULL;
    if (a) {
      w->handlers++;
      a->w = w;
    }
    rtg_spin_unlock(&b->mu);
    if (a) {
      free(fresh);
      free(extra);
      return a;
    }
    if (!w && !(fresh = calloc(1, sizeof *fresh))) return NULL;
    if (w && !(extra = malloc(sizeof *extra))) return NULL;
  }
}

/* a's registration dropped (by the runtime, or never made) */
static void watch_drop(app_handler *a) {
  watch *w = a->w, *gone = NULL;
  rtg_handle_bucket *b = rtg_handle_bucket_of(&table, a->handle);
  rtg_spin_lock(&b->mu); /* the entry's lock, in the table or not */
  w->handlers--;
  if (a == &w->own) w->own_busy = false, a = NULL;
  if (w->forgotten && !w->handlers) gone = w;
  rtg_spin_unlock(&b->mu);
  free(a);
  free(gone);
}

bool rtg_async_watched(uint64_t handle) {
  if (!atomic_load_explicit(&watching, memory_order_relaxed)) return false;
  rtg_handle_bucket *b = rtg_handle_bucket_of(&table, handle);
  rtg_spin_lock(&b->mu);
  watch *w = (watch *)rtg_handle_find(b, handle, NULL);
  bool watched = w && w->handlers;
  rtg_spin_unlock(&b->mu);
  return watched;
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
  if (!again) watch_drop(a);
  return again;
}

static hsa_status_t hook_async_handler(hsa_signal_t sig, hsa_signal_condition_t cond,
                                       hsa_signal_value_t value, hsa_amd_signal_handler handler,
                                       void *arg) {
  app_handler *a = handler && sig.handle ? watch_take(sig.handle) : NULL;
  if (!a) return rtg_real.hsa_amd_signal_async_handler(sig, cond, value, handler, arg);
  *a = (app_handler){handler, arg, sig.handle, cond, value, false, a->w};
  hsa_status_t st = rtg_real.hsa_amd_signal_async_handler(sig, cond, value, app_trampoline, a);
  if (st != HSA_STATUS_SUCCESS) {
    watch_drop(a);
    return st;
  }
  /* registered after the op that raised the signal was submitted */
  rtg_owner_ref o;
  if (rtg_sigtrack_owner(sig.handle, &o) && !o.quiet) arm(o.op, o.claim, sig, o.wait_below);
  return st;
}

void rtg_async_forget(uint64_t handle) {
  if (!atomic_load_explicit(&watching, memory_order_relaxed)) return;
  rtg_handle_bucket *b = rtg_handle_bucket_of(&table, handle);
  rtg_spin_lock(&b->mu);
  rtg_handle_node **l;
  watch *w = (watch *)rtg_handle_find(b, handle, &l);
  if (w) {
    *l = w->node.next; /* a signal made at this handle next starts afresh */
    w->forgotten = true;
    if (w->handlers) w = NULL; /* the last one dropped frees it */
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
  atomic_store(&watching, false);
  rtg_handle_table_reset(&table);
}
