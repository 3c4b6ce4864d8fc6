/* tp_bench: the numbers of scripts/bench-tracer.sh, measured in one run so
 * traced and untraced costs come from the same machine state.
 *   tp_bench api N    ns per hsa_signal_load_relaxed call (traced or not,
 *                     as HSA_TOOLS_LIB says), and ns per pair of
 *                     clock_gettime(CLOCK_BOOTTIME) calls
 *   tp_bench alt N    the same, the calls alternating between two signals
 *                     (no call repeats the one before it: none coalesced)
 *   tp_bench paced N [STEPS]  the same with about 300 ns of the
 *                     application's own work before each call: ns per
 *                     iteration (work + call).  The work is calibrated to
 *                     300 ns unless STEPS (work_steps of an earlier run) is
 *                     given: traced and untraced runs must do the same work
 *   tp_bench dispatch N [flood]   host ns per dispatch submitted (submit
 *                     only, then one wait), and dispatches per second
 *                     overall; with flood, a second thread makes
 *                     hsa_signal_load_relaxed calls as fast as it can
 *                     meanwhile (printed as flood_calls)
 *   tp_bench stamps N  N hsa_signal_load_relaxed calls, 0.3-3 ms apart,
 *                     each printed as "call BEFORE AFTER": CLOCK_BOOTTIME
 *                     ns read by the application around it
 * Prints "key value" lines, and the process's peak RSS (maxrss_kb). */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/resource.h>
#include <time.h>

#include "tp_common.h"

static uint64_t now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static atomic_int flood_stop;
static long flood_calls;
static void *flood(void *arg) {
  hsa_signal_t s = *(hsa_signal_t *)arg;
  volatile int64_t sink = 0;
  while (!atomic_load_explicit(&flood_stop, memory_order_relaxed)) {
    sink += hsa_signal_load_relaxed(s);
    flood_calls++;
  }
  (void)sink;
  return NULL;
}

/* The application's work between calls: k steps of a multiply-add chain
 * the compiler cannot drop. */
static volatile uint64_t work_state = 1;
static void work(long k) {
  uint64_t x = work_state;
  for (long i = 0; i < k; i++) x = x * 6364136223846793005ull + 1442695040888963407ull;
  work_state = x;
}

/* Steps of work() that take about ns nanoseconds here. */
static long calibrate(uint64_t ns) {
  long k = 1000;
  for (;;) {
    uint64_t best = UINT64_MAX;
    for (int rep = 0; rep < 5; rep++) {
      uint64_t t0 = now();
      for (int i = 0; i < 1000; i++) work(k);
      uint64_t t = (now() - t0) / 1000;
      if (t < best) best = t;
    }
    if (best >= ns / 2 || k > 100000000) return (long)((double)k * (double)ns / (double)best);
    k *= 4;
  }
}

/* ns per iteration of n hsa_signal_load_relaxed calls, each after k steps
 * of work (0: none), and in *clk ns per pair of clock reads: the best of 5
 * repetitions of each, side by side. */
static double calls_ns(long n, long k, bool alt, double *clk) {
  hsa_signal_t s, other;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  CHECK(hsa_signal_create(1, 0, NULL, &other));
  hsa_signal_t sig[2] = {s, alt ? other : s};
  volatile int64_t sink = 0;
  uint64_t best = UINT64_MAX, best_clk = UINT64_MAX;
  for (int rep = 0; rep < 5; rep++) {
    uint64_t t0 = now();
    for (long i = 0; i < n; i++) {
      if (k) work(k);
      sink += hsa_signal_load_relaxed(sig[i & 1]);
    }
    uint64_t t1 = now();
    for (long i = 0; i < n; i++) {
      struct timespec a, b;
      clock_gettime(CLOCK_BOOTTIME, &a);
      clock_gettime(CLOCK_BOOTTIME, &b);
      sink += a.tv_nsec ^ b.tv_nsec;
    }
    uint64_t t2 = now();
    if (t1 - t0 < best) best = t1 - t0;
    if (t2 - t1 < best_clk) best_clk = t2 - t1;
  }
  (void)sink; /* only there to keep the loops; gcc >= 15 warns it is never read */
  *clk = (double)best_clk / n;
  return (double)best / n;
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "api";
  long n = argc > 2 ? atol(argv[2]) : 1000000;
  sg_system_t sys;
  sg_init(&sys);
  if (!strcmp(what, "stamps")) {
    hsa_signal_t s;
    CHECK(hsa_signal_create(1, 0, NULL, &s));
    for (long i = 0; i < n; i++) {
      uint64_t before = now();
      hsa_signal_load_relaxed(s);
      uint64_t after = now();
      printf("call %llu %llu\n", (unsigned long long)before, (unsigned long long)after);
      struct timespec ts = {0, i % 5 ? 300000 : 3000000};
      nanosleep(&ts, NULL);
    }
    hsa_signal_destroy(s);
  } else if (!strcmp(what, "api") || !strcmp(what, "alt") || !strcmp(what, "paced")) {
    bool paced = !strcmp(what, "paced");
    long k = !paced ? 0 : argc > 3 ? atol(argv[3]) : calibrate(300);
    double clk, per = calls_ns(n, k, !strcmp(what, "alt"), &clk);
    if (paced)
      printf("paced_ns %.2f\nwork_steps %ld\nclock_pair_ns %.2f\n", per, k, clk);
    else
      printf("api_ns %.2f\nclock_pair_ns %.2f\n", per, clk);
  } else {
    pthread_t flooder;
    hsa_signal_t fs;
    bool flooding = argc > 3 && !strcmp(argv[3], "flood");
    if (flooding) {
      CHECK(hsa_signal_create(1, 0, NULL, &fs));
      pthread_create(&flooder, NULL, flood, &fs);
    }
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
    if (flooding) {
      atomic_store(&flood_stop, 1);
      pthread_join(flooder, NULL);
      printf("flood_calls %ld\n", flood_calls);
    }
  }
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("maxrss_kb %ld\n", ru.ru_maxrss);
  return 0;
}
