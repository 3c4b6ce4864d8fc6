/* sg_dispatch KERNELS.hsaco: loads a code object built from OpenCL C,
 * dispatches vadd on every GPU and checks the profiling timestamps: end -
 * start must be exactly the simulated duration. Then does it again with a
 * dispatch hook (found with dlsym, as any test would) that computes vadd on
 * the CPU and picks the duration. Prints one deterministic line per check. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <string.h>

#include "common.h"
#include "simgpu.h"

#define N 1024

static int64_t hook_calls;

static int64_t vadd_on_cpu(const hsa_kernel_dispatch_packet_t *pkt, const char *name, void *user) {
  if (!name || strcmp(name, "vadd.kd")) return -1;
  float **args = pkt->kernarg_address;
  for (uint32_t i = 0; i < pkt->grid_size_x; i++) args[2][i] = args[0][i] + args[1][i];
  __atomic_add_fetch(&hook_calls, 1, __ATOMIC_RELAXED);
  return *(int64_t *)user;
}

static uint64_t run(sg_system_t *sys, int g, uint64_t kobj, float **buf) {
  hsa_agent_t gpu = sys->gpu[g].agent;
  hsa_queue_t *q;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  CHECK(hsa_amd_profiling_set_profiler_enabled(q, 1));
  void **kargs = sg_alloc(sys->kernarg, 256, sys);
  memcpy(kargs, buf, 3 * sizeof(void *));
  hsa_signal_t done;
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  hsa_kernel_dispatch_packet_t d;
  sg_dispatch_packet(&d, kobj, kargs, N, done);
  sg_submit(q, &d);
  sg_wait(done);
  hsa_amd_profiling_dispatch_time_t t;
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, done, &t));
  CHECK(hsa_signal_destroy(done));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_amd_memory_pool_free(kargs));
  return t.end - t.start;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: sg_dispatch KERNELS.hsaco\n");
    return 2;
  }
  sg_system_t sys;
  sg_init(&sys);
  for (int g = 0; g < sys.ngpus; g++) {
    uint32_t ksize = 0;
    uint64_t kobj = sg_load_kernel(sys.gpu[g].agent, argv[1], "vadd.kd", &ksize);
    printf("gpu%d: loaded vadd.kd kernarg_size=%u\n", g, ksize);
    float *buf[3];
    for (int i = 0; i < 3; i++) buf[i] = sg_alloc(sys.host, N * sizeof(float), &sys);
    for (int i = 0; i < N; i++) buf[0][i] = (float)i, buf[1][i] = 2.0f * (float)i, buf[2][i] = -1;
    printf("gpu%d: duration=%llu\n", g, (unsigned long long)run(&sys, g, kobj, buf));

    void (*set_hook)(simgpu_dispatch_hook_t, void *) =
        (void (*)(simgpu_dispatch_hook_t, void *))dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
    if (!set_hook) {
      printf("no simgpuSetDispatchHook\n");
      return 1;
    }
    int64_t want = 12345;
    set_hook(vadd_on_cpu, &want);
    uint64_t dur = run(&sys, g, kobj, buf);
    set_hook(NULL, NULL);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += buf[2][i] != 3.0f * (float)i;
    printf("gpu%d: hook calls=%lld duration=%llu result %s\n", g, (long long)hook_calls,
           (unsigned long long)dur, bad ? "WRONG" : "ok");
    hook_calls = 0;
    for (int i = 0; i < 3; i++) CHECK(hsa_amd_memory_pool_free(buf[i]));
  }
  CHECK(hsa_shut_down());
  return 0;
}
