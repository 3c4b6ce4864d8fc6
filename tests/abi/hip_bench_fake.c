/* The tracer's own added cost per HIP call, away from any GPU: the real
 * rtg_tracer.so (its ring-buffer sink and writer thread) tracing the
 * stand-in HIP libraries, for scripts/bench-hip.sh.
 *   hip_bench_fake MODE N REPS TRACER REGISTER FAKE_HIP
 * MODE table:    fake_hip62.c, HipDispatchTable through rtg_register.so
 *      callback: fake_hip.c, the 5.3.1+ hipRegisterTracerCallback path
 * Per repetition, side by side in this one process, ns per call of:
 *   untraced  hipSetDevice(0) as HIP runs it with no tool
 *   traced    hipSetDevice(0) through the tracer
 *   filtered  hipPeekAtLastError() (filtered out by RTG_HIP_API_FILTER_OUT)
 *   clock     two clock_gettime(CLOCK_BOOTTIME) calls
 * The HSA side is given a root table too small to hold any HSA table, so
 * OnLoad only starts the sink and the HIP side (it says so on stderr). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static void *load(const char *path, int global) {
  void *h = dlopen(path, RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
  if (!h) {
    fprintf(stderr, "hip_bench_fake: %s\n", dlerror());
    exit(2);
  }
  return h;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: hip_bench_fake table|callback N REPS TRACER REGISTER FAKE_HIP\n");
    return 2;
  }
  int table = !strcmp(argv[1], "table");
  long n = atol(argv[2]), reps = atol(argv[3]);
  setenv("RTG_HIP_API_FILTER_OUT", "hipPeekAtLastError", 1);
  if (table) load(argv[5], 1); /* as LD_PRELOAD */
  void *hip = load(argv[6], 1);
  int (*traced)(int), (*untraced)(int), (*filtered)(void);
  *(void **)&traced = dlsym(hip, table ? "hipSetDevice" : "fake_hipSetDevice");
  *(void **)&untraced =
      dlsym(hip, table ? "fake62_hipSetDevice_notool" : "fake_hipSetDevice_notool");
  *(void **)&filtered = dlsym(hip, table ? "hipPeekAtLastError" : "fake_hipPeekAtLastError");
  if (!traced || !untraced || !filtered) return 2;
  int *fill = dlsym(hip, "fake_hip_fill");
  if (fill) *fill = 0; /* the tests' 0xAB fill of HIP's trace data: not HIP's cost */
  filtered();          /* HIP's first call: 6.2 hands its tables over here */
  bool (*onload)(void *, uint64_t, uint64_t, const char *const *);
  *(void **)&onload = dlsym(load(argv[4], 0), "OnLoad");
  struct {
    uint32_t major, minor, step, reserved;
  } root = {1, sizeof root, 0, 0};
  if (!onload || !onload(&root, 0, 0, NULL)) return 2;
  for (long r = 0; r < reps; r++) {
    struct timespec ts;
    double t0 = now();
    for (long i = 0; i < n; i++) untraced(0);
    double t1 = now();
    for (long i = 0; i < n; i++) traced(0);
    double t2 = now();
    for (long i = 0; i < n; i++) filtered();
    double t3 = now();
    for (long i = 0; i < n; i++) {
      clock_gettime(CLOCK_BOOTTIME, &ts);
      clock_gettime(CLOCK_BOOTTIME, &ts);
    }
    double t4 = now();
    printf("%.2f %.2f %.2f %.2f\n", (t1 - t0) / n, (t2 - t1) / n, (t3 - t2) / n, (t4 - t3) / n);
  }
  return 0;
}
