/* hsa_common.h - the small amount of HSA plumbing the C examples share (the
 * simulated GPU's test programs build on it too: tests/simgpu/progs/common.h). */
#ifndef EXAMPLES_HSA_COMMON_H
#define EXAMPLES_HSA_COMMON_H

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    hsa_status_t s_ = (x);                                                                         \
    if (s_ != HSA_STATUS_SUCCESS) {                                                                \
      const char *m_ = "?";                                                                        \
      hsa_status_string(s_, &m_);                                                                  \
      fprintf(stderr, "%s:%d: %s failed: %#x %s\n", __FILE__, __LINE__, #x, s_, m_);               \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

typedef struct ex_hsa {
  hsa_agent_t cpu, gpu;
  hsa_amd_memory_pool_t kernarg, host, vram;
  uint64_t vadd; /* kernel object of vadd */
} ex_hsa_t;

/* hsa_init, first CPU and GPU, their pools, and vadd from vadd.hsaco (next to
 * the executable unless $EX_HSACO names it). */
void ex_init(ex_hsa_t *h, const char *argv0);
void *ex_alloc(const ex_hsa_t *h, hsa_amd_memory_pool_t pool, size_t size);
/* The HSA_AMD_MEMORY_POOL_GLOBAL_FLAG_* of a pool of the global segment, 0
 * for a pool of another segment. */
uint32_t ex_global_pool_flags(hsa_amd_memory_pool_t p);
/* Loads a code object file for one GPU; returns the kernel object of
 * `symbol` (e.g. "vadd.kd") and, unless kernarg_size is NULL, its kernarg
 * size. */
uint64_t ex_load_kernel(hsa_agent_t gpu, const char *path, const char *symbol,
                        uint32_t *kernarg_size);
/* Loads vadd for one GPU (ex_init does it for the first) from vadd.hsaco next
 * to the executable, or $EX_HSACO; returns its kernel object. */
uint64_t ex_load_vadd(hsa_agent_t gpu, const char *argv0);
/* Writes a packet into the queue, header last, and rings the doorbell. */
void ex_submit(hsa_queue_t *q, const void *packet);
/* Writes a packet into slot idx (already reserved and free), header last;
 * rings nothing. */
void ex_write_packet(hsa_queue_t *q, uint64_t idx, const void *packet);
/* Packet builders: a 1-D dispatch (workgroups of 64) and barriers. */
void ex_dispatch_packet(hsa_kernel_dispatch_packet_t *d, uint64_t kobj, void *kernarg, uint32_t n,
                        hsa_signal_t done);
void ex_barrier_packet(hsa_barrier_and_packet_t *b, int is_or, const hsa_signal_t *deps, int n,
                       hsa_signal_t done);
void ex_wait(hsa_signal_t s); /* until the value drops below 1 */
/* On the simulated GPU (tests/simgpu) no GPU code runs; installs a dispatch
 * hook that computes vadd on the CPU so results can be checked. */
void ex_emulate_vadd_if_simulated(void);

#endif
