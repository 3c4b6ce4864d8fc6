/* common.h - helpers shared by simgpu's test programs (plain HSA). */
#ifndef SG_COMMON_H
#define SG_COMMON_H

/* CHECK, and the plumbing that is the same in any HSA program (code
 * objects, packets, queues), come from the examples' helpers. */
#include "../../../examples/hsa_common.h"

#define SG_MAX_GPUS 8

typedef struct sg_gpu {
  hsa_agent_t agent;
  hsa_amd_memory_pool_t vram; /* coarse-grained device memory */
} sg_gpu_t;

typedef struct sg_system {
  hsa_agent_t cpu;
  hsa_amd_memory_pool_t kernarg; /* host, kernarg-capable */
  hsa_amd_memory_pool_t host;    /* host, fine-grained */
  int ngpus;
  sg_gpu_t gpu[SG_MAX_GPUS];
} sg_system_t;

/* hsa_init and find the CPU, its pools, the GPUs and their VRAM pools. */
void sg_init(sg_system_t *sys);

/* Loads a code object file for one GPU; returns the kernel object of
 * `symbol` (e.g. "vadd.kd") and its kernarg size. */
static inline uint64_t sg_load_kernel(hsa_agent_t gpu, const char *path, const char *symbol,
                                      uint32_t *kernarg_size) {
  return ex_load_kernel(gpu, path, symbol, kernarg_size);
}

/* Writes a packet into the queue, header last, and rings the doorbell. */
static inline void sg_submit(hsa_queue_t *q, const void *packet) {
  ex_submit(q, packet);
}
/* Writes a packet into reserved slot idx, header last, without ringing. */
static inline void sg_write_packet(hsa_queue_t *q, uint64_t idx, const void *packet) {
  ex_write_packet(q, idx, packet);
}

/* Packet builders: a 1-D dispatch and barriers (dep signals may be {0}). */
static inline void sg_dispatch_packet(hsa_kernel_dispatch_packet_t *d, uint64_t kobj, void *kernarg,
                                      uint32_t grid, hsa_signal_t done) {
  ex_dispatch_packet(d, kobj, kernarg, grid, done);
}
static inline void sg_barrier_packet(hsa_barrier_and_packet_t *b, int is_or,
                                     const hsa_signal_t *deps, int ndeps, hsa_signal_t done) {
  ex_barrier_packet(b, is_or, deps, ndeps, done);
}

/* Waits until the signal's value is below 1 (5 s limit, then exit 1). */
void sg_wait(hsa_signal_t s);

void *sg_alloc(hsa_amd_memory_pool_t pool, size_t size, const sg_system_t *sys);

uint64_t sg_env_u64(const char *name, uint64_t def);

#endif
