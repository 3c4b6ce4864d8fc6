/* The writer thread: turns the per-thread buffers (tbuf.c) into the trace
 * file.  It wakes every RTG_FLUSH_MS (50), when a thread fills a chunk or
 * when a producer waits for buffer space; it calls each entry's format
 * function and writes whole batches. */
#define _GNU_SOURCE /* pthread_setname_np */
#include "writer.h"

#include "config.h"
#include "emit.h"
#include "stamp.h"
#include "tbuf.h"
#include "trace_file.h"

#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { FLUSH_MS = 50, LINE_MAX_BYTES = 8192 };

static pthread_mutex_t drain_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_t writer;
static bool writer_running;
static _Atomic int writer_stop;
/* every producer that fills a chunk writes it: a line of its own */
static _Alignas(64) _Atomic uint32_t kick; /* futex word: 1 = drain now */
/* tasks run between drains: added at load, read by the writer */
static void (*_Atomic every_flush[4])(void);

/* A fork child's writer starts with its first full chunk (writer_start_later) */
static _Atomic int start_on_kick;
static pthread_mutex_t start_mu = PTHREAD_MUTEX_INITIALIZER;
static void start_pending(void);

void rtg_writer_wake(void) {
  if (atomic_load_explicit(&start_on_kick, memory_order_relaxed)) start_pending();
  if (atomic_exchange_explicit(&kick, 1, memory_order_release) == 0)
    syscall(SYS_futex, &kick, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

void rtg_writer_every_flush(void (*task)(void)) {
  for (size_t i = 0; i < sizeof every_flush / sizeof every_flush[0]; i++) {
    void (*none)(void) = NULL;
    if (atomic_compare_exchange_strong(&every_flush[i], &none, task) || none == task) return;
  }
}

static void run_tasks(void) {
  for (size_t i = 0; i < sizeof every_flush / sizeof every_flush[0]; i++) {
    void (*task)(void) = atomic_load(&every_flush[i]);
    if (task) task();
  }
}

/* ------------------------------------------------------------- draining */

/* Aligned and a whole number of cache lines: the writer changes n for
 * every record, so nothing else may share its line. */
typedef struct outbuf {
  _Alignas(64) size_t n;
  char data[1 << 18];
} outbuf;

static void out_flush(outbuf *o) {
  rtg_file_write(o->data, o->n);
  o->n = 0;
}
static char *out_reserve(outbuf *o, size_t n) {
  if (o->n + n > sizeof o->data) out_flush(o);
  return o->data + o->n;
}

/* One entry of a thread's buffer into the output batch: its format
 * function, then the payload. */
static void put_entry(void *ctx, uint64_t tid, const char *payload, size_t len) {
  outbuf *o = ctx;
  rtg_entry_format fmt;
  if (len < sizeof fmt) return;
  memcpy(&fmt, payload, sizeof fmt);
  char *dst = out_reserve(o, LINE_MAX_BYTES);
  o->n += fmt(dst, LINE_MAX_BYTES, payload + sizeof fmt, len - sizeof fmt, rtg_pid(), tid);
}

/* final: the trace ends here (exit, exec, a fatal signal), so what the
 * threads hold back is written too (hold.h). */
static uint64_t drain_all_locked(outbuf *o, bool final) {
  rtg_stamp_calibrate(); /* every stamp drained now lies before or near this point */
  uint64_t n = rtg_tbuf_drain(put_entry, o, final);
  out_flush(o);
  return n;
}

static outbuf writer_buf;

void rtg_writer_flush(void) {
  pthread_mutex_lock(&drain_mu);
  drain_all_locked(&writer_buf, true);
  pthread_mutex_unlock(&drain_mu);
}

/* Fatal-signal path: the writer may hold the lock forever (it crashed
 * itself, or the process is dying around it), so try for a while, then
 * drain anyway with a buffer of our own.  The while is generous: on a
 * loaded machine the writer can sit preempted in the middle of a drain for
 * hundreds of milliseconds, and draining beside it risks the records it is
 * writing; a dying process can spare two seconds. */
void rtg_writer_flush_from_signal(void) {
  static outbuf sig_buf;
  for (int i = 0; i < 2000 && pthread_mutex_trylock(&drain_mu) != 0; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
  drain_all_locked(&sig_buf, true);
}

void rtg_writer_lock(void) {
  pthread_mutex_lock(&drain_mu);
}
void rtg_writer_unlock(void) {
  pthread_mutex_unlock(&drain_mu);
}
void rtg_writer_hold(void) {
  pthread_mutex_lock(&drain_mu);
  drain_all_locked(&writer_buf, true);
}

/* ------------------------------------------------------------ the thread */

/* What the writer thread did, for RTG_VERBOSE and the writer benchmark. */
static uint64_t writer_entries, writer_cpu_ns;

rtg_writer_stats rtg_writer_get_stats(void) {
  return (rtg_writer_stats){writer_entries, writer_cpu_ns};
}

static uint64_t thread_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* RTG_WRITER_STALL=1: the writer drains nothing until a producer has had
 * to wait for it (or the process ends), as if the trace went to a disk
 * that stalls.  Tests see the full-buffer path on every run rather than
 * only when the writer happens to fall behind. */
static void stall(void) {
  while (!atomic_load(&writer_stop) && rtg_tbuf_get_stats().waits == 0) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

static void *writer_main(void *arg) {
  (void)arg;
  rtg_enter();                                      /* nothing the writer does is traced */
  rtg_tls.no_wait = true;                           /* it is what producers wait for */
  pthread_setname_np(pthread_self(), "rtg-writer"); /* as top and perf show it */
  rtg_file_on_writer_thread();
  uint64_t ran_task = 0;
  if (rtg_cfg.writer_stall) stall();
  while (!atomic_load(&writer_stop)) {
    struct timespec ts = {0, FLUSH_MS * 1000000L};
    if (!atomic_exchange_explicit(&kick, 0, memory_order_acquire)) {
      syscall(SYS_futex, &kick, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
      atomic_store_explicit(&kick, 0, memory_order_relaxed);
    }
    uint64_t cpu0 = thread_cpu_ns();
    pthread_mutex_lock(&drain_mu);
    writer_entries += drain_all_locked(&writer_buf, false);
    pthread_mutex_unlock(&drain_mu);
    writer_cpu_ns += thread_cpu_ns() - cpu0;
    uint64_t now = rtg_now();
    if (now - ran_task >= FLUSH_MS * 1000000ull) { /* not per chunk when busy */
      run_tasks();
      ran_task = now;
    }
  }
  return NULL;
}

void rtg_writer_start(void) {
  atomic_store(&writer_stop, 0);
  sigset_t all, old;
  sigfillset(&all); /* the application's signals are not for this thread */
  pthread_sigmask(SIG_SETMASK, &all, &old);
  writer_running = pthread_create(&writer, NULL, writer_main, NULL) == 0;
  rtg_tbuf_set_writer_alive(writer_running);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The child of a fork starts no thread in its fork handler: until exec it
 * may only rely on what is safe after fork in a threaded process, and an
 * allocator that other threads held at the fork (ASan's in gcc 12 does not
 * take its locks around fork) never comes free in the child.  Its records
 * wait in the buffers until a chunk fills or the trace ends (exit, exec
 * and fatal signals drain on the calling thread). */
void rtg_writer_start_later(void) {
  atomic_store(&start_on_kick, 1);
}

static void start_pending(void) {
  pthread_mutex_lock(&start_mu);
  if (atomic_exchange(&start_on_kick, 0)) rtg_writer_start();
  pthread_mutex_unlock(&start_mu);
}

void rtg_writer_stop(void) {
  pthread_mutex_lock(&start_mu); /* no pending start after this */
  atomic_store(&start_on_kick, 0);
  pthread_mutex_unlock(&start_mu);
  if (!writer_running) return;
  rtg_tbuf_set_writer_alive(false); /* from now on, nobody waits for it */
  atomic_store(&writer_stop, 1);
  rtg_writer_wake();
  pthread_join(writer, NULL);
  writer_running = false;
}

void rtg_writer_after_fork_child(void) {
  pthread_mutex_init(&drain_mu, NULL);
  pthread_mutex_init(&start_mu, NULL);
  atomic_store(&start_on_kick, 0);
  writer_running = false;
  rtg_tbuf_set_writer_alive(false);
}
