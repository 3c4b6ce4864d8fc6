/* Completion signals shared by several GPU ops in flight.
 *
 * The first op of an application signal keeps it ("1:1 forwarding",
 * completion.c): the signal is raised by one and its waiter reads the times
 * the hardware wrote into it.  When a second op with the same signal is
 * submitted while the first is in flight (sg_stress, or any program that
 * counts completions on one signal), its times would be overwritten by
 * whichever op completes last, so it gets a pooled tool signal instead
 * (as rocprofiler v1 and roctracer time copies).  Whoever completes it (its
 * waiter, or a thread waiting on the application's signal: the forwards in
 * flight are listed per signal for it, signal_hooks.c) reads the times
 * from the tool signal and then does to the application's signal exactly
 * what the hardware would have: store start_ts and end_ts in its
 * amd_signal_t, then subtract one.  Values and timestamps end as without
 * the tracer.
 *
 * The owner waits for "value < raised value": a forwarded decrement before
 * the owner's own would look like its completion.  So while the owner is in
 * flight, forwards that complete first (ops on another queue, served by
 * another waiter) are deferred and done by the owner's waiter right after
 * the owner's.  A signal becomes owned again only when none of its ops is
 * in flight.
 *
 * An owner whose signal has a handler of the application's (HIP >= 6 and
 * HIP 5.x register one on each marker before submitting it) is "quiet":
 * not raised, so that the runtime's async-events thread runs that handler
 * on the hardware's decrement as it would untraced, and the handler's
 * wrapper completes the op before it calls the application
 * (async_handlers.c).  Raising it instead would take a handler of the
 * tracer's registered per op: one more wake-up of that thread per op,
 * which stretches a timeline of short kernels.  A quiet op is done when its
 * value is below the one it had at submission, or once the hardware wrote
 * its end time (zeroed at submission): its value alone may be set again
 * by an application that saw it reach its final value before the tracer.
 * Copies are always raised (their end time is the engine's to write).
 *
 * The table entry goes away with the last forward, done under
 * the bucket's lock, so a handle the application destroys and the runtime
 * reuses at once finds either no entry or one still in use (then the new
 * op is forwarded, which is always correct).
 *
 * An application may destroy a signal while the GPU still runs an op of
 * it.  The destroy first waits for those ops (signal_hooks.c, bounded by
 * RTG_EXIT_WAIT_MS); what is still in flight then is orphaned
 * (rtg_sigtrack_orphan): the runtime may hand the signal's memory to the
 * next signal created at once, with any value, so the owner's completion
 * can no longer be told from that memory.  The owner is taken off its
 * waiter, which would otherwise poll it for ever (and the queue's
 * submitters, throttled behind it, would wait for ever too), and counted
 * as unfinished; the entry goes, so that a new signal at that handle starts
 * afresh.  Each entry has a serial, kept by its ops: an op whose entry is
 * gone or another at release never touches the handle again. */
#include "gpu_op.h"
#include "handle_table.h"

#include <hsa/amd_hsa_signal.h>
#include <stdlib.h>

typedef struct sig_entry {
  rtg_handle_node node; /* first: the table's entry is the sig_entry */
  uint32_t inflight;    /* ops of this signal not yet forwarded/released */
  bool owner_busy;      /* the op that raised the signal is in flight */
  rtg_op *owner;        /* that op, and its claim word when it was bound */
  uint32_t owner_claim;
  rtg_op *deferred; /* forwards waiting for the owner, in completion order */
  rtg_op *deferred_tail;
  rtg_op *fwds, *fwds_tail; /* forwards not yet released, oldest first */
  uint64_t serial;          /* this entry's, never reused (its ops keep it) */
} sig_entry;

/* What an op's binding and release write is its signal's bucket and entry:
 * no count or list of all signals, which the submitting thread and the one
 * that completes the op (the runtime's async-events thread, for a watched
 * signal) would otherwise pass between their cores twice per op.  A bucket
 * keeps one freed entry for the next signal bound in it (the same signal,
 * for one that is reused) and numbers its entries. */
static rtg_handle_table table;
static sig_entry *free_entries;      /* beyond the buckets' spares: guarded by free_mu */
static _Atomic uint32_t fwds_linked; /* forwards in flight: 0 = nothing to look up */
static rtg_spin free_mu;             /* (zero: free) */

typedef rtg_handle_bucket bucket;

static bucket *bucket_of(uint64_t h) {
  return rtg_handle_bucket_of(&table, h);
}

static sig_entry *find(bucket *b, uint64_t h, rtg_handle_node ***link) {
  return (sig_entry *)rtg_handle_find(b, h, link);
}

/* A new entry for h in b (b's lock held).  Its serial is unique among the
 * entries of b, so among those of h. */
static sig_entry *entry_new(bucket *b, uint64_t h) {
  sig_entry *e = b->spare;
  b->spare = NULL;
  if (!e) {
    rtg_spin_lock(&free_mu);
    e = free_entries;
    if (e) free_entries = (sig_entry *)e->node.next;
    rtg_spin_unlock(&free_mu);
  }
  if (!e && !(e = malloc(sizeof *e))) return NULL;
  *e = (sig_entry){.node = {.handle = h}, .serial = ++b->serial};
  return e;
}

/* e, out of b's list (b's lock held). */
static void entry_free(bucket *b, sig_entry *e) {
  if (!b->spare) {
    b->spare = e;
    return;
  }
  rtg_spin_lock(&free_mu);
  e->node.next = (rtg_handle_node *)free_entries;
  free_entries = e;
  rtg_spin_unlock(&free_mu);
}

/* *link = n, seen by rtg_handle_bucket_empty */
static void link_set(rtg_handle_node **link, rtg_handle_node *n) {
  __atomic_store_n(link, n, __ATOMIC_RELAXED);
}

/* Forwards in flight, linked in submission order (bucket lock held). */
static void fwd_link(sig_entry *e, rtg_op *op) {
  op->fwd_next = NULL;
  op->fwd_prev = e->fwds_tail;
  if (e->fwds_tail)
    e->fwds_tail->fwd_next = op;
  else
    e->fwds = op;
  e->fwds_tail = op;
  atomic_fetch_add_explicit(&fwds_linked, 1, memory_order_relaxed);
}

static void fwd_unlink(sig_entry *e, rtg_op *op) {
  if (!e) return;
  if (op->fwd_prev)
    op->fwd_prev->fwd_next = op->fwd_next;
  else if (e->fwds == op)
    e->fwds = op->fwd_next;
  else
    return; /* not linked */
  if (op->fwd_next)
    op->fwd_next->fwd_prev = op->fwd_prev;
  else
    e->fwds_tail = op->fwd_prev;
  op->fwd_prev = op->fwd_next = NULL;
  atomic_fetch_sub_explicit(&fwds_linked, 1, memory_order_relaxed);
}

/* Raise sig by one, returning the value after (one atomic add: the
 * hardware may be decrementing it now for an untracked op).  On the signal's
 * memory, not through the runtime, whose every change of an interrupt
 * signal also sets its event (a kernel call on real hardware) to wake
 * waiters, and a raise moves the value away from what anyone waits for. */
static hsa_signal_value_t raise_signal(hsa_signal_t sig) {
  amd_signal_t *s = (amd_signal_t *)(uintptr_t)sig.handle;
  return __atomic_add_fetch(&s->value, 1, __ATOMIC_ACQ_REL);
}

bool rtg_op_bind_signal(rtg_op *op, hsa_signal_t app) {
  op->app_signal = app.handle;
  if (app.handle) {
    bucket *b = bucket_of(app.handle);
    rtg_spin_lock(&b->mu);
    rtg_handle_node **link;
    sig_entry *e = find(b, app.handle, &link);
    /* any signal can be owned, interrupt or busy-wait (HIP >= 6's GPU-only
     * signals, IPC signals): the tracer never waits on it through the
     * runtime, whose host wait on a busy-wait signal spins (waiters.c) */
    bool owner = !e;
    if (owner && (e = entry_new(b, app.handle))) {
      e->owner_busy = true;
      e->owner = op;
      e->owner_claim = atomic_load_explicit(&op->claim, memory_order_relaxed);
      link_set(link, &e->node);
    }
    if (e) {
      e->inflight++;
      op->entry_serial = e->serial;
    }
    rtg_spin_unlock(&b->mu);
    if (!e) return false; /* no memory: cannot track this op */
    if (owner) {
      op->signal = app;
      /* written again by the hardware when a packet ends: for a quiet op
       * its completion, for any its launch (the waiter's proof of ring
       * room); a copy's is its engine's (and no ring's) */
      amd_signal_t *s = (amd_signal_t *)(uintptr_t)app.handle;
      if (op->kind != RTG_OP_COPY) __atomic_store_n(&s->end_ts, 0, __ATOMIC_RELAXED);
      if (op->quiet) {
        /* the application's handler completes it, in the runtime's thread
         * on the hardware's decrement (async_handlers.c), with no handler
         * of the tracer's to register, nor a value to take away after */
        op->wait_below = __atomic_load_n(&s->value, __ATOMIC_ACQUIRE);
      } else {
        op->wait_below = raise_signal(app);
      }
      return true;
    }
    op->forward = true;
    op->quiet = false; /* a forward's hardware signal is the tracer's */
  }
  op->signal = rtg_tool_signal_get(op->forward);
  op->tool_signal = true;
  op->wait_below = 1;
  if (!op->signal.handle) {
    rtg_op_unbind_signal(op);
    return false;
  }
  if (op->forward) { /* (its entry stays: this op is counted in flight) */
    bucket *b = bucket_of(app.handle);
    rtg_spin_lock(&b->mu);
    sig_entry *e = find(b, app.handle, NULL);
    if (e) fwd_link(e, op);
    rtg_spin_unlock(&b->mu);
  }
  return true;
}

/* The entry of handle h that an op bound with serial has, or NULL when the
 * application destroyed the signal under it (bucket lock held). */
static sig_entry *find_serial(bucket *b, uint64_t h, uint64_t serial, rtg_handle_node ***link) {
  sig_entry *e = find(b, h, link);
  return e && e->serial == serial ? e : NULL;
}

/* Drop n ops of the entry of serial (bucket lock held). */
static void entry_put(bucket *b, uint64_t h, uint64_t serial, uint32_t n) {
  rtg_handle_node **link;
  sig_entry *e = find_serial(b, h, serial, &link);
  if (!e) return;
  e->inflight -= n < e->inflight ? n : e->inflight;
  if (!e->inflight) {
    link_set(link, e->node.next);
    entry_free(b, e);
  }
}

static void forward(const rtg_op *op) {
  amd_signal_t *s = (amd_signal_t *)(uintptr_t)op->app_signal;
  s->start_ts = op->fwd_start;
  s->end_ts = op->fwd_end;
  rtg_real.hsa_signal_subtract_screlease((hsa_signal_t){op->app_signal}, 1);
}

void rtg_op_unbind_signal(rtg_op *op) {
  /* an owner's raise is undone as its completion would: same subtract,
   * and forwards deferred meanwhile are done */
  if (op->app_signal && !op->forward) {
    rtg_op_release_signal(op);
    return;
  }
  if (op->app_signal) {
    bucket *b = bucket_of(op->app_signal);
    rtg_spin_lock(&b->mu);
    if (op->forward) fwd_unlink(find_serial(b, op->app_signal, op->entry_serial, NULL), op);
    entry_put(b, op->app_signal, op->entry_serial, 1);
    rtg_spin_unlock(&b->mu);
  }
  if (op->tool_signal && op->signal.handle) rtg_tool_signal_put(op->signal, op->forward);
}

bool rtg_op_release_signal(rtg_op *op) {
  if (!op->app_signal) { /* a tool signal of a packet that had none */
    rtg_tool_signal_put(op->signal, false);
    return false;
  }
  bucket *b = bucket_of(op->app_signal);
  rtg_op *done = NULL;
  bool kept = false, fwd = op->forward;
  hsa_signal_t tool = op->signal; /* a kept op may be freed once unlocked */
  if (op->forward) {
    amd_signal_t *t = (amd_signal_t *)(uintptr_t)op->signal.handle;
    op->fwd_start = t->start_ts;
    op->fwd_end = t->end_ts;
  }
  rtg_spin_lock(&b->mu);
  sig_entry *e = find_serial(b, op->app_signal, op->entry_serial, NULL);
  if (op->forward) fwd_unlink(e, op); /* gone from the forwards waited on */
  if (!e) {
    /* orphaned: the application destroyed the signal, whose memory may be
     * another signal's by now */
  } else if (op->forward && e->owner_busy) { /* after the owner's decrement */
    op->next = NULL;
    if (e->deferred_tail)
      e->deferred_tail->next = op;
    else
      e->deferred = op;
    e->deferred_tail = op;
    kept = true;
  } else {
    uint32_t n = 1;
    if (op->forward) {
      forward(op);
    } else { /* last touch of the owner; then what waited for it */
      if (!op->quiet) rtg_real.hsa_signal_subtract_screlease(op->signal, 1);
      if (e->owner_busy) {
        e->owner_busy = false;
        e->owner = NULL;
        done = e->deferred;
        e->deferred = e->deferred_tail = NULL;
        for (rtg_op *d = done; d; d = d->next, n++) forward(d);
      }
    }
    entry_put(b, op->app_signal, op->entry_serial, n);
  }
  rtg_spin_unlock(&b->mu);
  /* recycled once no thread looks it up among the forwards in flight */
  if (fwd) rtg_tool_signal_put(tool, true);
  while (done) {
    rtg_op *next = done->next;
    rtg_op_free(done);
    done = next;
  }
  return kept;
}

bool rtg_sigtrack_owner(uint64_t handle, rtg_owner_ref *out) {
  if (!handle) return false;
  bucket *b = bucket_of(handle);
  if (rtg_handle_bucket_empty(b)) return false;
  rtg_spin_lock(&b->mu);
  sig_entry *e = find(b, handle, NULL);
  bool busy = e && e->owner_busy && e->owner;
  if (busy)
    *out = (rtg_owner_ref){.op = e->owner,
                           .claim = e->owner_claim,
                           .signal = handle,
                           .wait_below = e->owner->wait_below,
                           .alone = e->inflight == 1,
                           .quiet = e->owner->quiet};
  rtg_spin_unlock(&b->mu);
  return busy;
}

uint32_t rtg_sigtrack_forwards(uint64_t handle, rtg_owner_ref *out, uint32_t max) {
  if (!handle || !atomic_load_explicit(&fwds_linked, memory_order_relaxed)) return 0;
  bucket *b = bucket_of(handle);
  uint32_t n = 0;
  rtg_spin_lock(&b->mu);
  sig_entry *e = find(b, handle, NULL);
  if (e && !e->owner_busy)
    for (rtg_op *op = e->fwds; op && n < max; op = op->fwd_next)
      out[n++] = (rtg_owner_ref){.op = op,
                                 .claim = atomic_load_explicit(&op->claim, memory_order_relaxed),
                                 .signal = op->signal.handle,
                                 .wait_below = 1,
                                 .lane = op->waiter};
  rtg_spin_unlock(&b->mu);
  return n;
}

void rtg_sigtrack_orphan(uint64_t handle) {
  if (!handle) return;
  bucket *b = bucket_of(handle);
  if (rtg_handle_bucket_empty(b)) return;
  rtg_op *owner = NULL, *done = NULL;
  uint32_t claim = 0;
  rtg_spin_lock(&b->mu);
  rtg_handle_node **link;
  sig_entry *e = find(b, handle, &link);
  /* (an owner not yet handed to its waiter is being submitted right now:
   * left as it is) */
  if (e && e->owner_busy && !atomic_load_explicit(&e->owner->queued, memory_order_acquire))
    e = NULL;
  if (e) {
    if (e->owner_busy) {
      /* taken from whoever would complete it; a thread finishing it now
       * finds the entry gone and leaves the handle alone */
      uint32_t c = e->owner_claim;
      if ((c & 3) == RTG_OP_PENDING &&
          atomic_compare_exchange_strong_explicit(&e->owner->claim, &c, c | RTG_OP_CLAIMED,
                                                  memory_order_acq_rel, memory_order_relaxed))
        owner = e->owner, claim = e->owner_claim;
      e->owner_busy = false;
      e->owner = NULL;
    }
    done = e->deferred;                     /* recorded and landed already */
    while (e->fwds) fwd_unlink(e, e->fwds); /* they find no entry at release */
    link_set(link, e->node.next);
    entry_free(b, e);
  }
  rtg_spin_unlock(&b->mu);
  if (owner) {
    rtg_count(RTG_CNT_UNFINISHED, 1);
    rtg_op_landed(owner);
    /* its waiter frees it */
    atomic_store_explicit(&owner->claim, claim | RTG_OP_DONE, memory_order_release);
  }
  while (done) {
    rtg_op *next = done->next;
    rtg_op_free(done);
    done = next;
  }
}

bool rtg_sigtrack_busy(uint64_t handle) {
  if (!handle) return false;
  bucket *b = bucket_of(handle);
  if (rtg_handle_bucket_empty(b)) return false;
  rtg_spin_lock(&b->mu);
  bool busy = find(b, handle, NULL) != NULL;
  rtg_spin_unlock(&b->mu);
  return busy;
}

void rtg_sigtrack_after_fork(void) {
  atomic_store(&fwds_linked, 0);
  rtg_spin_init(&free_mu);
  rtg_handle_table_reset(&table); /* the parent's ops */
}

void rtg_sigtrack_init(void) {
  rtg_handle_table_reset(&table);
}
