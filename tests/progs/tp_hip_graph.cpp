// tp_hip_graph: HIP graphs whose GPU ops a tracer must tie to their launch.
//   tp_hip_graph build N     a graph built node by node: three kernels in a
//                            chain (gk_a, gk_b, gk_c), then a device-to-
//                            device copy node; instantiated once and
//                            launched N times on one stream
//   tp_hip_graph capture N   the same work captured from a stream
//                            (hipStreamBeginCapture..EndCapture), launched
//                            N times
// Prints "ok MODE N" and exits 0.  On the simulated GPU the kernels do not
// run (only their dispatches are timed), so results are not checked.
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../examples/hip_check.h"

__global__ void gk_a(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = (float)i;
}

__global__ void gk_b(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.0f;
}

__global__ void gk_c(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1.0f;
}

static const int N = 4096;

static hipGraph_t built(float *x, float *y) {
  hipGraph_t g;
  CK(hipGraphCreate(&g, 0));
  int n = N;
  void *args[] = {&x, &n};
  hipKernelNodeParams p;
  memset(&p, 0, sizeof p);
  p.gridDim = dim3(N / 256);
  p.blockDim = dim3(256);
  p.kernelParams = args;
  hipGraphNode_t a, b, c, copy;
  p.func = (void *)gk_a;
  CK(hipGraphAddKernelNode(&a, g, nullptr, 0, &p));
  p.func = (void *)gk_b;
  CK(hipGraphAddKernelNode(&b, g, &a, 1, &p));
  p.func = (void *)gk_c;
  CK(hipGraphAddKernelNode(&c, g, &b, 1, &p));
  CK(hipGraphAddMemcpyNode1D(&copy, g, &c, 1, y, x, N * sizeof(float), hipMemcpyDeviceToDevice));
  return g;
}

static hipGraph_t captured(hipStream_t s, float *x, float *y) {
  hipGraph_t g;
  CK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
  gk_a<<<N / 256, 256, 0, s>>>(x, N);
  gk_b<<<N / 256, 256, 0, s>>>(x, N);
  gk_c<<<N / 256, 256, 0, s>>>(x, N);
  CK(hipMemcpyAsync(y, x, N * sizeof(float), hipMemcpyDeviceToDevice, s));
  CK(hipStreamEndCapture(s, &g));
  return g;
}

int main(int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "build") && strcmp(argv[1], "capture"))) {
    fprintf(stderr, "usage: tp_hip_graph build|capture N\n");
    return 2;
  }
  int launches = atoi(argv[2]);
  float *x, *y;
  CK(hipMalloc(&x, N * sizeof(float)));
  CK(hipMalloc(&y, N * sizeof(float)));
  hipStream_t s;
  CK(hipStreamCreate(&s));
  hipGraph_t g = !strcmp(argv[1], "build") ? built(x, y) : captured(s, x, y);
  hipGraphExec_t exec;
  CK(hipGraphInstantiate(&exec, g, nullptr, nullptr, 0));
  for (int i = 0; i < launches; i++) CK(hipGraphLaunch(exec, s));
  CK(hipStreamSynchronize(s));
  CK(hipGraphExecDestroy(exec));
  CK(hipGraphDestroy(g));
  CK(hipStreamDestroy(s));
  CK(hipFree(x));
  CK(hipFree(y));
  printf("ok %s %d\n", argv[1], launches);
  return 0;
}
