/* kernel_time.c - how long a dispatch runs: the dispatch hook if a test set
 * one and it answers, else the first SIMGPU_KERNEL_TIMES pattern found in the
 * kernel name, else SIMGPU_KERNEL_NS. */
#define _GNU_SOURCE
#include <string.h>

#include "sim_core.h"

static simgpu_dispatch_hook_t hook;
static void *hook_user;
static pthread_mutex_t hook_mu = PTHREAD_MUTEX_INITIALIZER;

SIM_EXPORT void simgpuSetDispatchHook(simgpu_dispatch_hook_t h, void *user) {
  pthread_mutex_lock(&hook_mu);
  hook = h;
  hook_user = user;
  pthread_mutex_unlock(&hook_mu);
}

uint64_t sim_kernel_duration(const hsa_kernel_dispatch_packet_t *pkt, const char *name) {
  pthread_mutex_lock(&hook_mu);
  simgpu_dispatch_hook_t h = hook;
  void *user = hook_user;
  pthread_mutex_unlock(&hook_mu);
  if (h) {
    int64_t ns = h(pkt, name, user);
    if (ns >= 0) return (uint64_t)ns;
  }
  if (name)
    for (int i = 0; i < sim_cfg.ntimes; i++)
      if (strstr(name, sim_cfg.times[i].pattern)) return sim_cfg.times[i].ns;
  return sim_cfg.kernel_ns;
}
