// tp_hip_hostfn: host functions in a stream and in a graph, checked by the
// data they order.  Each round, a host function sleeps, then writes the
// round's number into pinned memory; the stream then copies that memory to
// the device and back.  The copy must see the host function's write: HIP
// holds the stream on a marker that only the host function's end releases
// (HIP >= 6 starts that marker's signal at 2 and subtracts the last 1 after
// the function returns).  A tool that let the stream run on at the GPU's
// decrement would copy the previous round's number, or run the function on
// a graph already released.
//   tp_hip_hostfn callback N    N rounds with hipStreamAddCallback
//   tp_hip_hostfn hostfunc N    N rounds with hipLaunchHostFunc (HIP >= 6)
//   tp_hip_hostfn graph N       the round built once as a graph (host node,
//                               two copy nodes), launched N times, destroyed
//   tp_hip_hostfn capture N     the hipLaunchHostFunc round captured from
//                               the stream as a graph (HIP >= 6), likewise
// Prints "ok ROUNDS" and exits 0, or says which round saw what and exits 1;
// exits 77 for a mode this HIP lacks (HIP 5.2 exports no hipLaunchHostFunc).
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../examples/hip_check.h"

struct round_state {
  int *host; // pinned: the host function writes it, the copy reads it
  int next;  // the number the next call writes
  int sleep_us;
};

static void write_after_sleep(void *arg) {
  round_state *r = (round_state *)arg;
  timespec ts = {0, r->sleep_us * 1000L};
  nanosleep(&ts, nullptr);
  *(volatile int *)r->host = r->next++;
}

static void callback(hipStream_t, hipError_t, void *arg) {
  write_after_sleep(arg);
}

#if HIP_VERSION_MAJOR >= 6
#define HAVE_HOST_FUNC 1
#else
#define HAVE_HOST_FUNC 0
#endif

// One round on s: the host function, then the copy there and back.
static void enqueue_round(hipStream_t s, bool host_func, round_state *r, int *dev, int *back) {
#if HAVE_HOST_FUNC
  if (host_func)
    CK(hipLaunchHostFunc(s, write_after_sleep, r));
  else
#endif
    CK(hipStreamAddCallback(s, callback, r, 0));
  CK(hipMemcpyAsync(dev, r->host, sizeof(int), hipMemcpyHostToDevice, s));
  CK(hipMemcpyAsync(back, dev, sizeof(int), hipMemcpyDeviceToHost, s));
}

// The round as a graph of its own nodes: host -> copy in -> copy back.
static hipGraph_t round_graph(round_state *r, int *dev, int *back) {
  hipGraph_t g;
  CK(hipGraphCreate(&g, 0));
  hipHostNodeParams hp = {};
  hp.fn = write_after_sleep;
  hp.userData = r;
  hipGraphNode_t host, in, out;
  CK(hipGraphAddHostNode(&host, g, nullptr, 0, &hp));
  CK(hipGraphAddMemcpyNode1D(&in, g, &host, 1, dev, r->host, sizeof(int), hipMemcpyHostToDevice));
  CK(hipGraphAddMemcpyNode1D(&out, g, &in, 1, back, dev, sizeof(int), hipMemcpyDeviceToHost));
  return g;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "stream";
  int n = argc > 2 ? atoi(argv[2]) : 20;
  if (n < 1) n = 1;
  CK(hipSetDevice(0));
  hipStream_t s;
  CK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
  round_state r = {nullptr, 1, 2000};
  int *back, *dev;
  CK(hipHostMalloc((void **)&r.host, sizeof(int), 0));
  CK(hipHostMalloc((void **)&back, sizeof(int), 0));
  CK(hipMalloc((void **)&dev, sizeof(int)));
  *r.host = 0;
  *back = -1;
  bool capture = !strcmp(mode, "capture"), graph = capture || !strcmp(mode, "graph");
  bool host_func = capture || !strcmp(mode, "hostfunc");
  if (host_func && !HAVE_HOST_FUNC) {
    printf("SKIP: HIP %d.%d exports no hipLaunchHostFunc\n", HIP_VERSION_MAJOR, HIP_VERSION_MINOR);
    return 77;
  }
  hipGraphExec_t exec = nullptr;
  if (graph) {
    hipGraph_t g;
    if (capture) {
      CK(hipStreamBeginCapture(s, hipStreamCaptureModeGlobal));
      enqueue_round(s, true, &r, dev, back);
      CK(hipStreamEndCapture(s, &g));
    } else {
      g = round_graph(&r, dev, back);
    }
    CK(hipGraphInstantiate(&exec, g, nullptr, nullptr, 0));
    CK(hipGraphDestroy(g));
  }
  int bad = 0;
  for (int i = 1; i <= n; i++) {
    if (graph)
      CK(hipGraphLaunch(exec, s));
    else
      enqueue_round(s, host_func, &r, dev, back);
    CK(hipStreamSynchronize(s));
    if (*back != i && bad++ < 5) printf("round %d: the copy saw %d\n", i, *back);
  }
  if (exec) CK(hipGraphExecDestroy(exec));
  CK(hipFree(dev));
  CK(hipHostFree(back));
  CK(hipHostFree(r.host));
  CK(hipStreamDestroy(s));
  if (bad) {
    printf("%d of %d rounds wrong\n", bad, n);
    return 1;
  }
  printf("ok %d\n", n);
  return 0;
}
