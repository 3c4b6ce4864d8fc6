/* tp_shared N: two threads, each with its own queue, submit N dispatches
 * each that all complete ONE signal (initial value 2N), at the same time,
 * so packets of both queues are in flight on it together.  The program
 * waits for 0 and then reads the signal's own dispatch times, which must
 * be those of one kernel (end - start == SIMGPU_KERNEL_NS), with and
 * without the tracer. */
#include <pthread.h>

#include "tp_common.h"

static hsa_queue_t *queues[2];
static hsa_signal_t shared;
static int n;

static void *submitter(void *arg) {
  hsa_queue_t *q = arg;
  for (int i = 0; i < n; i++) {
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, shared);
    sg_submit(q, &d);
  }
  return NULL;
}

int main(int argc, char **argv) {
  n = argc > 1 ? atoi(argv[1]) : 100;
  sg_system_t sys;
  sg_init(&sys);
  hsa_agent_t gpu = sys.gpu[0].agent;
  CHECK(hsa_signal_create(2 * n, 0, NULL, &shared));
  pthread_t th[2];
  for (int i = 0; i < 2; i++) {
    CHECK(hsa_queue_create(gpu, 256, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX,
                           &queues[i]));
    CHECK(hsa_amd_profiling_set_profiler_enabled(queues[i], 1));
  }
  for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, submitter, queues[i]);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  sg_wait(shared);
  hsa_amd_profiling_dispatch_time_t t;
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, shared, &t));
  uint64_t want = sg_env_u64("SIMGPU_KERNEL_NS", 20000);
  printf("value %ld, own times of one kernel: %s\n", (long)hsa_signal_load_relaxed(shared),
         t.end - t.start == want ? "yes" : "NO");
  CHECK(hsa_signal_destroy(shared));
  for (int i = 0; i < 2; i++) CHECK(hsa_queue_destroy(queues[i]));
  CHECK(hsa_shut_down());
  return 0;
}
