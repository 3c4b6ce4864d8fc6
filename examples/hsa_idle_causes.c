/* tp_hsa_idle: one known cause of GPU0's idle time in a plain HSA program,
 * injected and timed by the program itself, for rtg-convert --analyze's
 * ground-truth test (tests/e2e/157-analyze-hsa.sh). Five times: the
 * injected part, then a dispatch on GPU0 and a wait for it.
 *   tp_hsa_idle cpu   20 ms in no HSA call (a sleep)
 *   tp_hsa_idle wait  a dispatch on GPU1 and hsa_signal_wait_scacquire on
 *                     it: GPU0 idles while its thread waits (needs
 *                     SIMGPU_GPUS=2 and SIMGPU_KERNEL_NS=NS)
 * Prints "injected <cause> <ns> ns in <n> parts" (CLOCK_BOOTTIME around the
 * injected part only). */
#include "tp_common.h"

#include <stdio.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One dispatch and a wait for it: the injected waits (GPU1's) with
 * hsa_signal_wait_scacquire, GPU0's own with hsa_signal_wait_relaxed, so
 * that the test can tell them apart by call. */
static void run_one(hsa_queue_t *q, bool injected) {
  hsa_signal_t sig;
  CHECK(hsa_signal_create(1, 0, NULL, &sig));
  hsa_kernel_dispatch_packet_t d;
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, sig);
  sg_submit(q, &d);
  if (injected)
    while (hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                     HSA_WAIT_STATE_BLOCKED) >= 1) {
    }
  else
    while (hsa_signal_wait_relaxed(sig, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                   HSA_WAIT_STATE_BLOCKED) >= 1) {
    }
  CHECK(hsa_signal_destroy(sig));
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "cpu";
  bool wait = !strcmp(mode, "wait");
  if (!wait && strcmp(mode, "cpu")) {
    fprintf(stderr, "usage: tp_hsa_idle cpu|wait\n");
    return 2;
  }
  sg_system_t sys;
  sg_init(&sys);
  if (wait && sys.ngpus < 2) {
    fprintf(stderr, "tp_hsa_idle wait: needs two GPUs (SIMGPU_GPUS=2)\n");
    return 2;
  }
  hsa_queue_t *q0 = tp_queue(&sys), *q1 = NULL;
  if (wait)
    CHECK(hsa_queue_create(sys.gpu[1].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                           UINT32_MAX, &q1));
  run_one(q0, false); /* GPU0's first op: the idle after it is the program's */
  uint64_t injected = 0;
  for (int i = 0; i < 5; i++) {
    uint64_t t0 = now_ns();
    if (wait) {
      run_one(q1, true);
    } else {
      struct timespec ts = {0, 20000000};
      while (nanosleep(&ts, &ts)) {
      }
    }
    injected += now_ns() - t0;
    run_one(q0, false);
  }
  printf("injected %s %llu ns in 5 parts\n", wait ? "host_sync" : "host_outside_api",
         (unsigned long long)injected);
  if (q1) CHECK(hsa_queue_destroy(q1));
  CHECK(hsa_queue_destroy(q0));
  CHECK(hsa_shut_down());
  return 0;
}
