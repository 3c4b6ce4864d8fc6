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
