// Host cost of a cheap HIP call (hipGetLastError) in a tight loop, and of two
// CLOCK_BOOTTIME reads, in ns; used by scripts/bench-hip.sh.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now() {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 200000, dev;
  hipGetDevice(&dev);
  double best_call = 1e30, best_clock = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = now();
    for (int i = 0; i < n; i++) (void)hipGetLastError();
    double t1 = now();
    struct timespec ts;
    for (int i = 0; i < n; i++) {
      clock_gettime(CLOCK_BOOTTIME, &ts);
      clock_gettime(CLOCK_BOOTTIME, &ts);
    }
    double t2 = now();
    if ((t1 - t0) / n < best_call) best_call = (t1 - t0) / n;
    if ((t2 - t1) / n < best_clock) best_clock = (t2 - t1) / n;
  }
  printf("%.1f %.1f\n", best_call, best_clock);
  return 0;
}
