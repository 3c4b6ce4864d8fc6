// tp_hip_mix: one trace with every kind of GPU op on two GPUs with two
// streams each, for the test that every rtg-convert output gives the same
// busy, copy busy and idle time (tests/e2e/159-time-model-agrees.sh).
// Per GPU, 4 times: a kernel on stream 1, an event recorded after it,
// stream 2 waiting on that event (a barrier packet with a dependency) and
// a kernel on stream 2, a 1 MiB host-to-device copy from pinned memory on
// stream 1, then a 2 ms sleep; at the end every stream is synchronised.
// Needs SIMGPU_GPUS=2.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../../examples/hip_check.h"

__global__ void mixwork(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * 2.0f + 1.0f;
}

int main() {
  const int loops = 4, n = 1 << 16;
  const size_t copy_bytes = (size_t)1 << 20;
  int ndev = 0;
  CK(hipGetDeviceCount(&ndev));
  if (ndev < 2) {
    fprintf(stderr, "tp_hip_mix: needs two GPUs (SIMGPU_GPUS=2)\n");
    return 2;
  }
  hipStream_t s[2][2];
  hipEvent_t ev[2];
  float *a[2], *dst[2], *pinned;
  CK(hipHostMalloc((void **)&pinned, copy_bytes, 0));
  memset(pinned, 1, copy_bytes);
  for (int d = 0; d < 2; d++) {
    CK(hipSetDevice(d));
    CK(hipStreamCreate(&s[d][0]));
    CK(hipStreamCreate(&s[d][1]));
    CK(hipEventCreateWithFlags(&ev[d], hipEventDisableTiming));
    CK(hipMalloc(&a[d], n * sizeof(float)));
    CK(hipMalloc(&dst[d], copy_bytes));
  }
  for (int i = 0; i < loops; i++) {
    for (int d = 0; d < 2; d++) {
      CK(hipSetDevice(d));
      hipLaunchKernelGGL(mixwork, dim3(n / 256), dim3(256), 0, s[d][0], a[d], n);
      CK(hipGetLastError());
      CK(hipEventRecord(ev[d], s[d][0]));
      CK(hipStreamWaitEvent(s[d][1], ev[d], 0));
      hipLaunchKernelGGL(mixwork, dim3(n / 256), dim3(256), 0, s[d][1], a[d], n);
      CK(hipGetLastError());
      CK(hipMemcpyAsync(dst[d], pinned, copy_bytes, hipMemcpyHostToDevice, s[d][0]));
    }
    struct timespec ts = {0, 2000000};
    while (nanosleep(&ts, &ts)) {
    }
  }
  for (int d = 0; d < 2; d++) {
    CK(hipSetDevice(d));
    CK(hipStreamSynchronize(s[d][0]));
    CK(hipStreamSynchronize(s[d][1]));
  }
  printf("tp_hip_mix: %d loops on 2 GPUs\n", loops);
  return 0;
}
