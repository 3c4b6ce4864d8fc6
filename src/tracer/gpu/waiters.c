/* Waiter threads: each queue (and copy engine pair) has one, with a FIFO
 * of its ops, for the ops nobody waits on.  It polls the oldest op's
 * signal with plain loads and sleeps in between (200 us growing to 1 ms
 * while nothing completes).  It never blocks in the runtime's wait: ROCR
 * spins there for up to 5 ms, and a second thread waiting on a signal is
 * made to spin for the whole wait, which would take the cores the
 * application needs.  It is the only thread that frees an op
 * (completion.c).
 *
 * The number of ops in flight per waiter is bounded: the submitting thread
 * sleeps (throttles) beyond it, which also keeps ROCR's intercept queue
 * from overflowing (5.2.3 asserts, or reorders packets, when a second
 * packet finds the wrapped ring full; 7.2 when a batch's second writer
 * call does).  The submitter sleeps inside ROCR's doorbell lock of the
 * queue, so an op that never looks finished (a signal the application
 * changes under the tracer, a barrier waiting for a signal the program
 * sets only after more submissions) would hold every submitter of the
 * queue for ever.  So the sleep is bounded: once the oldest op of the
 * waiter has not landed for RTG_THROTTLE_MS, a submitter goes on whenever
 * the ring certainly has room for its packets, counted from the ops known
 * to have been launched (every op before the one the waiter polls, and any
 * later one seen done or whose packet's end time the hardware wrote).  The
 * ops stay tracked. */
#define _GNU_SOURCE /* pthread_setname_np */
#include "core/spin.h"
#include "gpu_op.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct rtg_op_waiter {
  rtg_op_waiter *next;
  /* its FIFO: the submitting thread and this thread meet here on every op
   * (core/spin.h); the mutex and condition only put an idle waiter to
   * sleep and wake it */
  rtg_spin fifo;
  rtg_op *head, *tail;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  rtg_op_flight flight;
  _Atomic bool parked; /* asleep until woken (mu): idle for a while */
  uint32_t limit;
  uint32_t ring;            /* slots of the hardware ring of its ops' packets (0: none) */
  _Atomic uint64_t written; /* packets written to that ring */
  /* every packet before it has been launched: past the newest op the
   * waiter finished with */
  _Atomic uint64_t launched;
  _Atomic uint64_t polling;    /* id + 1 of the op the waiter looks at, 0: none */
  _Atomic uint64_t stalled_on; /* polling when a submitter was let on past it */
  pthread_t thread;
  bool started;
  _Atomic int stop;  /* its queue is being destroyed */
  _Atomic int hurry; /* its queue's destroy waits for its ops */
};

static rtg_op_waiter *waiters;
static pthread_mutex_t waiters_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int abandon; /* exit: stop waiting, count the rest */
static _Atomic int hurry;   /* exit or exec: the ops in flight are waited for */
/* An op an application thread waits on is left to that thread this long
 * after the hardware finished it (as the waiter saw it). */
enum { LEAVE_NS = 20000000 };
enum { POLL_MIN_NS = 200000, POLL_MAX_NS = 1000000, POLL_PRESSED_NS = 20000 };
enum { NAP_NS = 1000000, IDLE_NAPS = 100 }; /* a waiter with nothing to do */

/* The claim word of o once no other thread is inside its completion: an
 * op another thread claimed is being finished there (its record is queued
 * before it lands, so neither the exit nor the queue destroy waits for the
 * rest), and becomes done at the end of that thread's finish.  Bounded by
 * RTG_EXIT_WAIT_MS. */
static uint32_t claim_settled(rtg_op *o) {
  uint32_t c = atomic_load_explicit(&o->claim, memory_order_acquire);
  uint64_t deadline = 0;
  while ((c & 3) == RTG_OP_CLAIMED) {
    uint64_t now = rtg_now();
    if (!deadline) deadline = now + (uint64_t)rtg_cfg.exit_wait_ms * 1000000ull;
    if (now >= deadline) break;
    sched_yield();
    c = atomic_load_explicit(&o->claim, memory_order_acquire);
  }
  return c;
}

/* Exit or queue destroy: what is left in the FIFO (from op on) is
 * unfinished, except what application threads completed meanwhile, or are
 * completing now. */
static void waiter_abandon(rtg_op_waiter *w, rtg_op *op) {
  rtg_spin_lock(&w->fifo);
  rtg_op *rest = w->head;
  w->head = w->tail = NULL;
  rtg_spin_unlock(&w->fifo);
  uint64_t n = 0;
  op->next = rest;
  for (rtg_op *o = op, *next; o; o = next) {
    next = o->next;
    /* behind an op that never looked finished: recorded if the hardware
     * finished it */
    if (o != op && rtg_op_waiter_try(o)) continue;
    if ((claim_settled(o) & 3) == RTG_OP_DONE)
      rtg_op_free(o);
    else
      n++; /* may still be written by the GPU: never reused */
  }
  rtg_count(RTG_CNT_UNFINISHED, n);
}

/* The waiter's turn at op (rtg_op_waiter_try), except that an op an
 * application thread is waiting on is that thread's to complete: it returns
 * from its wait when the hardware is done, with no other thread in
 * between.  Claimed here instead, it would wait for this thread to finish
 * it, which on a loaded machine may not run for milliseconds.  Left so for
 * LEAVE_NS after it is first seen done (a waiting thread that does not run
 * for that long), and not while a submitter, a queue destroy, the exit or
 * an exec waits for the ops. */
static bool waiter_turn(rtg_op_waiter *w, rtg_op *op, uint64_t *leave_until) {
  if (atomic_load_explicit(&op->app_waits, memory_order_relaxed) &&
      (atomic_load_explicit(&op->claim, memory_order_acquire) & 3) != RTG_OP_DONE &&
      !atomic_load_explicit(&w->flight.throttled, memory_order_relaxed) &&
      !atomic_load(&w->hurry) && !atomic_load(&hurry) && !atomic_load(&abandon)) {
    uint64_t now = rtg_now();
    if (!*leave_until) *leave_until = now + LEAVE_NS;
    if (now < *leave_until) return false;
  }
  return rtg_op_waiter_try(op);
}

/* The oldest op of w's FIFO, taken out; NULL: none. */
static rtg_op *fifo_pop(rtg_op_waiter *w) {
  rtg_spin_lock(&w->fifo);
  rtg_op *op = w->head;
  if (op) {
    w->head = op->next;
    if (!w->head) w->tail = NULL;
  }
  rtg_spin_unlock(&w->fifo);
  return op;
}

static bool fifo_empty(rtg_op_waiter *w) {
  rtg_spin_lock(&w->fifo);
  bool empty = !w->head;
  rtg_spin_unlock(&w->fifo);
  return empty;
}

static void *waiter_main(void *arg) {
  rtg_op_waiter *w = arg;
  rtg_enter();
  rtg_tls.no_wait = true;                           /* completions must not wait for the writer */
  pthread_setname_np(pthread_self(), "rtg-waiter"); /* as top and perf show it */
  for (;;) {
    rtg_op *op = fifo_pop(w);
    if (!op) {
      pthread_mutex_lock(&w->mu);
      /* Nothing to do: naps of NAP_NS, so that a submission need not wake
       * this thread (on a small machine the woken waiter takes the core of
       * the thread that submits); after IDLE_NAPS of them it parks until
       * the next submission wakes it, and costs nothing while the GPU is
       * idle. */
      for (int naps = 0; fifo_empty(w) && !atomic_load(&abandon) && !atomic_load(&w->stop);) {
        if (atomic_load_explicit(&w->flight.throttled, memory_order_relaxed)) {
          pthread_mutex_unlock(&w->mu); /* a submitter waits: ops are coming */
          struct timespec ts = {0, POLL_PRESSED_NS};
          nanosleep(&ts, NULL);
          pthread_mutex_lock(&w->mu);
        } else if (naps++ < IDLE_NAPS) {
          struct timespec until;
          clock_gettime(CLOCK_MONOTONIC, &until);
          until.tv_nsec += NAP_NS;
          if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
          pthread_cond_timedwait(&w->cv, &w->mu, &until);
        } else {
          /* parked, then the FIFO looked at again: a submitter that pushed
           * before it saw parked is seen here (rtg_waiter_submit) */
          atomic_store(&w->parked, true);
          atomic_thread_fence(memory_order_seq_cst);
          if (fifo_empty(w)) pthread_cond_wait(&w->cv, &w->mu);
          atomic_store(&w->parked, false);
          naps = 0;
        }
      }
      pthread_mutex_unlock(&w->mu);
      op = fifo_pop(w);
    }
    if (!op) break;
    uint64_t past = op->ring_pos + 1; /* the op is freed once finished */
    atomic_store_explicit(&w->polling, op->id + 1, memory_order_relaxed);
    long sleep_ns = POLL_MIN_NS;
    uint64_t leave_until = 0;
    while (!waiter_turn(w, op, &leave_until)) {
      if (atomic_load(&abandon) || atomic_load(&w->stop)) {
        /* one last look: the GPU may have finished it meanwhile */
        if (rtg_op_waiter_try(op)) op = NULL;
        if (op) waiter_abandon(w, op);
        return NULL;
      }
      /* a submitter waits for room: look often, it needs ops finished */
      bool pressed = atomic_load_explicit(&w->flight.throttled, memory_order_relaxed) != 0;
      struct timespec ts = {0, pressed ? POLL_PRESSED_NS : sleep_ns};
      nanosleep(&ts, NULL);
      if (sleep_ns < POLL_MAX_NS) sleep_ns *= 2;
    }
    atomic_store_explicit(&w->polling, 0, memory_order_relaxed);
    if (w->ring) atomic_store_explicit(&w->launched, past, memory_order_release);
  }
  return NULL;
}

rtg_op_waiter *rtg_waiter_create(uint32_t limit, uint32_t ring) {
  rtg_op_waiter *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  rtg_spin_init(&w->fifo);
  pthread_mutex_init(&w->mu, NULL);
  pthread_condattr_t ca; /* naps are timed on the monotonic clock */
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w->cv, &ca);
  pthread_condattr_destroy(&ca);
  w->limit = limit ? limit : 1;
  w->ring = ring;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  w->started = pthread_create(&w->thread, NULL, waiter_main, w) == 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!w->started) {
    free(w);
    return NULL;
  }
  pthread_mutex_lock(&waiters_mu);
  w->next = waiters;
  waiters = w;
  pthread_mutex_unlock(&waiters_mu);
  return w;
}

/* The queue of w is being destroyed: give its ops at most ms to finish,
 * then stop the thread (it notices within one poll, 1 ms at most) and
 * count what was left as unfinished. */
void rtg_waiter_destroy(rtg_op_waiter *w, int ms) {
  uint64_t deadline = rtg_now() + (uint64_t)ms * 1000000ull;
  atomic_store(&w->hurry, 1);
  while (atomic_load(&w->flight.inflight) && rtg_now() < deadline) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  pthread_mutex_lock(&waiters_mu);
  rtg_op_waiter **l = &waiters;
  while (*l && *l != w) l = &(*l)->next;
  if (*l) *l = w->next;
  pthread_mutex_unlock(&waiters_mu);
  pthread_mutex_lock(&w->mu);
  atomic_store(&w->stop, 1);
  pthread_cond_broadcast(&w->cv);
  pthread_mutex_unlock(&w->mu);
  if (w->started) pthread_join(w->thread, NULL);
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
  free(w);
}

uint64_t rtg_waiter_ring_pos(const rtg_op_waiter *w) {
  return atomic_load_explicit(&w->written, memory_order_relaxed);
}

void rtg_waiter_wrote(rtg_op_waiter *w, uint64_t packets) {
  atomic_fetch_add_explicit(&w->written, packets, memory_order_relaxed);
}

/* Has w's ring certainly room for `packets` more, and one slot beside them
 * (ROCR's overflow needs free slots beyond a batch)?  Counted from the
 * packets known launched: those before the newest op seen done. */
static bool ring_has_room(rtg_op_waiter *w, uint32_t packets) {
  if (!w->ring) return true;
  uint64_t written = atomic_load_explicit(&w->written, memory_order_relaxed);
  uint64_t launched = atomic_load_explicit(&w->launched, memory_order_acquire);
  if (written - launched + packets + 1 <= w->ring) return true;
  /* ops behind the one the waiter polls may be done (only its own signal
   * misread), or have run with signals that never look finished (the
   * hardware wrote their end times): each proves the packets before it
   * launched.  Under the FIFO's lock: the waiter takes ops out under it,
   * and frees them after, so none of them goes while they are looked at. */
  rtg_spin_lock(&w->fifo);
  for (rtg_op *o = w->head; o; o = o->next)
    if (o->ring_pos + 1 > launched && rtg_op_seen_ended(o)) launched = o->ring_pos + 1;
  rtg_spin_unlock(&w->fifo);
  return written - launched + packets + 1 <= w->ring;
}

/* The submitter has waited `since` (0: not yet): is the waiter stuck on an
 * op that has not landed for RTG_THROTTLE_MS, or on the one a submitter
 * was already let on past? */
static bool throttle_stuck(rtg_op_waiter *w, uint64_t *since) {
  uint64_t polling = atomic_load_explicit(&w->polling, memory_order_relaxed);
  if (polling && atomic_load_explicit(&w->stalled_on, memory_order_relaxed) == polling) return true;
  uint64_t now = rtg_now();
  if (!*since) *since = now;
  return now - *since >= (uint64_t)rtg_cfg.throttle_ms * 1000000ull;
}

static void throttle_release(rtg_op_waiter *w) {
  uint64_t polling = atomic_load_explicit(&w->polling, memory_order_relaxed);
  if (polling && atomic_exchange(&w->stalled_on, polling) == polling) return;
  static _Atomic int said;
  if (!atomic_exchange(&said, 1))
    rtg_log(0,
            "a GPU op has not looked finished for %d ms: submitters of its queue go on "
            "(throttle_releases in the summary)",
            rtg_cfg.throttle_ms);
  rtg_count(RTG_CNT_THROTTLE_RELEASES, 1);
}

void rtg_waiter_throttle(rtg_op_waiter *w, uint32_t more, uint32_t packets) {
  uint64_t since = 0;
  for (;;) {
    uint32_t n = atomic_load_explicit(&w->flight.inflight, memory_order_acquire);
    /* room for all of them, or none in flight (a batch larger than the
     * limit goes alone: waiting for less would never end) */
    if (n + more <= w->limit || n == 0 || atomic_load(&abandon)) return;
    if (throttle_stuck(w, &since) && ring_has_room(w, packets)) {
      throttle_release(w);
      return;
    }
    struct timespec ts = {0, 1000000};
    atomic_fetch_add_explicit(&w->flight.throttled, 1, memory_order_seq_cst);
    /* (a completion between the load and the wait changes inflight: the
     * wait then returns at once; the 1 ms timeout covers the rest) */
    syscall(SYS_futex, &w->flight.inflight, FUTEX_WAIT_PRIVATE, n, &ts, NULL, 0);
    atomic_fetch_sub_explicit(&w->flight.throttled, 1, memory_order_relaxed);
  }
}

void rtg_waiter_submit(rtg_op *op) {
  rtg_op_waiter *w = op->waiter;
  atomic_fetch_add_explicit(&w->flight.inflight, 1, memory_order_relaxed);
  op->flight = &w->flight;
  op->next = NULL;
  /* before it is published: once queued, it may be done and reused */
  rtg_async_arm(op); /* its signal may have an application handler */
  rtg_spin_lock(&w->fifo);
  atomic_store_explicit(&op->queued, true, memory_order_release);
  if (w->tail)
    w->tail->next = op;
  else
    w->head = op;
  w->tail = op;
  rtg_spin_unlock(&w->fifo);
  /* else it looks within a nap; a waiter parking now sees the op */
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load_explicit(&w->parked, memory_order_relaxed)) {
    pthread_mutex_lock(&w->mu);
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
  }
}

/* Ops in flight now, for the fatal-signal path: no lock (the process is
 * dying and a lock holder may never run again); the list is push-front
 * and waiters are freed only by hsa_queue_destroy. */
uint64_t rtg_waiters_inflight(void) {
  uint64_t n = 0;
  for (rtg_op_waiter *w = waiters; w; w = w->next) n += atomic_load(&w->flight.inflight);
  return n;
}

void rtg_waiters_quiesce(int ms) {
  uint64_t deadline = rtg_now() + (uint64_t)ms * 1000000ull;
  atomic_store(&hurry, 1);
  for (;;) {
    uint32_t busy = 0;
    pthread_mutex_lock(&waiters_mu);
    for (rtg_op_waiter *w = waiters; w; w = w->next) busy += atomic_load(&w->flight.inflight);
    pthread_mutex_unlock(&waiters_mu);
    if (!busy || rtg_now() >= deadline) break;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  atomic_store(&hurry, 0); /* an exec that failed: the process goes on */
}

void rtg_waiters_finish(int ms) {
  rtg_waiters_quiesce(ms);
  atomic_store(&abandon, 1);
  pthread_mutex_lock(&waiters_mu);
  for (rtg_op_waiter *w = waiters; w; w = w->next) {
    pthread_mutex_lock(&w->mu);
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    if (w->started) pthread_join(w->thread, NULL);
    w->started = false;
  }
  pthread_mutex_unlock(&waiters_mu);
}

/* A new trace after hsa_shut_down (a later OnLoad): the waiters of its
 * queues wait again. */
void rtg_waiters_restart(void) {
  atomic_store(&abandon, 0);
}

/* Fork child: the parent's waiter threads are not here, nor their ops. */
void rtg_waiters_after_fork(void) {
  waiters = NULL;
  pthread_mutex_init(&waiters_mu, NULL);
}
