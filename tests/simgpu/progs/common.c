/* common.c - helpers shared by simgpu's test programs. */
#define _GNU_SOURCE
#include "common.h"

#include <string.h>

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  sg_system_t *sys = data;
  uint32_t flags = ex_global_pool_flags(p);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
    sys->kernarg = p;
  else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !sys->host.handle)
    sys->host = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t gpu_pool_cb(hsa_amd_memory_pool_t p, void *data) {
  sg_gpu_t *g = data;
  if (ex_global_pool_flags(p) & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) g->vram = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_cb(hsa_agent_t a, void *data) {
  sg_system_t *sys = data;
  hsa_device_type_t t;
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t));
  if (t == HSA_DEVICE_TYPE_CPU && !sys->cpu.handle) {
    sys->cpu = a;
    CHECK(hsa_amd_agent_iterate_memory_pools(a, pool_cb, sys));
  } else if (t == HSA_DEVICE_TYPE_GPU && sys->ngpus < SG_MAX_GPUS) {
    sg_gpu_t *g = &sys->gpu[sys->ngpus++];
    g->agent = a;
    CHECK(hsa_amd_agent_iterate_memory_pools(a, gpu_pool_cb, g));
  }
  return HSA_STATUS_SUCCESS;
}

void sg_init(sg_system_t *sys) {
  memset(sys, 0, sizeof *sys);
  CHECK(hsa_init());
  CHECK(hsa_iterate_agents(agent_cb, sys));
  if (!sys->ngpus) {
    fprintf(stderr, "no GPU agent\n");
    exit(1);
  }
}

void sg_wait(hsa_signal_t s) {
  hsa_signal_value_t v = hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 5000000000ull,
                                                   HSA_WAIT_STATE_BLOCKED);
  if (v >= 1) {
    fprintf(stderr, "timeout waiting for a signal (value %ld)\n", (long)v);
    exit(1);
  }
}

void *sg_alloc(hsa_amd_memory_pool_t pool, size_t size, const sg_system_t *sys) {
  void *p;
  CHECK(hsa_amd_memory_pool_allocate(pool, size, 0, &p));
  hsa_agent_t all[SG_MAX_GPUS + 1];
  all[0] = sys->cpu;
  for (int i = 0; i < sys->ngpus; i++) all[i + 1] = sys->gpu[i].agent;
  CHECK(hsa_amd_agents_allow_access((uint32_t)sys->ngpus + 1, all, NULL, p));
  return p;
}

uint64_t sg_env_u64(const char *name, uint64_t def) {
  const char *v = getenv(name);
  return v && *v ? strtoull(v, NULL, 0) : def;
}
