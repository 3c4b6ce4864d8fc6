/* sg_stress [THREADS [PACKETS]]: each thread owns a small queue (64 slots)
 * and pushes PACKETS packets through it, every tenth a barrier-AND, all
 * completing one shared-per-thread signal; the queue wraps many times.
 * Kernels take SIMGPU_KERNEL_NS (the e2e case sets it small). */
#include <pthread.h>
#include <string.h>

#include "common.h"

static hsa_agent_t gpu;
static int npackets = 3000;
static char descriptor[4096] __attribute__((aligned(4096))); /* never run */

static void *worker(void *arg) {
  (void)arg;
  hsa_queue_t *q;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &q));
  hsa_signal_t all, zero;
  CHECK(hsa_signal_create(npackets, 0, NULL, &all));
  CHECK(hsa_signal_create(0, 0, NULL, &zero));
  for (int i = 0; i < npackets; i++) {
    if (i % 10 == 9) {
      hsa_barrier_and_packet_t b;
      sg_barrier_packet(&b, 0, &zero, 1, all);
      sg_submit(q, &b);
    } else {
      hsa_kernel_dispatch_packet_t d;
      sg_dispatch_packet(&d, (uint64_t)(uintptr_t)descriptor, NULL, 64, all);
      sg_submit(q, &d);
    }
  }
  hsa_signal_value_t v = hsa_signal_wait_scacquire(all, HSA_SIGNAL_CONDITION_EQ, 0, 30000000000ull,
                                                   HSA_WAIT_STATE_BLOCKED);
  if (v != 0) {
    fprintf(stderr, "final signal value %ld, want 0\n", (long)v);
    exit(1);
  }
  if (hsa_queue_load_read_index_scacquire(q) != (uint64_t)npackets) {
    fprintf(stderr, "read index %llu, want %d\n",
            (unsigned long long)hsa_queue_load_read_index_scacquire(q), npackets);
    exit(1);
  }
  CHECK(hsa_signal_destroy(all));
  CHECK(hsa_signal_destroy(zero));
  CHECK(hsa_queue_destroy(q));
  return NULL;
}

int main(int argc, char **argv) {
  int nthreads = argc > 1 ? atoi(argv[1]) : 4;
  if (argc > 2) npackets = atoi(argv[2]);
  if (nthreads < 1 || nthreads > 64 || npackets < 1) return 2;
  sg_system_t sys;
  sg_init(&sys);
  gpu = sys.gpu[0].agent;
  pthread_t th[64];
  for (int i = 0; i < nthreads; i++) pthread_create(&th[i], NULL, worker, NULL);
  for (int i = 0; i < nthreads; i++) pthread_join(th[i], NULL);
  CHECK(hsa_shut_down());
  printf("%d threads x %d packets: ok\n", nthreads, npackets);
  return 0;
}
