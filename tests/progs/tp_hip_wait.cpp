// tp_hip_wait: one cell of the stretch matrix (scripts/bench-stretch.sh)
// for HIP: threads that launch kernels and wait for each in one way.
//   tp_hip_wait WAIT LAYOUT N
// WAIT, how each thread learns that its kernel completed:
//   stream   hipStreamSynchronize on the kernel's stream
//   event    hipEventRecord after the kernel, then hipEventSynchronize
//   device   hipDeviceSynchronize
//   memcpy   a synchronous 256-byte hipMemcpy from the device (the null
//            stream waits for the kernel: the streams are blocking ones)
//   query    hipEventRecord after the kernel, then hipEventQuery until it
//            stops answering hipErrorNotReady
//   b2b      no wait per kernel: all launched back to back, then one
//            hipStreamSynchronize per stream
// LAYOUT: 1t2s (one thread, kernels alternating between two streams), 2t
//   (two threads, each with its own stream), 4t1s (four threads sharing one
//   stream).
// N kernels per thread.  Prints "elapsed_ns T", from the moment all threads
// start to the last one's end, "tids A B ..", the threads' ids, and
// "handler_tid H", the thread that runs HSA async handlers (where HIP's own
// handlers on its markers run).
#include <dlfcn.h>
#include <hip/hip_runtime.h>
#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../../examples/hip_check.h"

enum wait_kind { W_STREAM, W_EVENT, W_DEVICE, W_MEMCPY, W_QUERY, W_B2B, W_NONE };
static const char *const wait_names[] = {"stream", "event", "device", "memcpy", "query", "b2b"};
enum { MAX_THREADS = 4 };

static wait_kind kind = W_NONE;
static long n_ops;
static pthread_barrier_t start;

struct worker {
  hipStream_t s[2]; // alternated (1t2s), else s[0]
  hipEvent_t ev;
  int *dev;     // the kernel's and the copy's device memory
  int host[64]; // the copy's destination
  long tid;
  pthread_t thread;
};

static unsigned long long now_ns() {
  timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

__global__ void tick(int *p) {
  if (threadIdx.x == 0 && p) p[blockIdx.x] += 1;
}

// The thread that runs async handlers: one registered on a signal of our
// own, set at once (HSA through dlsym: HIP has loaded the runtime).
static sem_t handled;
static long handler_tid;
static bool on_handler(hsa_signal_value_t, void *) {
  handler_tid = syscall(SYS_gettid);
  sem_post(&handled);
  return false;
}
static void find_handler_thread() {
  auto create = (hsa_status_t(*)(hsa_signal_value_t, uint32_t, const hsa_agent_t *,
                                 hsa_signal_t *))dlsym(RTLD_DEFAULT, "hsa_signal_create");
  auto handler = (hsa_status_t(*)(hsa_signal_t, hsa_signal_condition_t, hsa_signal_value_t,
                                  hsa_amd_signal_handler,
                                  void *))dlsym(RTLD_DEFAULT, "hsa_amd_signal_async_handler");
  auto store =
      (void (*)(hsa_signal_t, hsa_signal_value_t))dlsym(RTLD_DEFAULT, "hsa_signal_store_screlease");
  auto destroy = (hsa_status_t(*)(hsa_signal_t))dlsym(RTLD_DEFAULT, "hsa_signal_destroy");
  hsa_signal_t s;
  if (!create || !handler || !store || !destroy || create(1, 0, nullptr, &s) != HSA_STATUS_SUCCESS)
    return;
  sem_init(&handled, 0, 0);
  if (handler(s, HSA_SIGNAL_CONDITION_LT, 1, on_handler, nullptr) == HSA_STATUS_SUCCESS) {
    store(s, 0);
    while (sem_wait(&handled) != 0) {
    }
  }
  destroy(s);
}

static void *run(void *arg) {
  worker *w = static_cast<worker *>(arg);
  w->tid = syscall(SYS_gettid);
  pthread_barrier_wait(&start);
  for (long i = 0; i < n_ops; i++) {
    hipStream_t s = w->s[i % 2];
    hipLaunchKernelGGL(tick, dim3(1), dim3(64), 0, s, w->dev);
    switch (kind) {
    case W_STREAM:
      CK(hipStreamSynchronize(s));
      break;
    case W_EVENT:
      CK(hipEventRecord(w->ev, s));
      CK(hipEventSynchronize(w->ev));
      break;
    case W_DEVICE:
      CK(hipDeviceSynchronize());
      break;
    case W_MEMCPY:
      CK(hipMemcpy(w->host, w->dev, sizeof w->host, hipMemcpyDeviceToHost));
      break;
    case W_QUERY: {
      CK(hipEventRecord(w->ev, s));
      hipError_t e;
      while ((e = hipEventQuery(w->ev)) == hipErrorNotReady) {
      }
      CK(e);
      break;
    }
    default:
      break;
    }
  }
  if (kind == W_B2B) {
    CK(hipStreamSynchronize(w->s[0]));
    CK(hipStreamSynchronize(w->s[1]));
  }
  return nullptr;
}

int main(int argc, char **argv) {
  for (int k = 0; argc == 4 && k < W_NONE; k++)
    if (!strcmp(argv[1], wait_names[k])) kind = static_cast<wait_kind>(k);
  int threads = argc == 4 && !strcmp(argv[2], "2t")     ? 2
                : argc == 4 && !strcmp(argv[2], "4t1s") ? 4
                                                        : 1;
  n_ops = argc == 4 ? atol(argv[3]) : 0;
  if (kind == W_NONE || (threads == 1 && strcmp(argv[2], "1t2s")) || n_ops < 1 || n_ops > 100000) {
    fprintf(stderr, "usage: tp_hip_wait stream|event|device|memcpy|query|b2b 1t2s|2t|4t1s N\n");
    return 2;
  }
  CK(hipSetDevice(0));
  // blocking streams for the synchronous copy, which waits on the null
  // stream; non-blocking ones otherwise, as programs with streams use
  unsigned flags = kind == W_MEMCPY ? hipStreamDefault : hipStreamNonBlocking;
  hipStream_t s[2];
  int ns = threads == 4 ? 1 : 2;
  for (int i = 0; i < ns; i++) CK(hipStreamCreateWithFlags(&s[i], flags));
  static worker w[MAX_THREADS];
  for (int t = 0; t < threads; t++) {
    w[t].s[0] = s[threads == 4 ? 0 : t];
    w[t].s[1] = s[threads == 1 ? 1 : threads == 4 ? 0 : t];
    CK(hipEventCreateWithFlags(&w[t].ev, hipEventDisableTiming));
    CK(hipMalloc(&w[t].dev, sizeof w[t].host));
    hipLaunchKernelGGL(tick, dim3(1), dim3(64), 0, w[t].s[0], w[t].dev); // warm up
  }
  CK(hipDeviceSynchronize());
  find_handler_thread();
  pthread_barrier_init(&start, nullptr, (unsigned)threads + 1);
  for (int t = 0; t < threads; t++) pthread_create(&w[t].thread, nullptr, run, &w[t]);
  pthread_barrier_wait(&start);
  unsigned long long t0 = now_ns();
  for (int t = 0; t < threads; t++) pthread_join(w[t].thread, nullptr);
  printf("elapsed_ns %llu\ntids", now_ns() - t0);
  for (int t = 0; t < threads; t++) printf(" %ld", w[t].tid);
  printf("\nhandler_tid %ld\n", handler_tid);
  for (int t = 0; t < threads; t++) {
    CK(hipEventDestroy(w[t].ev));
    CK(hipFree(w[t].dev));
  }
  for (int i = 0; i < ns; i++) CK(hipStreamDestroy(s[i]));
  return 0;
}
