// hip_roctx: a HIP program annotated with ROCTx, as users write them
// (linked with -lroctx64): a marker, nested push/pop ranges and a
// start/stop range around copies and two kernels, on one stream.  Results
// are verified.  On the simulated GPU (tests/simgpu) the kernels do not run:
// a dispatch hook found with dlsym does their work on the CPU.
// Built only where ROCTx is installed (libroctx-dev: Debian 13 and later).
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>
#include <roctracer/roctx.h>
#include <stdio.h>
#include <string.h>

#include "hip_check.h"

__global__ void fill(float *x, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = v + (float)i;
}

__global__ void twice(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

// CPU versions for the simulated GPU; kernel arguments as laid out by hipcc.
static int64_t emulate(const hsa_kernel_dispatch_packet_t *pkt, const char *name, void *) {
  if (!name) return -1;
  char *k = (char *)pkt->kernarg_address;
  if (strstr(name, "fill")) {
    float *x = *(float **)k, v = *(float *)(k + 8);
    int n = *(int *)(k + 12);
    for (int i = 0; i < n; i++) x[i] = v + (float)i;
  } else if (strstr(name, "twice")) {
    float *x = *(float **)k;
    int n = *(int *)(k + 8);
    for (int i = 0; i < n; i++) x[i] *= 2.0f;
  }
  return -1;
}

int main() {
  typedef int64_t (*hook_t)(const hsa_kernel_dispatch_packet_t *, const char *, void *);
  typedef void (*set_hook_t)(hook_t, void *);
  int ndev = 0;
  CK(hipGetDeviceCount(&ndev)); // initialises HIP, so the simulated GPU is loaded
  set_hook_t set_hook = (set_hook_t)dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
  if (set_hook) set_hook(emulate, NULL);

  const int N = 1 << 12;
  const size_t bytes = N * sizeof(float);
  static float host[1 << 12];
  float *dev;
  hipStream_t s;
  roctxMarkA("setup");
  CK(hipStreamCreate(&s));
  CK(hipMalloc(&dev, bytes));
  roctxRangePushA("step");
  roctxRangePushA("fill");
  hipLaunchKernelGGL(fill, dim3(N / 256), dim3(256), 0, s, dev, 1.0f, N);
  CK(hipStreamSynchronize(s));
  roctxRangePop();
  roctx_range_id_t id = roctxRangeStartA("twice_and_copy");
  hipLaunchKernelGGL(twice, dim3(N / 256), dim3(256), 0, s, dev, N);
  CK(hipMemcpyAsync(host, dev, bytes, hipMemcpyDeviceToHost, s));
  CK(hipStreamSynchronize(s));
  roctxRangeStop(id);
  roctxRangePop();
  int bad = 0;
  for (int i = 0; i < N; i++) bad += host[i] != 2.0f * (1.0f + (float)i);
  CK(hipFree(dev));
  CK(hipStreamDestroy(s));
  printf("hip_roctx: result %s\n", bad ? "WRONG" : "ok");
  return bad ? 1 : 0;
}
