/* common.c - helpers shared by simgpu's test programs. */
#define _GNU_SOURCE
#include "common.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  sg_system_t *sys = data;
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
    sys->kernarg = p;
  else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !sys->host.handle)
    sys->host = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t gpu_pool_cb(hsa_amd_memory_pool_t p, void *data) {
  sg_gpu_t *g = data;
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return HSA_STATUS_SUCCESS;
  CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED) g->vram = p;
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

uint64_t sg_load_kernel(hsa_agent_t gpu, const char *path, const char *symbol,
                        uint32_t *kernarg_size) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) {
    perror(path);
    exit(1);
  }
  hsa_code_object_reader_t rd;
  hsa_executable_t ex;
  CHECK(hsa_code_object_reader_create_from_file(fd, &rd));
  CHECK(hsa_executable_create_alt(HSA_PROFILE_FULL, HSA_DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, NULL,
                                  &ex));
  CHECK(hsa_executable_load_agent_code_object(ex, gpu, rd, NULL, NULL));
  CHECK(hsa_executable_freeze(ex, NULL));
  hsa_executable_symbol_t sym;
  CHECK(hsa_executable_get_symbol_by_name(ex, symbol, &gpu, &sym));
  uint64_t kobj;
  CHECK(hsa_executable_symbol_get_info(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, &kobj));
  if (kernarg_size)
    CHECK(hsa_executable_symbol_get_info(
        sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, kernarg_size));
  close(fd);
  return kobj;
}

void sg_submit(hsa_queue_t *q, const void *packet) {
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) usleep(20);
  uint32_t *slot = (uint32_t *)((char *)q->base_address + (idx % q->size) * 64);
  memcpy(slot + 1, (const uint32_t *)packet + 1, 60);
  __atomic_store_n(slot, *(const uint32_t *)packet, __ATOMIC_RELEASE);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static uint16_t header(hsa_packet_type_t type) {
  return (uint16_t)((type << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

void sg_dispatch_packet(hsa_kernel_dispatch_packet_t *d, uint64_t kobj, void *kernarg,
                        uint32_t grid, hsa_signal_t done) {
  memset(d, 0, sizeof *d);
  d->header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  d->setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  d->workgroup_size_x = 64;
  d->workgroup_size_y = d->workgroup_size_z = 1;
  d->grid_size_x = grid;
  d->grid_size_y = d->grid_size_z = 1;
  d->kernel_object = kobj;
  d->kernarg_address = kernarg;
  d->completion_signal = done;
}

void sg_barrier_packet(hsa_barrier_and_packet_t *b, int is_or, const hsa_signal_t *deps, int ndeps,
                       hsa_signal_t done) {
  memset(b, 0, sizeof *b);
  b->header = header(is_or ? HSA_PACKET_TYPE_BARRIER_OR : HSA_PACKET_TYPE_BARRIER_AND);
  for (int i = 0; i < ndeps && i < 5; i++) b->dep_signal[i] = deps[i];
  b->completion_signal = done;
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
