/* sg_barrier: barrier packets wait for real dependencies.
 * 1. barrier-AND on a signal the host releases 50 ms later: not complete
 *    before, complete after;
 * 2. barrier-OR on two signals, only the second released;
 * 3. across queues: queue B waits (barrier-AND) for a kernel on queue A that
 *    runs SIMGPU_KERNEL_NS, then runs its own kernel, which must start no
 *    earlier than A's kernel ended. */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <unistd.h>

#include "common.h"

static void *release_later(void *arg) {
  usleep(50000);
  hsa_signal_subtract_screlease(*(hsa_signal_t *)arg, 1);
  return NULL;
}

static int still_pending(hsa_signal_t s) {
  return hsa_signal_wait_scacquire(s, HSA_SIGNAL_CONDITION_LT, 1, 20000000, /* 20 ms */
                                   HSA_WAIT_STATE_BLOCKED) == 1;
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  hsa_agent_t gpu = sys.gpu[0].agent;
  hsa_queue_t *qa, *qb;
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &qa));
  CHECK(hsa_queue_create(gpu, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX, UINT32_MAX, &qb));
  CHECK(hsa_amd_profiling_set_profiler_enabled(qa, 1));
  CHECK(hsa_amd_profiling_set_profiler_enabled(qb, 1));

  /* 1. barrier-AND released by the host */
  hsa_signal_t dep[2], done;
  CHECK(hsa_signal_create(1, 0, NULL, &dep[0]));
  CHECK(hsa_signal_create(1, 0, NULL, &dep[1]));
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  hsa_barrier_and_packet_t b;
  sg_barrier_packet(&b, 0, dep, 1, done);
  sg_submit(qa, &b);
  printf("barrier-and pending before release: %s\n", still_pending(done) ? "yes" : "no");
  pthread_t th;
  pthread_create(&th, NULL, release_later, &dep[0]);
  sg_wait(done);
  pthread_join(th, NULL);
  printf("barrier-and complete after release: yes\n");

  /* 2. barrier-OR: one of two */
  hsa_signal_store_screlease(done, 1);
  sg_barrier_packet(&b, 1, dep + 1, 1, done);
  b.dep_signal[1] = dep[0];              /* already 0 from step 1 ... */
  hsa_signal_store_screlease(dep[0], 1); /* ... so set it back to 1 */
  sg_submit(qa, &b);
  printf("barrier-or pending before release: %s\n", still_pending(done) ? "yes" : "no");
  pthread_create(&th, NULL, release_later, &dep[1]);
  sg_wait(done);
  pthread_join(th, NULL);
  printf("barrier-or complete after one release: yes\n");

  /* 3. cross-queue dependency on a kernel's completion signal */
  static char descriptor[4096] __attribute__((aligned(4096))); /* never run */
  hsa_signal_t ka, kb, bdone;
  CHECK(hsa_signal_create(1, 0, NULL, &ka));
  CHECK(hsa_signal_create(1, 0, NULL, &kb));
  CHECK(hsa_signal_create(1, 0, NULL, &bdone));
  hsa_barrier_and_packet_t wait_a;
  sg_barrier_packet(&wait_a, 0, &ka, 1, bdone);
  hsa_kernel_dispatch_packet_t d;
  sg_submit(qb, &wait_a); /* B waits first ... */
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)descriptor, NULL, 64, kb);
  sg_submit(qb, &d);
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)descriptor, NULL, 64, ka);
  sg_submit(qa, &d); /* ... for A's kernel submitted afterwards */
  sg_wait(kb);
  hsa_amd_profiling_dispatch_time_t ta, tb;
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, ka, &ta));
  CHECK(hsa_amd_profiling_get_dispatch_time(gpu, kb, &tb));
  printf("queue B kernel started after queue A kernel ended: %s\n",
         tb.start >= ta.end ? "yes" : "no");
  printf("kernel durations: %llu %llu\n", (unsigned long long)(ta.end - ta.start),
         (unsigned long long)(tb.end - tb.start));

  hsa_signal_t all[] = {dep[0], dep[1], done, ka, kb, bdone};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) CHECK(hsa_signal_destroy(all[i]));
  CHECK(hsa_queue_destroy(qa));
  CHECK(hsa_queue_destroy(qb));
  CHECK(hsa_shut_down());
  return 0;
}
