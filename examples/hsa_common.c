/* hsa_common.c - the HSA plumbing the C examples share. */
#define _GNU_SOURCE
#include "hsa_common.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

uint32_t ex_global_pool_flags(hsa_amd_memory_pool_t p) {
  hsa_amd_segment_t seg;
  uint32_t flags = 0;
  CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, &seg));
  if (seg != HSA_AMD_SEGMENT_GLOBAL) return 0;
  CHECK(hsa_amd_memory_pool_get_info(p, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, &flags));
  return flags;
}

static hsa_status_t pool_cb(hsa_amd_memory_pool_t p, void *data) {
  ex_hsa_t *h = data;
  uint32_t flags = ex_global_pool_flags(p);
  if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_KERNARG_INIT)
    h->kernarg = p;
  else if (flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_COARSE_GRAINED)
    h->vram = p;
  else if ((flags & HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_FINE_GRAINED) && !h->host.handle)
    h->host = p;
  return HSA_STATUS_SUCCESS;
}

static hsa_status_t agent_cb(hsa_agent_t a, void *data) {
  ex_hsa_t *h = data;
  hsa_device_type_t t;
  CHECK(hsa_agent_get_info(a, HSA_AGENT_INFO_DEVICE, &t));
  if (t == HSA_DEVICE_TYPE_CPU && !h->cpu.handle) h->cpu = a;
  if (t == HSA_DEVICE_TYPE_GPU && !h->gpu.handle) h->gpu = a;
  return HSA_STATUS_SUCCESS;
}

uint64_t ex_load_kernel(hsa_agent_t gpu, const char *path, const char *symbol,
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

uint64_t ex_load_vadd(hsa_agent_t gpu, const char *argv0) {
  char path[PATH_MAX];
  const char *env = getenv("EX_HSACO");
  if (env) {
    snprintf(path, sizeof path, "%s", env);
  } else {
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
      snprintf(exe, sizeof exe, "%s", argv0);
    else
      exe[n] = 0;
    snprintf(path, sizeof path, "%s/vadd.hsaco", dirname(exe));
  }
  return ex_load_kernel(gpu, path, "vadd.kd", NULL);
}

void ex_init(ex_hsa_t *h, const char *argv0) {
  memset(h, 0, sizeof *h);
  CHECK(hsa_init());
  CHECK(hsa_iterate_agents(agent_cb, h));
  if (!h->gpu.handle) {
    fprintf(stderr, "no GPU agent\n");
    exit(1);
  }
  CHECK(hsa_amd_agent_iterate_memory_pools(h->cpu, pool_cb, h));
  hsa_amd_memory_pool_t host = h->host, kernarg = h->kernarg;
  CHECK(hsa_amd_agent_iterate_memory_pools(h->gpu, pool_cb, h));
  h->host = host, h->kernarg = kernarg; /* keep the CPU's; take the GPU's VRAM */
  h->vadd = ex_load_vadd(h->gpu, argv0);
}

void *ex_alloc(const ex_hsa_t *h, hsa_amd_memory_pool_t pool, size_t size) {
  void *p;
  hsa_agent_t both[2] = {h->cpu, h->gpu};
  CHECK(hsa_amd_memory_pool_allocate(pool, size, 0, &p));
  CHECK(hsa_amd_agents_allow_access(2, both, NULL, p));
  return p;
}

void ex_write_packet(hsa_queue_t *q, uint64_t idx, const void *packet) {
  uint32_t *slot = (uint32_t *)((char *)q->base_address + (idx % q->size) * 64);
  memcpy(slot + 1, (const uint32_t *)packet + 1, 60);
  __atomic_store_n(slot, *(const uint32_t *)packet, __ATOMIC_RELEASE); /* header last */
}

void ex_submit(hsa_queue_t *q, const void *packet) {
  uint64_t idx = hsa_queue_add_write_index_relaxed(q, 1);
  while (idx - hsa_queue_load_read_index_scacquire(q) >= q->size) usleep(10);
  ex_write_packet(q, idx, packet);
  hsa_signal_store_screlease(q->doorbell_signal, (hsa_signal_value_t)idx);
}

static uint16_t header(hsa_packet_type_t type) {
  return (uint16_t)((type << HSA_PACKET_HEADER_TYPE) | (1 << HSA_PACKET_HEADER_BARRIER) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                    (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
}

void ex_dispatch_packet(hsa_kernel_dispatch_packet_t *d, uint64_t kobj, void *kernarg, uint32_t n,
                        hsa_signal_t done) {
  memset(d, 0, sizeof *d);
  d->header = header(HSA_PACKET_TYPE_KERNEL_DISPATCH);
  d->setup = 1 << HSA_KERNEL_DISPATCH_PACKET_SETUP_DIMENSIONS;
  d->workgroup_size_x = 64;
  d->workgroup_size_y = d->workgroup_size_z = 1;
  d->grid_size_x = n;
  d->grid_size_y = d->grid_size_z = 1;
  d->kernel_object = kobj;
  d->kernarg_address = kernarg;
  d->completion_signal = done;
}

void ex_barrier_packet(hsa_barrier_and_packet_t *b, int is_or, const hsa_signal_t *deps, int n,
                       hsa_signal_t done) {
  memset(b, 0, sizeof *b);
  b->header = header(is_or ? HSA_PACKET_TYPE_BARRIER_OR : HSA_PACKET_TYPE_BARRIER_AND);
  for (int i = 0; i < n && i < 5; i++) b->dep_signal[i] = deps[i];
  b->completion_signal = done;
}

void ex_wait(hsa_signal_t s) {
  while (hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) >= 1) {
  }
}

typedef int64_t (*hook_t)(const hsa_kernel_dispatch_packet_t *, const char *, void *);

static int64_t vadd_hook(const hsa_kernel_dispatch_packet_t *pkt, const char *name, void *u) {
  (void)u;
  if (!name || strcmp(name, "vadd.kd")) return -1;
  float **args = pkt->kernarg_address; /* a, b, c */
  for (uint32_t i = 0; i < pkt->grid_size_x; i++) args[2][i] = args[0][i] + args[1][i];
  return -1; /* keep the simulated duration */
}

void ex_emulate_vadd_if_simulated(void) {
  void (*set)(hook_t, void *) =
      (void (*)(hook_t, void *))dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
  if (set) set(vadd_hook, NULL);
}
