/* Per-thread state of the tracer and the clock (thread_state.h). */
#include "thread_state.h"

#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

__thread rtg_thread_state rtg_tls;

static uint32_t cached_pid;
static _Atomic uint64_t corr_counter;

uint64_t rtg_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t read_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

rtg_clock_pair rtg_clock_pair_now(void) {
  rtg_clock_pair best = {0, 0, UINT64_MAX};
  for (int i = 0; i < 5; i++) {
    uint64_t b1 = read_ns(CLOCK_BOOTTIME), rt = read_ns(CLOCK_REALTIME),
             b2 = read_ns(CLOCK_BOOTTIME);
    uint64_t err = (b2 - b1 + 1) / 2;
    if (err < best.err_ns) best = (rtg_clock_pair){b1 + (b2 - b1) / 2, rt, err};
  }
  return best;
}

uint32_t rtg_pid(void) {
  if (!cached_pid) cached_pid = (uint32_t)getpid();
  return cached_pid;
}

uint64_t rtg_tid(void) {
  if (!rtg_tls.tid) rtg_tls.tid = (uint64_t)syscall(SYS_gettid);
  return rtg_tls.tid;
}

void rtg_thread_state_after_fork(void) {
  cached_pid = 0;
  rtg_tls.tid = 0;
}

enum { CORR_BLOCK = 1024 };

void rtg_corr_refill(rtg_thread_state *ts) {
  ts->corr_next = atomic_fetch_add_explicit(&corr_counter, CORR_BLOCK, memory_order_relaxed) + 1;
  ts->corr_end = ts->corr_next + CORR_BLOCK;
}

void (*rtg_corr_missing)(void);
