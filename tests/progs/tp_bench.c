/* tp_bench: the numbers of scripts/bench-tracer.sh, measured in one run so
 * traced and untraced costs come from the same machine state.
 *   tp_bench api N    ns per hsa_signal_load_relaxed call (traced or not,
 *                     as HSA_TOOLS_LIB says), and ns per pair of
 *                     clock_gettime(CLOCK_BOOTTIME) calls
 *   tp_bench dispatch N   host ns per dispatch submitted (submit only,
 *                     then one wait), and dispatches per second overall
 * Prints "key value" lines. */
#include <time.h>

#include "tp_common.h"

static uint64_t now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "api";
  long n = argc > 2 ? atol(argv[2]) : 1000000;
  sg_system_t sys;
  sg_init(&sys);
  if (!strcmp(what, "api")) {
    hsa_signal_t s;
    CHECK(hsa_signal_create(1, 0, NULL, &s));
    volatile int64_t sink = 0;
    uint64_t best_api = UINT64_MAX, best_clk = UINT64_MAX;
    for (int rep = 0; rep < 5; rep++) {
      uint64_t t0 = now();
      for (long i = 0; i < n; i++) sink += hsa_signal_load_relaxed(s);
      uint64_t t1 = now();
      for (long i = 0; i < n; i++) {
        struct timespec a, b;
        clock_gettime(CLOCK_BOOTTIME, &a);
        clock_gettime(CLOCK_BOOTTIME, &b);
        sink += a.tv_nsec ^ b.tv_nsec;
      }
      uint64_t t2 = now();
      if (t1 - t0 < best_api) best_api = t1 - t0;
      if (t2 - t1 < best_clk) best_clk = t2 - t1;
    }
    (void)sink; /* only there to keep the loops; gcc >= 15 warns it is never read */
    printf("api_ns %.2f\nclock_pair_ns %.2f\n", (double)best_api / n, (double)best_clk / n);
  } else {
    hsa_queue_t *q;
    CHECK(hsa_queue_create(sys.gpu[0].agent, 4096, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                           UINT32_MAX, &q));
    hsa_signal_t s;
    uint64_t best = UINT64_MAX, total0 = now();
    long chunk = n < 1024 ? n : 1024, done = 0;
    while (done < n) {
      CHECK(hsa_signal_create(chunk, 0, NULL, &s));
      uint64_t t0 = now();
      for (long i = 0; i < chunk; i++) {
        hsa_kernel_dispatch_packet_t d;
        sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, s);
        sg_submit(q, &d);
      }
      uint64_t t1 = now();
      sg_wait(s);
      hsa_signal_destroy(s);
      if (t1 - t0 < best) best = t1 - t0;
      done += chunk;
    }
    uint64_t total = now() - total0;
    printf("submit_ns %.1f\ndispatch_per_s %.0f\n", (double)best / chunk, done * 1e9 / total);
  }
  return 0;
}
