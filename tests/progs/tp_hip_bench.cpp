// tp_hip_bench: the HIP numbers of scripts/bench-tracer.sh, on the real HIP
// runtime (5.2.3 on the simulated GPU in the tests).
//   tp_hip_bench api N          ns per hipGetDevice call, as HSA_TOOLS_LIB
//                               says (traced or not), and ns per pair of
//                               CLOCK_BOOTTIME reads; best of 5 repetitions
//   tp_hip_bench floor N        the same with an empty tool callback
//                               registered for hipGetDevice the way a tool
//                               must on this release (activity + API
//                               callback): HIP's own cost of calling a tool
//   tp_hip_bench b2b|sync N     N kernels over two streams, back to back
//                               (then one hipDeviceSynchronize), or with a
//                               hipStreamSynchronize after each launch;
//                               prints elapsed_ns, first launch to the end
//   tp_hip_bench dep N          N kernels on one stream, each waited for by
//                               the other (hipEventRecord, hipStreamWaitEvent)
//                               before a kernel there, which the host then
//                               waits for (hipStreamSynchronize): a stream
//                               waiting on another's event
// The callback registration is HIP's <= 5.3.0 interface (hip_prof_api.h),
// looked up at run time: later releases no longer declare it.
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <hip/amd_detail/hip_prof_str.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../examples/hip_check.h"

static unsigned long long now_ns() {
  timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

__global__ void tick(int *p) {
  if (threadIdx.x == 0 && p) p[blockIdx.x] += 1;
}

// An empty tool: HIP asks the activity callback for a record at entry
// (NULL would turn the call's tracing off), calls the API callback at entry
// and exit, then the activity callback again at exit.
alignas(16) static unsigned char record[4096];
static void *empty_activity(uint32_t, void *, const void *, void *arg) {
  return arg ? nullptr : record;
}
static void empty_api(uint32_t, uint32_t, const void *, void *) {}

static void api(long n) {
  int dev = 0;
  volatile long sink = 0;
  double best_api = 1e30, best_clk = 1e30;
  for (int rep = 0; rep < 5; rep++) {
    unsigned long long t0 = now_ns();
    for (long i = 0; i < n; i++) {
      (void)hipGetDevice(&dev);
      sink += dev;
    }
    unsigned long long t1 = now_ns();
    for (long i = 0; i < n; i++) {
      timespec a, b;
      clock_gettime(CLOCK_BOOTTIME, &a);
      clock_gettime(CLOCK_BOOTTIME, &b);
      sink += a.tv_nsec ^ b.tv_nsec;
    }
    unsigned long long t2 = now_ns();
    if ((double)(t1 - t0) < best_api) best_api = (double)(t1 - t0);
    if ((double)(t2 - t1) < best_clk) best_clk = (double)(t2 - t1);
  }
  printf("api_ns %.2f\nclock_pair_ns %.2f\n", best_api / n, best_clk / n);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "api";
  long n = argc > 2 ? atol(argv[2]) : 100000;
  if (n < 1) n = 1;
  CK(hipSetDevice(0));
  if (!strcmp(mode, "api")) {
    api(n);
  } else if (!strcmp(mode, "floor")) {
    typedef hipError_t (*reg_fn)(uint32_t, void *, void *);
    reg_fn reg_act = (reg_fn)dlsym(RTLD_DEFAULT, "hipRegisterActivityCallback");
    reg_fn reg_api = (reg_fn)dlsym(RTLD_DEFAULT, "hipRegisterApiCallback");
    if (!reg_act || !reg_api ||
        reg_act(HIP_API_ID_hipGetDevice, (void *)empty_activity, (void *)1) != hipSuccess ||
        reg_api(HIP_API_ID_hipGetDevice, (void *)empty_api, nullptr) != hipSuccess) {
      fprintf(stderr, "this HIP has no <= 5.3 callback interface to measure\n");
      return 2;
    }
    api(n);
  } else {
    // TP_EMPTY_TOOL=1: the empty tool registered for every op, so the
    // stretch HIP itself adds when any tool listens can be told apart;
    // TP_EMPTY_TOOL=idle: registered for hipGetDevice alone, which the loop
    // never calls (what any registration turns on in HIP, callbacks aside)
    if (const char *tool = getenv("TP_EMPTY_TOOL")) {
      typedef hipError_t (*reg_fn)(uint32_t, void *, void *);
      reg_fn reg_act = (reg_fn)dlsym(RTLD_DEFAULT, "hipRegisterActivityCallback");
      reg_fn reg_api = (reg_fn)dlsym(RTLD_DEFAULT, "hipRegisterApiCallback");
      bool idle = !strcmp(tool, "idle");
      for (uint32_t op = idle ? (uint32_t)HIP_API_ID_hipGetDevice : 0;
           reg_act && reg_api && op <= (idle ? (uint32_t)HIP_API_ID_hipGetDevice : HIP_API_ID_LAST);
           op++) {
        (void)reg_act(op, (void *)empty_activity, (void *)1);
        (void)reg_api(op, (void *)empty_api, nullptr);
      }
    }
    bool sync = !strcmp(mode, "sync"), dep = !strcmp(mode, "dep");
    hipStream_t s[2];
    for (auto &st : s) CK(hipStreamCreateWithFlags(&st, hipStreamNonBlocking));
    hipEvent_t ev;
    CK(hipEventCreateWithFlags(&ev, hipEventDisableTiming));
    int *buf;
    CK(hipMalloc(&buf, 64 * sizeof(int)));
    hipLaunchKernelGGL(tick, dim3(1), dim3(64), 0, s[0], buf); // warm up
    CK(hipDeviceSynchronize());
    unsigned long long t0 = now_ns();
    for (long i = 0; i < n; i++) {
      hipLaunchKernelGGL(tick, dim3(1), dim3(64), 0, s[dep ? 0 : i % 2], buf);
      if (dep) {
        CK(hipEventRecord(ev, s[0]));
        CK(hipStreamWaitEvent(s[1], ev, 0));
        hipLaunchKernelGGL(tick, dim3(1), dim3(64), 0, s[1], buf);
        CK(hipStreamSynchronize(s[1]));
      }
      if (sync) CK(hipStreamSynchronize(s[i % 2]));
    }
    CK(hipDeviceSynchronize());
    printf("elapsed_ns %llu\n", now_ns() - t0);
    CK(hipEventDestroy(ev));
    CK(hipFree(buf));
    for (auto &st : s) CK(hipStreamDestroy(st));
  }
  return 0;
}
