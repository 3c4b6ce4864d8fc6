// tp_hip_kres: kernels of known, different resource use, for the test that
// every kernel's VGPRs, AGPRs, SGPRs, LDS and scratch in rtg's outputs are
// what the code object's metadata say (tests/e2e/081-tracer-kernel-resources.sh):
//   kres_light   a few registers
//   kres_heavy   a 64-value accumulator kept in registers (high VGPR use)
//   kres_lds     4 KiB of static LDS (__shared__)
//   kres_bounded the heavy loop under __launch_bounds__(256, 8) (8 waves
//                per SIMD): the compiler must fit it in fewer VGPRs
//   kres_agpr    writes accumulation registers a0..a7 (AGPRs, gfx908+)
//   kres_scratch a private array indexed at run time (scratch)
// Each is launched twice on one stream.
#include <hip/hip_runtime.h>
#include <stdio.h>

#include "../../examples/hip_check.h"

__global__ void kres_light(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += 1.0f;
}

#define HEAVY_BODY                                                                                 \
  int i = blockIdx.x * blockDim.x + threadIdx.x;                                                   \
  float acc[64];                                                                                   \
  _Pragma("unroll") for (int k = 0; k < 64; k++) acc[k] = a[(i + k * 7) % n];                      \
  for (int r = 0; r < iters; r++) {                                                                \
    _Pragma("unroll") for (int k = 0; k < 64; k++) acc[k] = acc[k] * acc[(k + 1) & 63] + 0.5f;     \
  }                                                                                                \
  float s = 0;                                                                                     \
  _Pragma("unroll") for (int k = 0; k < 64; k++) s += acc[k] * (float)(k + 1);                     \
  if (i < n) a[i] = s;

__global__ void kres_heavy(float *a, int n, int iters){HEAVY_BODY}

__global__ void __launch_bounds__(256, 8) kres_bounded(float *a, int n, int iters){HEAVY_BODY}

__global__ void kres_agpr(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("v_accvgpr_write_b32 a7, 0" ::: "a7");
  if (i < n) a[i] -= 1.0f;
}

__global__ void kres_lds(float *a, int n) {
  __shared__ float tile[1024];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? a[i] : 0.0f;
  __syncthreads();
  if (i < n) a[i] = tile[(t + 1) % blockDim.x];
}

__global__ void kres_scratch(float *a, int n, int k) {
  float priv[96];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int j = 0; j < 96; j++) priv[j] = a[(i + j) % n] * (float)j;
  if (i < n) a[i] = priv[(k + i) % 96];
}

int main() {
  const int n = 1 << 12;
  float *a;
  CK(hipMalloc(&a, n * sizeof(float)));
  CK(hipMemset(a, 0, n * sizeof(float)));
  for (int r = 0; r < 2; r++) {
    hipLaunchKernelGGL(kres_light, dim3(n / 256), dim3(256), 0, 0, a, n);
    hipLaunchKernelGGL(kres_heavy, dim3(n / 256), dim3(256), 0, 0, a, n, 3);
    hipLaunchKernelGGL(kres_bounded, dim3(n / 256), dim3(256), 0, 0, a, n, 3);
    hipLaunchKernelGGL(kres_agpr, dim3(n / 256), dim3(256), 0, 0, a, n);
    hipLaunchKernelGGL(kres_lds, dim3(n / 1024), dim3(1024), 0, 0, a, n);
    hipLaunchKernelGGL(kres_scratch, dim3(n / 256), dim3(256), 0, 0, a, n, r);
    CK(hipGetLastError());
  }
  CK(hipDeviceSynchronize());
  CK(hipFree(a));
  printf("tp_hip_kres: done\n");
  return 0;
}
