/* hsa_idle_causes [cpu|wait]: a plain HSA program with one known cause of
 * GPU0's idle time, injected and timed by the program itself, to see what
 * rtg-convert --analyze makes of it. Trace a mode with the HSA calls and
 * read the verdict:
 *   build/rtg-trace --hsa-trace --analyze -- build/examples/hsa_idle_causes cpu
 * First a vadd dispatch on GPU0 and a wait for it (GPU0's first op: the idle
 * time after it is the program's), then five times: the injected part, a
 * dispatch on GPU0 and a wait for it. The mode (default cpu), what it
 * injects and the cause --analyze names:
 *   cpu   20 ms in no HSA call (a sleep, the application's own time):
 *         host_outside_api
 *   wait  a dispatch on GPU1 and hsa_signal_wait_scacquire on it: GPU0 idles
 *         while its thread waits: host_sync in hsa_signal_wait_scacquire
 *         (needs two GPUs; GPU0's own waits use hsa_signal_wait_relaxed, so
 *         that the two are told apart by call)
 * Without the HSA calls traced the verdict says that the host's time cannot
 * be split. Prints "injected <cause> <ns> ns in 5 parts" (CLOCK_BOOTTIME
 * around the injected part only).
 * On the simulated GPU (tests/simgpu) set SIMGPU_KERNEL_NS=NS so that the
 * kernels take time, and for wait SIMGPU_GPUS=2.
 * tests/e2e/157-analyze-hsa.sh checks that each injected time lands in its
 * cause. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "hsa_common.h"

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The GPU after the first one (ex_init takes the first), if any. */
static hsa_status_t second_gpu_cb(hsa_agent_t a, void *data) {
  hsa_agent_t *gpus = data; /* [0]: the first, [1]: the second */
  hsa_device_type_t t;
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t));
  if (t != HSA_DEVICE_TYPE_GPU || a.handle == gpus[0].handle || gpus[1].handle)
    return HSA_STATUS_SUCCESS;
  gpus[1] = a;
  return HSA_STATUS_SUCCESS;
}

/* Memory of `pool` that the CPU and every GPU in use can reach. */
static void *alloc_shared(hsa_amd_memory_pool_t pool, size_t size, const hsa_agent_t *agents,
                          int n) {
  void *p;
  CHECK(hsa_amd_memory_pool_allocate(pool, size, 0, &p));
  CHECK(hsa_amd_agents_allow_access((uint32_t)n, agents, NULL, p));
  return p;
}

/* One vadd dispatch and a wait for it: the injected waits (GPU1's) with
 * hsa_signal_wait_scacquire, GPU0's own with hsa_signal_wait_relaxed. */
static void run_one(hsa_queue_t *q, uint64_t kobj, void *kernarg, bool injected) {
  hsa_signal_t sig;
  CHECK(hsa_signal_create(1, 0, NULL, &sig));
  hsa_kernel_dispatch_packet_t d;
  ex_dispatch_packet(&d, kobj, kernarg, 64, sig);
  ex_submit(q, &d);
  if (injected)
    while (hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                     HSA_WAIT_STATE_BLOCKED) >= 1) {
    }
  else
    while (hsa_signal_wait_relaxed(sig, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) >= 1) {
    }
  CHECK(hsa_signal_destroy(sig));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "cpu";
  bool wait = !strcmp(mode, "wait");
  if (!wait && strcmp(mode, "cpu")) {
    fprintf(stderr, "usage: hsa_idle_causes cpu|wait\n");
    return 2;
  }
  ex_hsa_t h;
  ex_init(&h, argv[0]);
  hsa_agent_t agents[3] = {h.cpu, h.gpu, {0}}; /* the CPU, GPU0, GPU1 */
  CHECK(hsa_iterate_agents(second_gpu_cb, &agents[1]));
  if (wait && !agents[2].handle) {
    fprintf(stderr, "hsa_idle_causes wait: needs two GPUs (simulated: SIMGPU_GPUS=2)\n");
    return 2;
  }
  int nagents = wait ? 3 : 2;
  /* c = a + b on 64 floats, in host memory every GPU in use reaches */
  float *buf = alloc_shared(h.host, 3 * 64 * sizeof(float), agents, nagents);
  memset(buf, 0, 3 * 64 * sizeof(float));
  void **args = alloc_shared(h.kernarg, 64, agents, nagents);
  args[0] = buf, args[1] = buf + 64, args[2] = buf + 128;
  uint64_t vadd1 = wait ? ex_load_vadd(agents[2], argv[0]) : 0;
  hsa_queue_t *q0, *q1 = NULL;
  CHECK(hsa_queue_create(h.gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q0));
  if (wait)
    CHECK(hsa_queue_create(agents[2], 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                           &q1));
  run_one(q0, h.vadd, args, false); /* GPU0's first op: the idle after it is the program's */
  uint64_t injected = 0;
  for (int i = 0; i < 5; i++) {
    uint64_t t0 = now_ns();
    if (wait) {
      run_one(q1, vadd1, args, true);
    } else {
      struct timespec ts = {0, 20000000};
      while (nanosleep(&ts, &ts)) {
      }
    }
    injected += now_ns() - t0;
    run_one(q0, h.vadd, args, false);
  }
  printf("injected %s %llu ns in 5 parts\n", wait ? "host_sync" : "host_outside_api",
         (unsigned long long)injected);
  if (q1) CHECK(hsa_queue_destroy(q1));
  CHECK(hsa_queue_destroy(q0));
  CHECK(hsa_amd_memory_pool_free(args));
  CHECK(hsa_amd_memory_pool_free(buf));
  CHECK(hsa_shut_down());
  return 0;
}
