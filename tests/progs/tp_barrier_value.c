/* tp_barrier_value: what HIP >= 5.3 does to make a kernel wait for a copy,
 * by hand, on one queue: an AMD barrier-value packet that waits until a
 * dependency signal is 0 (it is released 30 ms later), then a dispatch.
 * Both complete signals made with HSA_AMD_SIGNAL_AMD_GPU_ONLY, as HIP 6's
 * are: ROCR makes those busy-wait signals (no event mailbox), and a host
 * wait on one spins.  The program itself never waits on them with the HSA
 * wait API: it polls with 2 ms sleeps and measures the process's CPU time
 * meanwhile, which stays low unless someone (the tracer's waiter) spins.
 *   tp_barrier_value        (SIMGPU_KERNEL_NS sets how long the kernel runs) */
#include <hsa/amd_hsa_signal.h>
#include <time.h>

#include "tp_common.h"

static double cpu_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static double wall_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t dep, bv_done, k_done;
  CHECK(hsa_signal_create(1, 0, NULL, &dep));
  CHECK(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &bv_done));
  CHECK(hsa_amd_signal_create(1, 0, NULL, HSA_AMD_SIGNAL_AMD_GPU_ONLY, &k_done));
  const amd_signal_t *s = (const amd_signal_t *)(uintptr_t)k_done.handle;
  printf("gpu-only signals have no event mailbox: %s\n", s->event_mailbox_ptr ? "NO" : "yes");

  hsa_amd_barrier_value_packet_t bv;
  memset(&bv, 0, sizeof bv);
  bv.header.header =
      (uint16_t)((HSA_PACKET_TYPE_VENDOR_SPECIFIC << HSA_PACKET_HEADER_TYPE) |
                 (1 << HSA_PACKET_HEADER_BARRIER) |
                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCACQUIRE_FENCE_SCOPE) |
                 (HSA_FENCE_SCOPE_SYSTEM << HSA_PACKET_HEADER_SCRELEASE_FENCE_SCOPE));
  bv.header.AmdFormat = HSA_AMD_PACKET_TYPE_BARRIER_VALUE;
  bv.signal = dep;
  bv.value = 0;
  bv.mask = -1;
  bv.cond = HSA_SIGNAL_CONDITION_EQ;
  bv.completion_signal = bv_done;
  hsa_kernel_dispatch_packet_t d;
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, k_done);

  double c0 = cpu_s(), w0 = wall_s();
  sg_submit(q, &bv);
  sg_submit(q, &d);
  sleep_ms(30);
  hsa_signal_store_screlease(dep, 0);
  int polls = 0;
  while (hsa_signal_load_scacquire(k_done) > 0 && polls++ < 2500) sleep_ms(2);
  double cpu = cpu_s() - c0, wall = wall_s() - w0;
  printf("kernel complete: %s\n", hsa_signal_load_relaxed(k_done) == 0 ? "yes" : "NO");
  printf("barrier-value complete: %s\n", hsa_signal_load_relaxed(bv_done) == 0 ? "yes" : "NO");
  printf("process CPU below 30%% of one core while they ran: %s\n",
         cpu < 0.3 * wall ? "yes" : "NO");
  fprintf(stderr, "tp_barrier_value: cpu %.3f s in %.3f s\n", cpu, wall);
  CHECK(hsa_signal_destroy(dep));
  CHECK(hsa_signal_destroy(bv_done));
  CHECK(hsa_signal_destroy(k_done));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return 0;
}
