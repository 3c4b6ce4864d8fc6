/* sg_concurrent: kernels on different queues (and different GPUs) run at the
 * same time. Two queues per GPU each get one kernel of SIMGPU_KERNEL_NS
 * (the e2e case sets 200 ms); all must overlap in time, and the wall time
 * must be well under the sum. */
#include <string.h>
#include <time.h>

#include "common.h"

static char descriptor[4096] __attribute__((aligned(4096))); /* never run */

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  uint64_t dur = sg_env_u64("SIMGPU_KERNEL_NS", 20000);
  int n = sys.ngpus * 2;
  hsa_queue_t *q[2 * SG_MAX_GPUS];
  hsa_signal_t s[2 * SG_MAX_GPUS];
  for (int i = 0; i < n; i++) {
    CHECK(hsa_queue_create(sys.gpu[i / 2].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                           UINT32_MAX, &q[i]));
    CHECK(hsa_amd_profiling_set_profiler_enabled(q[i], 1));
    CHECK(hsa_signal_create(1, 0, NULL, &s[i]));
  }
  uint64_t t0 = now_ns();
  for (int i = 0; i < n; i++) {
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)descriptor, NULL, 64, s[i]);
    sg_submit(q[i], &d);
  }
  uint64_t last_start = 0, first_end = UINT64_MAX;
  for (int i = 0; i < n; i++) {
    sg_wait(s[i]);
    hsa_amd_profiling_dispatch_time_t t;
    CHECK(hsa_amd_profiling_get_dispatch_time(sys.gpu[i / 2].agent, s[i], &t));
    if (t.start > last_start) last_start = t.start;
    if (t.end < first_end) first_end = t.end;
  }
  uint64_t wall = now_ns() - t0;
  printf("%d kernels on %d queues of %d GPU(s) overlap: %s\n", n, n, sys.ngpus,
         last_start < first_end ? "yes" : "no");
  printf("wall time below 2 kernel durations: %s\n", wall < 2 * dur ? "yes" : "no");
  for (int i = 0; i < n; i++) {
    CHECK(hsa_signal_destroy(s[i]));
    CHECK(hsa_queue_destroy(q[i]));
  }
  CHECK(hsa_shut_down());
  return 0;
}
