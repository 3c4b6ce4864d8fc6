// sg_hip: the real HIP 5.2 runtime on simgpu. hipMalloc, hipMemcpy in all
// directions, hipMemset/hipMemsetAsync (ROCclr fill kernels, emulated by
// simgpu), kernel launches on two streams, and events: the elapsed time
// around one kernel must be SIMGPU_KERNEL_NS. A dispatch hook (dlsym) does
// vadd's work on the CPU so the result can be checked too.
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../examples/hip_check.h"
#include "../simgpu.h"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

// Keeps its stream busy so the packets behind it queue up.
__global__ void busy() {}

// Kernel arguments of vadd: a, b, c, n. busy takes 30 ms.
static int64_t vadd_on_cpu(const hsa_kernel_dispatch_packet_t *pkt, const char *name, void *) {
  if (name && strstr(name, "busy")) return 30000000;
  if (!name || !strstr(name, "vadd")) return -1;
  char *k = (char *)pkt->kernarg_address;
  const float *a = *(const float **)k, *b = *(const float **)(k + 8);
  float *c = *(float **)(k + 16);
  int n = *(int *)(k + 24);
  for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
  return -1; // keep the configured duration
}

static int check(const float *h, int n, float (*want)(int)) {
  for (int i = 0; i < n; i++)
    if (h[i] != want(i)) return 0;
  return 1;
}
static float sum_of(int i) {
  return 3.0f * i;
}
static float ones(int) {
  float f;
  memset(&f, 0x3f, sizeof f);
  return f;
}
static float zero(int) {
  return 0.0f;
}
static float ident(int i) {
  return (float)i;
}

int main() {
  typedef void (*set_hook_t)(simgpu_dispatch_hook_t, void *);
  set_hook_t set_hook = (set_hook_t)dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
  int ndev = 0;
  CK(hipGetDeviceCount(&ndev));
  printf("devices=%d\n", ndev);
  if (set_hook) set_hook(vadd_on_cpu, NULL);
  hipDeviceProp_t p;
  CK(hipGetDeviceProperties(&p, 0));
  printf("device0: %s\n", p.gcnArchName);

  const int N = 1 << 16;
  const size_t bytes = N * sizeof(float);
  float *h = (float *)malloc(bytes), *a, *b, *c, *d;
  for (int i = 0; i < N; i++) h[i] = (float)i;
  CK(hipMalloc(&a, bytes));
  CK(hipMalloc(&b, bytes));
  CK(hipMalloc(&c, bytes));
  CK(hipMalloc(&d, bytes));
  CK(hipMemcpy(a, h, bytes, hipMemcpyHostToDevice));
  CK(hipMemcpy(b, a, bytes, hipMemcpyDeviceToDevice));
  CK(hipMemcpy(b, b, 0, hipMemcpyDeviceToDevice));
  for (int i = 0; i < N; i++) h[i] = (float)i * 2.0f;
  CK(hipMemcpy(b, h, bytes, hipMemcpyHostToDevice));
  memset(h, 0, bytes);
  CK(hipMemcpy(h, a, bytes, hipMemcpyDeviceToHost));
  printf("H2D+D2H round trip: %s\n", check(h, N, ident) ? "ok" : "WRONG");

  CK(hipMemcpy(d, a, bytes, hipMemcpyDeviceToDevice));
  CK(hipMemcpy(h, d, bytes, hipMemcpyDeviceToHost));
  printf("D2D copy: %s\n", check(h, N, ident) ? "ok" : "WRONG");

  CK(hipMemset(c, 0x3f, bytes));
  CK(hipMemcpy(h, c, bytes, hipMemcpyDeviceToHost));
  printf("hipMemset: %s\n", check(h, N, ones) ? "ok" : "WRONG");
  CK(hipMemset(c, 0, bytes));
  CK(hipMemset((char *)c + 1, 0x3f, 1000)); // unaligned head and tail
  CK(hipMemcpy(h, c, bytes, hipMemcpyDeviceToHost));
  int ok = ((unsigned char *)h)[0] == 0 && ((unsigned char *)h)[1001] == 0;
  for (int i = 1; i <= 1000; i++) ok &= ((unsigned char *)h)[i] == 0x3f;
  printf("hipMemset unaligned: %s\n", ok ? "ok" : "WRONG");
  hipStream_t s[2];
  CK(hipStreamCreate(&s[0]));
  CK(hipStreamCreate(&s[1]));
  CK(hipMemsetAsync(d, 0, bytes, s[1]));
  CK(hipStreamSynchronize(s[1]));
  CK(hipMemcpy(h, d, bytes, hipMemcpyDeviceToHost));
  printf("hipMemsetAsync: %s\n", check(h, N, zero) ? "ok" : "WRONG");

  // Warm up: the first launch loads the code object (ROCR blit kernels).
  hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, s[0], a, b, c, N);
  CK(hipStreamSynchronize(s[0]));
  hipEvent_t e0, e1;
  CK(hipEventCreate(&e0));
  CK(hipEventCreate(&e1));
  // With a busy kernel in front, e0, vadd and e1 are all queued when the GPU
  // reaches them, so the elapsed time is the kernel's alone, not the host's
  // launch latency.
  hipLaunchKernelGGL(busy, dim3(1), dim3(64), 0, s[0]);
  CK(hipEventRecord(e0, s[0]));
  hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, s[0], a, b, c, N);
  CK(hipGetLastError());
  CK(hipEventRecord(e1, s[0]));
  hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, s[1], a, b, d, N);
  CK(hipEventSynchronize(e1));
  float ms = 0;
  CK(hipEventElapsedTime(&ms, e0, e1));
  long long want_ns = getenv("SIMGPU_KERNEL_NS") ? atoll(getenv("SIMGPU_KERNEL_NS")) : 20000;
  long long got_ns = (long long)(ms * 1e6 + 0.5);
  fprintf(stderr, "sg_hip: elapsed %lld ns\n", got_ns);
  printf("hipEventElapsedTime of one kernel == SIMGPU_KERNEL_NS: %s\n",
         llabs(got_ns - want_ns) <= 1000 ? "yes" : "no");
  CK(hipDeviceSynchronize());
  CK(hipMemcpy(h, c, bytes, hipMemcpyDeviceToHost));
  printf("vadd stream 0 (via dispatch hook): %s\n", check(h, N, sum_of) ? "ok" : "WRONG");
  CK(hipMemcpy(h, d, bytes, hipMemcpyDeviceToHost));
  printf("vadd stream 1 (via dispatch hook): %s\n", check(h, N, sum_of) ? "ok" : "WRONG");

  CK(hipEventDestroy(e0));
  CK(hipEventDestroy(e1));
  CK(hipStreamDestroy(s[0]));
  CK(hipStreamDestroy(s[1]));
  CK(hipFree(a));
  CK(hipFree(b));
  CK(hipFree(c));
  CK(hipFree(d));
  free(h);
  printf("HIP ok\n");
  return 0;
}
