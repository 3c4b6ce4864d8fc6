// tp_hip_idle: one known cause of GPU idle time, injected and timed by the
// program itself, for rtg-convert --analyze's ground-truth test
// (tests/e2e/156-analyze-causes.sh).
// Five times: the injected part, then a kernel on GPU0.
//   tp_hip_idle cpu     20 ms in no HIP call (a sleep: the host
//                       application's own time)
//   tp_hip_idle sync    a long kernel on GPU1, then hipDeviceSynchronize on
//                       GPU1: GPU0 is idle while the thread that feeds it is
//                       blocked in the sync (needs SIMGPU_GPUS=2 and
//                       SIMGPU_KERNEL_TIMES=longwork=NS)
//   tp_hip_idle malloc  hipDeviceSynchronize, then 64 x hipMalloc of 256 MiB
//                       and 64 x hipFree
// Each mode prints the time it injected, measured with CLOCK_BOOTTIME around
// the injected part only: "injected <cause> <ns> ns in <n> parts".
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../examples/hip_check.h"

__global__ void work(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * 2.0f + 1.0f;
}

__global__ void longwork(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] + 1.0f;
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// The application's own time in no runtime call: a sleep (not a busy loop:
// on a loaded host that would take the core the simulated GPU's queue
// needs to start the kernel before it).
static void host_work(uint64_t ns) {
  struct timespec ts = {(time_t)(ns / 1000000000u), (long)(ns % 1000000000u)};
  while (nanosleep(&ts, &ts)) {
  }
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "cpu";
  const int loops = 5, n = 1 << 16;
  const uint64_t work_ns = 20000000; /* 20 ms */
  float *a, *b = NULL;
  bool sync = !strcmp(mode, "sync");
  if (sync) {
    CK(hipSetDevice(1));
    CK(hipMalloc(&b, n * sizeof(float)));
    CK(hipMemset(b, 0, n * sizeof(float)));
    CK(hipDeviceSynchronize());
    CK(hipSetDevice(0));
  }
  CK(hipMalloc(&a, n * sizeof(float)));
  CK(hipMemset(a, 0, n * sizeof(float)));
  CK(hipDeviceSynchronize());
  uint64_t injected = 0;
  const char *cause = "host_outside_api";
  // Each time: the injected part, then a kernel on GPU0, so that every
  // injected part lies between two of GPU0's ops.
  for (int i = 0; i < loops; i++) {
    if (!strcmp(mode, "cpu")) {
      uint64_t t0 = now_ns();
      host_work(work_ns);
      injected += now_ns() - t0;
    } else if (sync) {
      cause = "host_sync";
      CK(hipSetDevice(1));
      hipLaunchKernelGGL(longwork, dim3(n / 256), dim3(256), 0, 0, b, n);
      CK(hipGetLastError());
      uint64_t t0 = now_ns();
      CK(hipDeviceSynchronize());
      injected += now_ns() - t0;
      CK(hipSetDevice(0));
    } else if (!strcmp(mode, "malloc")) {
      cause = "host_api";
      CK(hipDeviceSynchronize());
      void *big[64];
      uint64_t t0 = now_ns();
      for (int j = 0; j < 64; j++) CK(hipMalloc(&big[j], (size_t)256 << 20));
      for (int j = 0; j < 64; j++) CK(hipFree(big[j]));
      injected += now_ns() - t0;
    } else {
      fprintf(stderr, "usage: tp_hip_idle cpu|sync|malloc\n");
      return 2;
    }
    hipLaunchKernelGGL(work, dim3(n / 256), dim3(256), 0, 0, a, n);
    CK(hipGetLastError());
  }
  CK(hipDeviceSynchronize());
  CK(hipFree(a));
  if (b) CK(hipFree(b));
  printf("injected %s %llu ns in %d parts\n", cause, (unsigned long long)injected, loops);
  return 0;
}
