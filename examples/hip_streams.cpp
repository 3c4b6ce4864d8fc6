// hip_streams [-s STREAMS] [-n ITERATIONS]: HIP work on several streams, as a
// tracer sees it: per stream and iteration, 2 async H2D copies, a vadd
// kernel, a D2D copy, a hipMemsetAsync, a scale kernel, a D2H copy, and
// events around the kernels (hipEventElapsedTime). Results are verified.
// On the simulated GPU (tests/simgpu) kernels do not run, so a dispatch hook
// found with dlsym does their work on the CPU. Only deterministic counts go
// to stdout; timings go to stderr.
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hip_check.h"

__global__ void vadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void scale(float *x, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

// CPU versions for the simulated GPU; kernel arguments as laid out by hipcc.
static int64_t emulate(const hsa_kernel_dispatch_packet_t *pkt, const char *name, void *) {
  if (!name) return -1;
  char *k = (char *)pkt->kernarg_address;
  if (strstr(name, "vadd")) {
    const float *a = *(const float **)k, *b = *(const float **)(k + 8);
    float *c = *(float **)(k + 16);
    int n = *(int *)(k + 24);
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
  } else if (strstr(name, "scale")) {
    float *x = *(float **)k, f = *(float *)(k + 8);
    int n = *(int *)(k + 12);
    for (int i = 0; i < n; i++) x[i] *= f;
  }
  return -1;
}

int main(int argc, char **argv) {
  int nstreams = 3, iterations = 2, opt;
  while ((opt = getopt(argc, argv, "s:n:")) != -1) {
    if (opt == 's' && atoi(optarg) > 0 && atoi(optarg) <= 16)
      nstreams = atoi(optarg);
    else if (opt == 'n' && atoi(optarg) > 0)
      iterations = atoi(optarg);
    else {
      fprintf(stderr, "usage: hip_streams [-s STREAMS(1-16)] [-n ITERATIONS]\n");
      return 2;
    }
  }
  typedef int64_t (*hook_t)(const hsa_kernel_dispatch_packet_t *, const char *, void *);
  typedef void (*set_hook_t)(hook_t, void *);
  set_hook_t set_hook = (set_hook_t)dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
  int ndev = 0;
  CK(hipGetDeviceCount(&ndev)); // initialises HIP, so libhsakmt is loaded
  if (!set_hook) set_hook = (set_hook_t)dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
  if (set_hook) set_hook(emulate, NULL);

  const int N = 1 << 14;
  const size_t bytes = N * sizeof(float);
  float *h_in, *h_out;
  CK(hipHostMalloc(&h_in, bytes));
  CK(hipHostMalloc(&h_out, bytes * nstreams));
  for (int i = 0; i < N; i++) h_in[i] = (float)i;
  hipStream_t s[16];
  hipEvent_t ev[16][2];
  float *a[16], *b[16], *c[16], *d[16];
  for (int i = 0; i < nstreams; i++) {
    CK(hipStreamCreate(&s[i]));
    CK(hipEventCreate(&ev[i][0]));
    CK(hipEventCreate(&ev[i][1]));
    CK(hipMalloc(&a[i], bytes));
    CK(hipMalloc(&b[i], bytes));
    CK(hipMalloc(&c[i], bytes));
    CK(hipMalloc(&d[i], bytes));
  }
  int kernels = 0, copies = 0, memsets = 0, events = 0, bad = 0;
  for (int it = 0; it < iterations; it++) {
    for (int i = 0; i < nstreams; i++) {
      CK(hipMemcpyAsync(a[i], h_in, bytes, hipMemcpyHostToDevice, s[i]));
      CK(hipMemcpyAsync(b[i], h_in, bytes, hipMemcpyHostToDevice, s[i]));
      CK(hipEventRecord(ev[i][0], s[i]));
      hipLaunchKernelGGL(vadd, dim3(N / 256), dim3(256), 0, s[i], a[i], b[i], c[i], N);
      hipLaunchKernelGGL(scale, dim3(N / 256), dim3(256), 0, s[i], c[i], (float)(i + 1), N);
      CK(hipEventRecord(ev[i][1], s[i]));
      CK(hipMemsetAsync(d[i], 0, bytes, s[i]));
      CK(hipMemcpyAsync(d[i], c[i], bytes, hipMemcpyDeviceToDevice, s[i]));
      CK(hipMemcpyAsync(h_out + i * N, d[i], bytes, hipMemcpyDeviceToHost, s[i]));
      kernels += 2, copies += 4, memsets += 1, events += 2;
    }
    for (int i = 0; i < nstreams; i++) {
      CK(hipStreamSynchronize(s[i]));
      float ms = 0;
      CK(hipEventElapsedTime(&ms, ev[i][0], ev[i][1]));
      fprintf(stderr, "hip_streams: iteration %d stream %d kernels took %.3f us\n", it, i,
              ms * 1000.0f);
      bad += !(ms > 0.0f);
      for (int k = 0; k < N; k++) bad += h_out[i * N + k] != 2.0f * (float)k * (float)(i + 1);
    }
  }
  CK(hipDeviceSynchronize());
  for (int i = 0; i < nstreams; i++) {
    CK(hipFree(a[i]));
    CK(hipFree(b[i]));
    CK(hipFree(c[i]));
    CK(hipFree(d[i]));
    CK(hipEventDestroy(ev[i][0]));
    CK(hipEventDestroy(ev[i][1]));
    CK(hipStreamDestroy(s[i]));
  }
  CK(hipHostFree(h_in));
  CK(hipHostFree(h_out));
  printf("hip_streams: %d streams x %d iterations: %d kernels, %d copies, %d memsets, %d events\n",
         nstreams, iterations, kernels, copies, memsets, events);
  printf("hip_streams: result %s\n", bad ? "WRONG" : "ok");
  return bad ? 1 : 0;
}
