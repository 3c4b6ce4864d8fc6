/* Per-thread state of the tracer (ids, correlation, recursion guard) and
 * the clock.  (Not initial-exec TLS: the library's TLS block is too big for
 * the static TLS surplus a dlopen'ed library may use.) */
#include "tracer.h"
#include "tracer_internal.h"

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

/* fork child: the pid changed, and so did the forking thread's tid. */
void rtg_thread_state_after_fork(void) {
  cached_pid = 0;
  rtg_tls.tid = 0;
}

uint64_t rtg_corr_next(void) {
  return atomic_fetch_add_explicit(&corr_counter, 1, memory_order_relaxed) + 1;
}
void rtg_corr_set(uint64_t id) {
  rtg_tls.corr = id;
}
uint64_t rtg_corr_get(void) {
  return rtg_tls.corr;
}

bool rtg_enter(void) {
  if (rtg_tls.depth) return false;
  rtg_tls.depth = 1;
  return true;
}
void rtg_leave(void) {
  rtg_tls.depth = 0;
}

/* Until the HIP/ROCTx side provides the real one (roctx.c). */
__attribute__((weak)) const char *rtg_roctx_current_range(void) {
  return NULL;
}
