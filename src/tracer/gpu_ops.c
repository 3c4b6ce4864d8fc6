/* Completion of GPU operations ("1:1 forwarding", DESIGN 4.6).
 *
 * The packet keeps the application's completion signal; before it is
 * published the signal was raised by one, so it cannot reach the value the
 * application waits for until a waiter thread here has (1) seen the
 * hardware's decrement (a blocking wait, never a spin), (2) read the start
 * and end times the hardware wrote into that signal, and (3) taken the
 * extra one away again.  The application sees the same values and the same
 * timestamps as without the tracer, a little later.  Packets without a
 * signal get a pooled tool signal, recycled only after completion, and so
 * does a packet whose signal another op in flight already uses (its times
 * are then forwarded to the application's signal, sigtrack.c).
 *
 * One waiter thread per queue (and one for copies) serves a FIFO of ops, so
 * a slow queue never delays another's completions; the number of ops in
 * flight per waiter is bounded, the submitting thread sleeps (throttles)
 * beyond it, which also keeps ROCR 5.2.3's intercept queue from overflowing. */
#include "hsa_side.h"

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
  uint32_t limit;
  pthread_t thread;
  bool started;
  _Atomic int stop; /* its queue is being destroyed */
  char what[32];
};

static rtg_op_waiter *waiters;
static pthread_mutex_t waiters_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int abandon; /* exit: stop waiting, count the rest */
static uint64_t wait_timeout_ticks = 100000000;

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
  memset(op, 0, sizeof *op);
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
  rtg_real.hsa_signal_store_relaxed(s, 1);
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

static void emit_op(const rtg_op *op, uint64_t start, uint64_t stop) {
  if (rtg_cfg.hcc_profile) {
    rtg_hcc_profile_emit(op, start, stop);
    return;
  }
  rtg_record r;
  if (op->kind == RTG_OP_DISPATCH) {
    rtg_kernel_name n = rtg_kernel_name_of(op->kernel_object);
    rtg_record_init(&r, RTG_KIND_DISPATCH, rtg_pid(), rtg_tid());
    rtg_rec_DISPATCH *d = &r.u.DISPATCH;
    d->queue = op->queue;
    d->agent = op->agent;
    d->signal = op->app_signal;
    d->name = n.mangled;
    d->start = start;
    /* RTG_KERNEL_RENAME: the range names the kernel; its own name (the
     * demangled one when there is one) moves to demangled: */
    if (op->rename) d->name = op->rename, n.demangled = n.demangled ? n.demangled : n.mangled;
    d->stop = stop;
    d->id = op->id;
    RTG_SET(&r, DISPATCH, workgroup, op->wg);
    RTG_SET(&r, DISPATCH, grid, op->grid);
    RTG_SET(&r, DISPATCH, lds, op->lds);
    RTG_SET(&r, DISPATCH, scratch, op->scratch);
    if (op->corr) RTG_SET(&r, DISPATCH, corr, op->corr);
    RTG_SET(&r, DISPATCH, tick, op->tick);
    if (n.demangled) RTG_SET(&r, DISPATCH, demangled, n.demangled);
  } else if (op->kind == RTG_OP_COPY) {
    rtg_record_init(&r, RTG_KIND_COPY, rtg_pid(), rtg_tid());
    rtg_rec_COPY *c = &r.u.COPY;
    c->agent = op->agent;
    c->signal = op->app_signal;
    c->start = start;
    c->stop = stop;
    c->dep1 = op->deps[0], c->dep2 = op->deps[1], c->dep3 = op->deps[2];
    c->dep4 = op->deps[3], c->dep5 = op->deps[4];
    RTG_SET(&r, COPY, bytes, op->bytes);
    RTG_SET(&r, COPY, kind, op->copy_kind);
    RTG_SET(&r, COPY, src_agent, op->src_agent);
    RTG_SET(&r, COPY, dst_agent, op->dst_agent);
    RTG_SET(&r, COPY, id, op->id);
    RTG_SET(&r, COPY, tick, op->tick);
    RTG_SET(&r, COPY, api, op->api);
    if (op->corr) RTG_SET(&r, COPY, corr, op->corr);
  } else {
    rtg_record_init(&r, RTG_KIND_BARRIER, rtg_pid(), rtg_tid());
    rtg_rec_BARRIER *b = &r.u.BARRIER;
    b->queue = op->queue;
    b->agent = op->agent;
    b->signal = op->app_signal;
    b->start = start;
    b->stop = stop;
    b->dep1 = op->deps[0], b->dep2 = op->deps[1], b->dep3 = op->deps[2];
    b->dep4 = op->deps[3], b->dep5 = op->deps[4];
    b->id = op->id;
    RTG_SET(&r, BARRIER, op, rtg_barrier_op_name(op));
    if (op->corr) RTG_SET(&r, BARRIER, corr, op->corr);
    if (op->kind == RTG_OP_BARRIER_VALUE) {
      RTG_SET(&r, BARRIER, value, op->bv_value);
      RTG_SET(&r, BARRIER, mask, (uint64_t)op->bv_mask);
      RTG_SET(&r, BARRIER, cond, rtg_barrier_cond_name(op->bv_cond));
    }
  }
  rtg_emit(&r);
}

static void complete(rtg_op_waiter *w, rtg_op *op) {
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
   * must not count as unfinished an op whose record is already written.
   * The exit and queue-destroy waits still cover the release below: after
   * inflight reaches 0 they join this thread before going on. */
  atomic_fetch_sub_explicit(&w->inflight, 1, memory_order_release);
  syscall(SYS_futex, &w->inflight, FUTEX_WAKE_PRIVATE, 64, NULL, NULL, 0);
  /* last touch of the application's signal: after this it may destroy it */
  if (!rtg_op_release_signal(op)) rtg_op_free(op);
}

static void *waiter_main(void *arg) {
  rtg_op_waiter *w = arg;
  rtg_tls.depth = 1;
  for (;;) {
    pthread_mutex_lock(&w->mu);
    while (!w->head && !atomic_load(&abandon) && !atomic_load(&w->stop))
      pthread_cond_wait(&w->cv, &w->mu);
    rtg_op *op = w->head;
    if (op) {
      w->head = op->next;
      if (!w->head) w->tail = NULL;
    }
    pthread_mutex_unlock(&w->mu);
    if (!op) break;
    bool done = false;
    while (!atomic_load(&abandon) && !atomic_load(&w->stop)) {
      hsa_signal_value_t v =
          rtg_real.hsa_signal_wait_scacquire(op->signal, HSA_SIGNAL_CONDITION_LT, op->wait_below,
                                             wait_timeout_ticks, HSA_WAIT_STATE_BLOCKED);
      if (v < op->wait_below) {
        done = true;
        break;
      }
    }
    if (done) {
      complete(w, op);
    } else { /* exit or destroy came first: this one and all queued behind it */
      pthread_mutex_lock(&w->mu);
      uint64_t n = 1;
      for (rtg_op *o = w->head; o; o = o->next) n++;
      w->head = w->tail = NULL;
      pthread_mutex_unlock(&w->mu);
      rtg_count(RTG_CNT_UNFINISHED, n);
      break;
    }
  }
  return NULL;
}

rtg_op_waiter *rtg_waiter_create(const char *what, uint32_t limit) {
  rtg_op_waiter *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
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
 * then stop the thread (it notices within one wait timeout, 100 ms) and
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

void rtg_waiter_throttle(rtg_op_waiter *w) {
  for (;;) {
    uint32_t n = atomic_load_explicit(&w->inflight, memory_order_acquire);
    if (n < w->limit || atomic_load(&abandon)) return;
    struct timespec ts = {0, 1000000};
    syscall(SYS_futex, &w->inflight, FUTEX_WAIT_PRIVATE, n, &ts, NULL, 0);
  }
}

void rtg_waiter_submit(rtg_op_waiter *w, rtg_op *op) {
  atomic_fetch_add_explicit(&w->inflight, 1, memory_order_relaxed);
  op->next = NULL;
  pthread_mutex_lock(&w->mu);
  if (w->tail)
    w->tail->next = op;
  else
    w->head = op;
  w->tail = op;
  pthread_cond_signal(&w->cv);
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
  pthread_mutex_init(&waiters_mu, NULL);
  pthread_mutex_init(&pool_mu, NULL);
}

RTG_HIDDEN void rtg_gpu_ops_init(void) {
  rtg_sigtrack_init();
  uint64_t freq = 0;
  if (rtg_real.hsa_system_get_info &&
      rtg_real.hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq) ==
          HSA_STATUS_SUCCESS &&
      freq)
    wait_timeout_ticks = freq / 10; /* 100 ms: how soon a waiter notices exit */
  pthread_atfork(NULL, NULL, rtg_gpu_ops_after_fork);
}
