/* Per-thread state of the tracer (thread_state.c): the thread's buffer,
 * ids, the correlation id of the API call in progress, the recursion
 * guard; and the clock.  (Not initial-exec TLS: the library's TLS block is
 * too big for the static TLS surplus a dlopen'ed library may use.) */
#ifndef RTG_THREAD_STATE_H
#define RTG_THREAD_STATE_H

#include "visibility.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct rtg_tchain rtg_tchain;

typedef struct rtg_thread_state {
  rtg_tchain *chain; /* this thread's buffer (tbuf.c), attached at its first record */
  uint64_t tid;
  uint64_t corr; /* the HIP call in progress (rtg_corr_set) */
  /* The innermost traced call in progress, of any API: every traced call
   * (HIP, HSA, ROCTx) takes an id from the blocks below and is this while
   * it runs; a call made inside it names it as its ancestor, and a GPU op
   * submitted inside it outside any HIP call carries its id. */
  uint64_t inner;
  /* inner when a GPU op last began on this thread: a call that submitted
   * one is never counted as a repeat of the call before it (hsa_api.c),
   * whose record has another id */
  uint64_t op_inner;
  uint32_t graph;     /* the graph exec a hipGraphLaunch in progress launches (1...), 0: none */
  uint32_t graph_ops; /* the kernels and copies that launch submitted so far */
  uint64_t corr_next, corr_end; /* this thread's block of correlation ids */
  int inside;                   /* > 0 while the tracer runs on this thread (rtg_enter) */
  bool no_wait;      /* the tracer's own threads, the fatal path: never wait for buffer space */
  const char *range; /* the innermost ROCTx range pushed on this thread, or NULL */
  int hip_tramp;     /* HIP calls in progress that came through a trampoline (GOT, table) */
} rtg_thread_state;

extern __thread rtg_thread_state rtg_tls __attribute__((visibility("hidden")));

/* CLOCK_BOOTTIME nanoseconds: the clock of HSA's profiling timestamps. */
RTG_HIDDEN uint64_t rtg_now(void);

/* A CLOCK_BOOTTIME / CLOCK_REALTIME pair for placing hosts on one time
 * axis: the realtime read between two boottime reads, the tightest of a
 * few tries.  boot_ns is the middle of the bracket, err_ns half its width
 * (rounded up): the pair's own error.  Async-signal-safe. */
typedef struct rtg_clock_pair {
  uint64_t boot_ns, realtime_ns, err_ns;
} rtg_clock_pair;
RTG_HIDDEN rtg_clock_pair rtg_clock_pair_now(void);

/* pid and kernel thread id of the caller, cached per thread. */
RTG_HIDDEN uint32_t rtg_pid(void);
RTG_HIDDEN uint64_t rtg_tid(void);

/* A process-wide id that links an API call to the GPU work it caused.
 * The HIP layer sets the calling thread's current id for the duration of
 * a call; the queue interceptor stamps it on the packets submitted from that
 * thread meanwhile (0 when none).  Each thread takes its ids from a block
 * of its own, so calls on many threads do not fight over one counter's
 * cache line: ids are unique in the process, increasing per thread. */
RTG_HIDDEN void rtg_corr_refill(rtg_thread_state *ts);
static inline uint64_t rtg_corr_next_on(rtg_thread_state *ts) {
  if (ts->corr_next == ts->corr_end) rtg_corr_refill(ts);
  return ts->corr_next++;
}
static inline void rtg_corr_set(uint64_t id) { /* 0 clears */
  rtg_tls.corr = id;
}
static inline uint64_t rtg_corr_get(void) {
  return rtg_tls.corr;
}
/* Set by a layer that expects every kernel and copy to begin inside a
 * traced API call (the HIP hand-over to the GOT, hip_cb_legacy.c); called
 * on the submitting thread when one begins outside any. */
RTG_HIDDEN extern void (*rtg_corr_missing)(void);

/* The recursion guard.  Between rtg_enter and rtg_leave the calling thread
 * runs the tracer: what it calls in the runtimes (hipPeekAtLastError, a
 * kernel-name lookup, HSA calls made on its behalf) is not traced.  The
 * tracer's own threads enter once and never leave.  Entries nest. */
static inline void rtg_enter(void) {
  rtg_tls.inside++;
}
static inline void rtg_leave(void) {
  rtg_tls.inside--;
}
static inline bool rtg_inside(void) {
  return rtg_tls.inside != 0;
}

/* The innermost ROCTx range pushed on the calling thread, or NULL: kept by
 * the ROCTx side, read when a kernel is submitted (RTG_KERNEL_RENAME).  The
 * name lives until exit. */
static inline const char *rtg_range_current(void) {
  return rtg_tls.range;
}
static inline void rtg_range_set(const char *name) {
  rtg_tls.range = name;
}

/* fork child: the pid changed, and so did the forking thread's tid. */
RTG_HIDDEN void rtg_thread_state_after_fork(void);

#endif
