/* Completion of GPU operations ("1:1 forwarding", DESIGN 4.6).
 *
 * The packet keeps the application's completion signal; before it is
 * published the signal was raised by one, so it cannot reach the value the
 * application waits for until the tracer has (1) seen the hardware's
 * decrement, (2) read the start and end times the hardware wrote into that
 * signal, and (3) taken the extra one away again.  The application sees the
 * same values and timestamps as without the tracer.
 *
 * Who does it: the first thread that sees the decrement and claims the op
 * (an atomic claim word).  Usually that is the application's own thread,
 * in its hsa_signal_wait_* or hsa_signal_load_* call (signal_hooks.c): it
 * returns as soon as it would have without the tracer, with no thread hop.
 * Each queue (and copy engine pair) also has a waiter thread with a FIFO of
 * its ops, for the ops nobody waits on: it polls the oldest op's signal with
 * plain loads and sleeps in between (200 us growing to 1 ms while nothing
 * completes).  It never blocks in the runtime's wait: ROCR spins there for
 * up to 5 ms, and a second thread waiting on a signal is made to spin for
 * the whole wait, which would take the cores the application needs.  The
 * waiter thread is also the only one that frees an op, so an op claimed on
 * the application's thread stays valid until its waiter has seen it done.
 * Packets without a signal get a pooled tool signal, recycled only after
 * completion, and so does a packet whose signal another op in flight
 * already uses (its times are then forwarded to the application's signal,
 * sigtrack.c).  Records of GPU ops are formatted later by the writer and
 * are never dropped.
 *
 * The number of ops in flight per waiter is bounded, the submitting thread
 * sleeps (throttles) beyond it, which also keeps ROCR 5.2.3's intercept
 * queue from overflowing. */
#include "hsa/hsa_side.h"

#include <hsa/amd_hsa_signal.h>

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct rtg_op_waiter {
  rtg_op_waiter *next;
  pthread_mutex_t mu;
  pthread_cond_t cv;
  rtg_op *head, *tail;
  _Atomic uint32_t inflight;
  _Atomic uint32_t throttled; /* submitting threads asleep on inflight */
  bool parked;                /* asleep until woken (mu): idle for a while */
  uint32_t limit;
  pthread_t thread;
  bool started;
  _Atomic int stop; /* its queue is being destroyed */
  char what[32];
};

static rtg_op_waiter *waiters;
static pthread_mutex_t waiters_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int abandon; /* exit: stop waiting, count the rest */
enum { POLL_MIN_NS = 200000, POLL_MAX_NS = 1000000, POLL_PRESSED_NS = 20000 };
enum { NAP_NS = 1000000, IDLE_NAPS = 100 }; /* a waiter with nothing to do */

/* --------------------------------------------------------- op storage */
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static rtg_op *free_ops;
static hsa_signal_t *free_signals;
static size_t n_free_signals, cap_free_signals;

rtg_op *rtg_op_alloc(void) {
  pthread_mutex_lock(&pool_mu);
  rtg_op *op = free_ops;
  if (op) free_ops = op->next;
  pthread_mutex_unlock(&pool_mu);
  if (!op) {
    /* a block at a time: rarely allocates once warm */
    enum { BLOCK = 256 };
    rtg_op *blk = calloc(BLOCK, sizeof *blk);
    if (!blk) return NULL;
    pthread_mutex_lock(&pool_mu);
    for (int i = 1; i < BLOCK; i++) {
      blk[i].next = free_ops;
      free_ops = &blk[i];
    }
    pthread_mutex_unlock(&pool_mu);
    op = &blk[0];
  }
  uint32_t gen = (atomic_load_explicit(&op->claim, memory_order_relaxed) >> 2) + 1;
  memset(op, 0, sizeof *op);
  atomic_store_explicit(&op->claim, gen << 2, memory_order_relaxed);
  return op;
}

void rtg_op_free(rtg_op *op) {
  pthread_mutex_lock(&pool_mu);
  op->next = free_ops;
  free_ops = op;
  pthread_mutex_unlock(&pool_mu);
}

hsa_signal_t rtg_tool_signal_get(void) {
  hsa_signal_t s = {0};
  pthread_mutex_lock(&pool_mu);
  if (n_free_signals) s = free_signals[--n_free_signals];
  pthread_mutex_unlock(&pool_mu);
  if (!s.handle && rtg_real.hsa_signal_create(1, 0, NULL, &s) != HSA_STATUS_SUCCESS) s.handle = 0;
  return s;
}

void rtg_tool_signal_put(hsa_signal_t s) {
  /* on its memory: nobody waits on a tool signal (no event to set) */
  __atomic_store_n(&((amd_signal_t *)(uintptr_t)s.handle)->value, 1, __ATOMIC_RELEASE);
  pthread_mutex_lock(&pool_mu);
  if (n_free_signals == cap_free_signals) {
    size_t nc = cap_free_signals ? cap_free_signals * 2 : 64;
    hsa_signal_t *n = realloc(free_signals, nc * sizeof *n);
    if (n) free_signals = n, cap_free_signals = nc;
  }
  if (n_free_signals < cap_free_signals)
    free_signals[n_free_signals++] = s;
  else
    s.handle = 0; /* leak rather than destroy a signal a stale packet might touch */
  pthread_mutex_unlock(&pool_mu);
}

/* Process end, after the waiters stopped: the runtime reports signals
 * still alive at hsa_shut_down as leaked.  Signals of ops that never
 * finished are not in the pool and stay (a late packet may still write). */
void rtg_tool_signals_destroy(void) {
  pthread_mutex_lock(&pool_mu);
  for (size_t i = 0; i < n_free_signals; i++) rtg_real.hsa_signal_destroy(free_signals[i]);
  n_free_signals = 0;
  pthread_mutex_unlock(&pool_mu);
}

/* ------------------------------------------------------------ records */

/* What the writer needs to make an op's record: the op as it was, its
 * times and its kernel's names (kept until exit, kernel_names.c). */
typedef struct op_payload {
  rtg_op op;
  uint64_t start, stop;
  rtg_kernel_name name;
} op_payload;

static bool fill_op(rtg_record *r, const void *payload, size_t len, uint32_t pid, uint64_t tid) {
  op_payload p;
  if (len != sizeof p) return false;
  memcpy(&p, payload, sizeof p);
  const rtg_op *op = &p.op;
  if (op->kind == RTG_OP_DISPATCH) {
    rtg_kernel_name n = p.name;
    rtg_record_init(r, RTG_KIND_DISPATCH, pid, tid);
    rtg_rec_DISPATCH *d = &r->u.DISPATCH;
    d->queue = op->queue;
    d->agent = op->agent;
    d->signal = op->app_signal;
    d->name = n.mangled;
    d->start = p.start;
    /* RTG_KERNEL_RENAME: the range names the kernel; its own name (the
     * demangled one when there is one) moves to demangled: */
    if (op->rename) d->name = op->rename, n.demangled = n.demangled ? n.demangled : n.mangled;
    d->stop = p.stop;
    d->id = op->id;
    RTG_SET(r, DISPATCH, workgroup, op->wg);
    RTG_SET(r, DISPATCH, grid, op->grid);
    RTG_SET(r, DISPATCH, lds, op->lds);
    RTG_SET(r, DISPATCH, scratch, op->scratch);
    if (op->corr) RTG_SET(r, DISPATCH, corr, op->corr);
    RTG_SET(r, DISPATCH, tick, op->tick);
    if (n.demangled) RTG_SET(r, DISPATCH, demangled, n.demangled);
  } else if (op->kind == RTG_OP_COPY) {
    rtg_record_init(r, RTG_KIND_COPY, pid, tid);
    rtg_rec_COPY *c = &r->u.COPY;
    c->agent = op->agent;
    c->signal = op->app_signal;
    c->start = p.start;
    c->stop = p.stop;
    c->dep1 = op->deps[0], c->dep2 = op->deps[1], c->dep3 = op->deps[2];
    c->dep4 = op->deps[3], c->dep5 = op->deps[4];
    RTG_SET(r, COPY, bytes, op->bytes);
    RTG_SET(r, COPY, kind, op->copy_kind);
    RTG_SET(r, COPY, src_agent, op->src_agent);
    RTG_SET(r, COPY, dst_agent, op->dst_agent);
    RTG_SET(r, COPY, id, op->id);
    RTG_SET(r, COPY, tick, op->tick);
    RTG_SET(r, COPY, api, op->api);
    if (op->corr) RTG_SET(r, COPY, corr, op->corr);
  } else {
    rtg_record_init(r, RTG_KIND_BARRIER, pid, tid);
    rtg_rec_BARRIER *b = &r->u.BARRIER;
    b->queue = op->queue;
    b->agent = op->agent;
    b->signal = op->app_signal;
    b->start = p.start;
    b->stop = p.stop;
    b->dep1 = op->deps[0], b->dep2 = op->deps[1], b->dep3 = op->deps[2];
    b->dep4 = op->deps[3], b->dep5 = op->deps[4];
    b->id = op->id;
    RTG_SET(r, BARRIER, op, rtg_barrier_op_name(op));
    if (op->corr) RTG_SET(r, BARRIER, corr, op->corr);
    if (op->kind == RTG_OP_BARRIER_VALUE) {
      RTG_SET(r, BARRIER, value, op->bv_value);
      RTG_SET(r, BARRIER, mask, (uint64_t)op->bv_mask);
      RTG_SET(r, BARRIER, cond, rtg_barrier_cond_name(op->bv_cond));
    }
  }
  return true;
}

static void emit_op(const rtg_op *op, uint64_t start, uint64_t stop) {
  if (rtg_cfg.hcc_profile) {
    rtg_hcc_profile_emit(op, start, stop);
    return;
  }
  op_payload p = {.start = start, .stop = stop};
  memcpy(&p.op, op, sizeof p.op);
  if (op->kind == RTG_OP_DISPATCH) p.name = rtg_kernel_name_of(op->kernel_object);
  rtg_emit_deferred_keep(fill_op, &p, sizeof p);
}

/* Read the op's times, record it, and leave the application's signal as the
 * hardware would have.  The caller claimed the op.  Returns true when the
 * op is kept by sigtrack.c (a forward waiting for its owner). */
static bool finish(rtg_op *op) {
  uint64_t start = 0, stop = 0;
  hsa_status_t st;
  if (op->kind == RTG_OP_COPY) {
    hsa_amd_profiling_async_copy_time_t t = {0, 0};
    st = rtg_real.hsa_amd_profiling_get_async_copy_time(op->signal, &t);
    start = t.start, stop = t.end;
  } else {
    hsa_amd_profiling_dispatch_time_t t = {0, 0};
    st = rtg_real.hsa_amd_profiling_get_dispatch_time(op->hsa_agent, op->signal, &t);
    start = t.start, stop = t.end;
  }
  if (st == HSA_STATUS_SUCCESS) {
    emit_op(op, start, stop);
    rtg_count(op->kind == RTG_OP_DISPATCH ? RTG_CNT_DISPATCHES
              : op->kind == RTG_OP_COPY   ? RTG_CNT_COPIES
                                          : RTG_CNT_BARRIERS,
              1);
  } else {
    rtg_count(RTG_CNT_LOST_GPU, 1);
  }
  /* No longer in flight before the application can see completion: once
   * released, it may die at once (fatal signal, _exit), and the summary
   * must not count as unfinished an op whose record is already queued.
   * The exit and queue-destroy waits still cover the release below: after
   * inflight reaches 0 they join the waiter, which frees the op only once
   * it is done. */
  rtg_op_waiter *w = op->waiter;
  atomic_fetch_sub_explicit(&w->inflight, 1, memory_order_seq_cst);
  if (atomic_load_explicit(&w->throttled, memory_order_seq_cst)) /* a syscall only then */
    syscall(SYS_futex, &w->inflight, FUTEX_WAKE_PRIVATE, 64, NULL, NULL, 0);
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
static bool hw_done(const rtg_op *op) {
  const amd_signal_t *s = (const amd_signal_t *)(uintptr_t)op->signal.handle;
  return __atomic_load_n(&s->value, __ATOMIC_ACQUIRE) < op->wait_below;
}

/* Only owners of an application signal come here (never kept by sigtrack),
 * so the op can be marked done for its waiter to free. */
bool rtg_op_try_complete(rtg_op *op, uint32_t pending) {
  if ((pending & 3) != RTG_OP_PENDING || !atomic_load_explicit(&op->queued, memory_order_acquire) ||
      !hw_done(op) || !claim(op, pending))
    return false;
  finish(op);
  atomic_store_explicit(&op->claim, pending | RTG_OP_DONE, memory_order_release);
  return true;
}

/* The waiter's turn at op: true when it is finished with it (done, by
 * whichever thread), false to come back later. */
static bool waiter_try(rtg_op *op) {
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

/* Exit or queue destroy: what is left in the FIFO (from op on) is
 * unfinished, except what application threads completed meanwhile. */
static void waiter_abandon(rtg_op_waiter *w, rtg_op *op) {
  pthread_mutex_lock(&w->mu);
  rtg_op *rest = w->head;
  w->head = w->tail = NULL;
  pthread_mutex_unlock(&w->mu);
  uint64_t n = 0;
  op->next = rest;
  for (rtg_op *o = op, *next; o; o = next) {
    next = o->next;
    uint32_t c = atomic_load_explicit(&o->claim, memory_order_acquire);
    if ((c & 3) == RTG_OP_DONE)
      rtg_op_free(o);
    else
      n++; /* may still be written by the GPU: never reused */
  }
  rtg_count(RTG_CNT_UNFINISHED, n);
}

static void *waiter_main(void *arg) {
  rtg_op_waiter *w = arg;
  rtg_tls.depth = 1;
  rtg_tls.no_wait = true; /* completions must not wait for the writer */
  for (;;) {
    pthread_mutex_lock(&w->mu);
    /* Nothing to do: naps of NAP_NS, so that a submission need not wake
     * this thread (on a small machine the woken waiter takes the core of
     * the thread that submits); after IDLE_NAPS of them it parks until the
     * next submission wakes it, and costs nothing while the GPU is idle. */
    for (int naps = 0; !w->head && !atomic_load(&abandon) && !atomic_load(&w->stop);) {
      if (atomic_load_explicit(&w->throttled, memory_order_relaxed)) {
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
        w->parked = true;
        pthread_cond_wait(&w->cv, &w->mu);
        w->parked = false;
        naps = 0;
      }
    }
    rtg_op *op = w->head;
    if (op) {
      w->head = op->next;
      if (!w->head) w->tail = NULL;
    }
    pthread_mutex_unlock(&w->mu);
    if (!op) break;
    long sleep_ns = POLL_MIN_NS;
    while (!waiter_try(op)) {
      if (atomic_load(&abandon) || atomic_load(&w->stop)) {
        /* one last look: the GPU may have finished it meanwhile */
        if (waiter_try(op)) op = NULL;
        if (op) waiter_abandon(w, op);
        return NULL;
      }
      /* a submitter waits for room: look often, it needs ops finished */
      bool pressed = atomic_load_explicit(&w->throttled, memory_order_relaxed) != 0;
      struct timespec ts = {0, pressed ? POLL_PRESSED_NS : sleep_ns};
      nanosleep(&ts, NULL);
      if (sleep_ns < POLL_MAX_NS) sleep_ns *= 2;
    }
  }
  return NULL;
}

rtg_op_waiter *rtg_waiter_create(const char *what, uint32_t limit) {
  rtg_op_waiter *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  pthread_mutex_init(&w->mu, NULL);
  pthread_condattr_t ca; /* naps are timed on the monotonic clock */
  pthread_condattr_init(&ca);
  pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
  pthread_cond_init(&w->cv, &ca);
  pthread_condattr_destroy(&ca);
  w->limit = limit ? limit : 1;
  strncpy(w->what, what, sizeof w->what - 1);
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
  while (atomic_load(&w->inflight) && rtg_now() < deadline) {
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

void rtg_waiter_throttle(rtg_op_waiter *w, uint32_t more) {
  for (;;) {
    uint32_t n = atomic_load_explicit(&w->inflight, memory_order_acquire);
    /* room for all of them, or none in flight (a batch larger than the
     * limit goes alone: waiting for less would never end) */
    if (n + more <= w->limit || n == 0 || atomic_load(&abandon)) return;
    struct timespec ts = {0, 1000000};
    atomic_fetch_add_explicit(&w->throttled, 1, memory_order_seq_cst);
    /* (a completion between the load and the wait changes inflight: the
     * wait then returns at once; the 1 ms timeout covers the rest) */
    syscall(SYS_futex, &w->inflight, FUTEX_WAIT_PRIVATE, n, &ts, NULL, 0);
    atomic_fetch_sub_explicit(&w->throttled, 1, memory_order_relaxed);
  }
}

void rtg_waiter_submit(rtg_op_waiter *w, rtg_op *op) {
  atomic_fetch_add_explicit(&w->inflight, 1, memory_order_relaxed);
  op->waiter = w;
  op->next = NULL;
  /* before it is published: once queued, it may be done and reused */
  rtg_async_arm(op); /* its signal may have an application handler */
  pthread_mutex_lock(&w->mu);
  atomic_store_explicit(&op->queued, true, memory_order_release);
  if (w->tail)
    w->tail->next = op;
  else
    w->head = op;
  w->tail = op;
  if (w->parked) pthread_cond_signal(&w->cv); /* else it looks within a nap */
  pthread_mutex_unlock(&w->mu);
}

/* Ops in flight now, for the fatal-signal path: no lock (the process is
 * dying and a lock holder may never run again); the list is push-front
 * and waiters are freed only by hsa_queue_destroy. */
uint64_t rtg_waiters_inflight(void) {
  uint64_t n = 0;
  for (rtg_op_waiter *w = waiters; w; w = w->next) n += atomic_load(&w->inflight);
  return n;
}

void rtg_waiters_quiesce(int ms) {
  uint64_t deadline = rtg_now() + (uint64_t)ms * 1000000ull;
  for (;;) {
    uint32_t busy = 0;
    pthread_mutex_lock(&waiters_mu);
    for (rtg_op_waiter *w = waiters; w; w = w->next) busy += atomic_load(&w->inflight);
    pthread_mutex_unlock(&waiters_mu);
    if (!busy || rtg_now() >= deadline) break;
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
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

/* Fork child: the parent's waiters and ops are the parent's. */
void rtg_gpu_ops_after_fork(void) {
  waiters = NULL;
  n_free_signals = 0; /* the parent's signals: never destroy them here */
  rtg_copies_after_fork();
  rtg_async_after_fork();
  pthread_mutex_init(&waiters_mu, NULL);
  pthread_mutex_init(&pool_mu, NULL);
}

RTG_HIDDEN void rtg_gpu_ops_init(void) {
  rtg_sigtrack_init();
  rtg_signal_hooks_init();
  pthread_atfork(NULL, NULL, rtg_gpu_ops_after_fork);
}
