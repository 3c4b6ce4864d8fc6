// A HIP program with a known sequence of calls, for the end-to-end tests of
// HIP API tracing on simgpu:
//   hip_calls            one thread, two streams, 8 kernels, copies, events
//   hip_calls threads N  N threads, each with its own stream and 4 kernels
//   hip_calls fork       HIP calls, a forked child that exits, more calls
#include <hip/hip_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

__global__ void scale(float *x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
__global__ void offset(float *x, int n, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += b;
}

#define CK(x)                                                                                      \
  do {                                                                                             \
    hipError_t e_ = (x);                                                                           \
    if (e_ != hipSuccess) {                                                                        \
      fprintf(stderr, "FAIL %s: %s\n", #x, hipGetErrorString(e_));                                 \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static const int N = 4096;

static int basic() {
  hipStream_t s[2];
  float *d, *h = (float *)calloc(N, sizeof(float));
  CK(hipSetDevice(0));
  CK(hipStreamCreate(&s[0]));
  CK(hipStreamCreateWithFlags(&s[1], hipStreamNonBlocking));
  CK(hipMalloc(&d, N * sizeof(float)));
  CK(hipMemcpy(d, h, N * sizeof(float), hipMemcpyHostToDevice));
  CK(hipMemsetAsync(d, 0, N * sizeof(float), s[0]));
  hipEvent_t e0, e1;
  CK(hipEventCreate(&e0));
  CK(hipEventCreate(&e1));
  CK(hipEventRecord(e0, s[0]));
  for (int i = 0; i < 8; i++) {
    if (i % 2)
      hipLaunchKernelGGL(offset, dim3(N / 256), dim3(256), 0, s[i % 2], d, N, 1.0f);
    else
      hipLaunchKernelGGL(scale, dim3(N / 256), dim3(256), 0, s[i % 2], d, N, 2.0f);
  }
  CK(hipEventRecord(e1, s[0]));
  CK(hipMemcpyAsync(h, d, N * sizeof(float), hipMemcpyDeviceToHost, s[1]));
  CK(hipStreamSynchronize(s[0]));
  CK(hipStreamSynchronize(s[1]));
  CK(hipEventSynchronize(e1));
  float ms;
  CK(hipEventElapsedTime(&ms, e0, e1));
  CK(hipDeviceSynchronize());
  CK(hipEventDestroy(e0));
  CK(hipEventDestroy(e1));
  CK(hipFree(d));
  CK(hipStreamDestroy(s[0]));
  CK(hipStreamDestroy(s[1]));
  free(h);
  return 0;
}

static void *worker(void *) {
  hipStream_t s;
  float *d;
  CK(hipStreamCreate(&s));
  CK(hipMalloc(&d, N * sizeof(float)));
  for (int i = 0; i < 4; i++) hipLaunchKernelGGL(scale, dim3(N / 256), dim3(256), 0, s, d, N, 1.5f);
  CK(hipStreamSynchronize(s));
  CK(hipFree(d));
  CK(hipStreamDestroy(s));
  return nullptr;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "threads")) {
    int n = argc > 2 ? atoi(argv[2]) : 4;
    CK(hipSetDevice(0));
    pthread_t t[64];
    for (int i = 0; i < n && i < 64; i++) pthread_create(&t[i], nullptr, worker, nullptr);
    for (int i = 0; i < n && i < 64; i++) pthread_join(t[i], nullptr);
    CK(hipDeviceSynchronize());
  } else if (argc > 1 && !strcmp(argv[1], "fork")) {
    float *d;
    CK(hipMalloc(&d, N * sizeof(float)));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) _exit(0); // HIP may not be used in a forked child
    int st;
    waitpid(pid, &st, 0);
    hipLaunchKernelGGL(scale, dim3(N / 256), dim3(256), 0, 0, d, N, 3.0f);
    CK(hipDeviceSynchronize());
    CK(hipFree(d));
  } else {
    basic();
  }
  printf("ok\n");
  return 0;
}
