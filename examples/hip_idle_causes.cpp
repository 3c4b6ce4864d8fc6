// hip_idle_causes [MODE]: a HIP program with one known cause of GPU idle
// time, injected and timed by the program itself, to see what rtg-convert
// --analyze makes of it. Trace a mode and read the verdict:
//   build/rtg-trace --analyze -- build/examples/hip_idle_causes cpu
// Five times: the injected part, then a kernel on GPU0. MODE (default cpu),
// what it injects, and the cause or rule --analyze names:
//   cpu       20 ms in no HIP call (a sleep, the application's own time):
//             host_outside_api
//   sync      a long kernel on GPU1, then hipDeviceSynchronize on GPU1:
//             GPU0 idles while the thread that feeds it is blocked in the
//             sync: host_sync in hipDeviceSynchronize (needs two GPUs)
//   malloc    hipDeviceSynchronize, then 4 x (64 x hipMalloc of 256 MiB and
//             64 x hipFree): host_api in hipMalloc and hipFree, and the rule
//             alloc_in_loop
//   copy      a 64 MiB hipMemcpyAsync from pinned memory and its
//             hipStreamSynchronize: GPU0 runs a copy and no kernel:
//             copy_only. The time is the copy's, between two events; the
//             loop starts after a warm-up copy (analyse with --start at the
//             "loop from T ns" line, T in microseconds)
//   chain     a long kernel on stream 1, an event, and stream 2 waiting on
//             it before its kernel: dependency on stream 2's queue, on the
//             long kernel; the time is from the end of the wait's call to
//             the end of stream 2's synchronisation
//   syncloop  hipDeviceSynchronize after each launch: the rule
//             sync_after_launch, with the synchronisations' time
//   tiny      500 launches of a short kernel: the rule launch_bound (where
//             each kernel is shorter than its launch); the time is the
//             loop's
//   pageable  the copy mode's copy from malloc'd (pageable) memory: the rule
//             pageable_copy, with the hipMemcpyAsync calls' time (needs the
//             HIP calls' arguments traced: rtg-trace --args)
// Prints "injected <cause> <ns> ns in <n> parts" (CLOCK_BOOTTIME around the
// injected part only) and "loop from <ns> ns" (when the loop starts, in the
// trace's clock).
// On the simulated GPU (tests/simgpu) kernels and copies take the time its
// variables give: sync needs SIMGPU_GPUS=2 and SIMGPU_KERNEL_TIMES=
// longwork=NS, chain SIMGPU_KERNEL_TIMES=longwork=NS, tiny
// SIMGPU_KERNEL_TIMES=work=NS, copy and pageable SIMGPU_SDMA_MBPS (so that
// copies take time). tests/e2e/156-analyze-causes.sh checks that each
// injected time lands in its cause or rule.
#include <hip/hip_runtime.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hip_check.h"

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
  bool sync = !strcmp(mode, "sync"), chain = !strcmp(mode, "chain"),
       pageable = !strcmp(mode, "pageable"), copy = pageable || !strcmp(mode, "copy");
  hipStream_t s1 = 0, s2 = 0;
  hipEvent_t ev = 0;
  float *pinned = NULL, *dbuf = NULL;
  const size_t copy_bytes = (size_t)64 << 20;
  uint64_t warmup = 0;
  if (chain) {
    CK(hipStreamCreate(&s1));
    CK(hipStreamCreate(&s2));
    CK(hipEventCreateWithFlags(&ev, hipEventDisableTiming));
  }
  if (copy) {
    if (pageable)
      pinned = (float *)malloc(copy_bytes); // not pinned, in spite of the name
    else
      CK(hipHostMalloc((void **)&pinned, copy_bytes, 0));
    if (!pinned) return 1;
    memset(pinned, 1, copy_bytes);
    CK(hipMalloc(&dbuf, copy_bytes));
    // the first copy sets up the runtime's copy path (HIP 7.2: the copy
    // waits 30 ms, then takes twice as long): copy mode warms it with the
    // whole buffer and prints when its loop starts (the test's --start);
    // pageable mode with 4 KiB, a call from pageable memory like the
    // others, timed with them
    uint64_t t0 = now_ns();
    CK(hipMemcpyAsync(dbuf, pinned, pageable ? 4096 : copy_bytes, hipMemcpyHostToDevice, 0));
    if (pageable) warmup = now_ns() - t0;
    CK(hipStreamSynchronize(0));
  }
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
  uint64_t injected = warmup, loop_start = now_ns();
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
      // the time inside the calls (between two of them the thread is in
      // no call: on a busy host that gap can be long)
      void *big[64];
      for (int r = 0; r < 4; r++) {
        for (int j = 0; j < 64; j++) {
          uint64_t t0 = now_ns();
          CK(hipMalloc(&big[j], (size_t)256 << 20));
          injected += now_ns() - t0;
        }
        for (int j = 0; j < 64; j++) {
          uint64_t t0 = now_ns();
          CK(hipFree(big[j]));
          injected += now_ns() - t0;
        }
      }
    } else if (pageable) {
      cause = "pageable_copy";
      uint64_t t0 = now_ns();
      CK(hipMemcpyAsync(dbuf, pinned, copy_bytes, hipMemcpyHostToDevice, 0));
      injected += now_ns() - t0;
      CK(hipStreamSynchronize(0));
    } else if (copy) {
      // timed on the GPU, by events around the copy: the host's view of it
      // would add the call, the wake-up and, on a loaded host, the time
      // the copy engine waited for a core
      cause = "copy_only";
      hipEvent_t e0, e1;
      CK(hipEventCreate(&e0));
      CK(hipEventCreate(&e1));
      CK(hipEventRecord(e0, 0));
      CK(hipMemcpyAsync(dbuf, pinned, copy_bytes, hipMemcpyHostToDevice, 0));
      CK(hipEventRecord(e1, 0));
      CK(hipStreamSynchronize(0));
      float ms = 0;
      CK(hipEventElapsedTime(&ms, e0, e1));
      injected += (uint64_t)((double)ms * 1e6);
      CK(hipEventDestroy(e0));
      CK(hipEventDestroy(e1));
    } else if (chain) {
      cause = "dependency";
      hipLaunchKernelGGL(longwork, dim3(n / 256), dim3(256), 0, s1, a, n);
      CK(hipGetLastError());
      CK(hipEventRecord(ev, s1));
      CK(hipStreamWaitEvent(s2, ev, 0));
      uint64_t t0 = now_ns();
      hipLaunchKernelGGL(work, dim3(n / 256), dim3(256), 0, s2, a, n);
      CK(hipGetLastError());
      CK(hipStreamSynchronize(s2));
      injected += now_ns() - t0;
      continue;
    } else if (!strcmp(mode, "syncloop")) {
      cause = "sync_after_launch";
      hipLaunchKernelGGL(work, dim3(n / 256), dim3(256), 0, 0, a, n);
      CK(hipGetLastError());
      uint64_t t0 = now_ns();
      CK(hipDeviceSynchronize());
      injected += now_ns() - t0;
      continue;
    } else if (!strcmp(mode, "tiny")) {
      cause = "launch_bound";
      uint64_t t0 = now_ns();
      for (int j = 0; j < 100; j++) {
        hipLaunchKernelGGL(work, dim3(n / 256), dim3(256), 0, 0, a, n);
        CK(hipGetLastError());
      }
      injected += now_ns() - t0;
      continue;
    } else {
      fprintf(stderr, "usage: hip_idle_causes cpu|sync|malloc|copy|chain|syncloop|tiny|pageable\n");
      return 2;
    }
    hipLaunchKernelGGL(work, dim3(n / 256), dim3(256), 0, 0, a, n);
    CK(hipGetLastError());
  }
  CK(hipDeviceSynchronize());
  CK(hipFree(a));
  if (b) CK(hipFree(b));
  if (chain) {
    CK(hipEventDestroy(ev));
    CK(hipStreamDestroy(s1));
    CK(hipStreamDestroy(s2));
  }
  if (pageable)
    free(pinned);
  else if (copy)
    CK(hipHostFree(pinned));
  if (copy) {
    CK(hipFree(dbuf));
  }
  printf("injected %s %llu ns in %d parts\n", cause, (unsigned long long)injected,
         loops + (warmup ? 1 : 0));
  printf("loop from %llu ns\n", (unsigned long long)loop_start);
  return 0;
}
