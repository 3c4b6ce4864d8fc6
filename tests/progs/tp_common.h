/* Shared by the tracer's test programs: one GPU, one queue, N dispatches of
 * the never-run descriptor (the simulated GPU only times them). */
#ifndef TP_COMMON_H
#define TP_COMMON_H
#include <dlfcn.h>
#include <stdint.h>
#include <string.h>

#include "common.h"
#include "simgpu.h"

static char tp_descriptor[4096] __attribute__((aligned(4096)));

/* A 64-slot queue on the first GPU, as most test programs use. */
static inline hsa_queue_t *tp_queue(const sg_system_t *sys) {
  hsa_queue_t *q;
  CHECK(hsa_queue_create(sys->gpu[0].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                         UINT32_MAX, &q));
  return q;
}

/* One dispatch of grid work-items on q, completing sig (0: none). */
static inline void tp_dispatch(hsa_queue_t *q, uint32_t grid, hsa_signal_t sig) {
  hsa_kernel_dispatch_packet_t d;
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, grid, sig);
  sg_submit(q, &d);
}

/* Slow kernels: a dispatch of TP_SLOW_GRID work-items runs ns on the
 * simulated GPU, any other 1 us (where the simulator offers its dispatch
 * hook; run without it, every dispatch takes the simulator's default). */
enum { TP_SLOW_GRID = 128 };

static inline int64_t tp_slow_hook(const hsa_kernel_dispatch_packet_t *pkt, const char *name,
                                   void *user) {
  (void)name;
  return pkt->grid_size_x == TP_SLOW_GRID ? (int64_t)(intptr_t)user : 1000;
}

static inline void tp_slow_kernels(int64_t ns) {
  void (*set)(simgpu_dispatch_hook_t, void *) =
      (void (*)(simgpu_dispatch_hook_t, void *))dlsym(RTLD_DEFAULT, "simgpuSetDispatchHook");
  if (set) set(tp_slow_hook, (void *)(intptr_t)ns);
}

/* Submit n dispatches to q, each completing sig (created by the caller
 * with value n), and wait for all. */
static inline void tp_dispatch_n(hsa_queue_t *q, hsa_signal_t sig, int n) {
  for (int i = 0; i < n; i++) tp_dispatch(q, 64, sig);
  sg_wait(sig);
}

/* HSA started, a queue of tp_queue, *s created with value n and n
 * dispatches run on the queue, as most lives of a test program begin. */
static inline hsa_queue_t *tp_start(sg_system_t *sys, hsa_signal_t *s, int n) {
  sg_init(sys);
  hsa_queue_t *q = tp_queue(sys);
  CHECK(hsa_signal_create(n, 0, NULL, s));
  tp_dispatch_n(q, *s, n);
  return q;
}
#endif
