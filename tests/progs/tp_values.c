/* tp_values: what the application sees of a signal while its kernel runs.
 * A dispatch of SIMGPU_KERNEL_NS (the test sets 200 ms) completes a signal
 * of value 1; while it runs, untraced, every read gives 1.  The program
 * prints what it saw, then how long each wait took, in whole multiples of
 * 50 ms (0 = at once):
 *   load         hsa_signal_load_relaxed and _scacquire
 *   wait NE 1    a 20 ms wait for "not 1": times out, returns 1
 *   wait LT 2    "below 2": holds at once, returns 1
 *   wait_any LT 2  the same through hsa_amd_signal_wait_any: index 0, 1
 *   wait LT 1    the completion itself: the kernel's end, returns 0
 * and two handlers registered (hsa_amd_signal_async_handler) right after
 * the submit:
 *   async NE 1   runs once, at the kernel's end, with 0
 *   async GTE 2  never runs while the kernel runs; runs with 5 when the
 *                program stores 5 after the kernel's end */
#include "tp_common.h"

#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static unsigned fifties(uint64_t t0) {
  return (unsigned)((now_ns() - t0) / 50000000ull);
}

typedef struct seen {
  _Atomic int runs;
  _Atomic hsa_signal_value_t value;
  _Atomic uint64_t at;
} seen;

static bool on_signal(hsa_signal_value_t value, void *arg) {
  seen *s = arg;
  atomic_store(&s->value, value);
  atomic_store(&s->at, now_ns());
  atomic_fetch_add(&s->runs, 1);
  return false;
}

/* Waits up to 2 s for a handler to have run n times. */
static void await_runs(seen *s, int n) {
  for (int i = 0; i < 2000 && atomic_load(&s->runs) < n; i++) {
    struct timespec ts = {0, 1000000};
    nanosleep(&ts, NULL);
  }
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t sig;
  CHECK(hsa_signal_create(1, 0, NULL, &sig));
  hsa_kernel_dispatch_packet_t d;
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, sig);
  sg_submit(q, &d);
  uint64_t submitted = now_ns();
  static seen ne, gte;
  CHECK(hsa_amd_signal_async_handler(sig, HSA_SIGNAL_CONDITION_NE, 1, on_signal, &ne));
  CHECK(hsa_amd_signal_async_handler(sig, HSA_SIGNAL_CONDITION_GTE, 2, on_signal, &gte));

  printf("load relaxed %ld scacquire %ld\n", (long)hsa_signal_load_relaxed(sig),
         (long)hsa_signal_load_scacquire(sig));
  uint64_t t0 = now_ns();
  hsa_signal_value_t v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_NE, 1, 20000000ull,
                                                   HSA_WAIT_STATE_BLOCKED);
  printf("wait NE 1: %ld after %u\n", (long)v, fifties(t0));
  t0 = now_ns();
  v = hsa_signal_wait_relaxed(sig, HSA_SIGNAL_CONDITION_LT, 2, UINT64_MAX, HSA_WAIT_STATE_BLOCKED);
  printf("wait LT 2: %ld after %u\n", (long)v, fifties(t0));
  t0 = now_ns();
  hsa_signal_condition_t cond = HSA_SIGNAL_CONDITION_LT;
  hsa_signal_value_t cmp = 2, got = -1;
  uint32_t k =
      hsa_amd_signal_wait_any(1, &sig, &cond, &cmp, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, &got);
  printf("wait_any LT 2: index %u value %ld after %u\n", k, (long)got, fifties(t0));
  t0 = now_ns();
  v = hsa_signal_wait_scacquire(sig, HSA_SIGNAL_CONDITION_LT, 1, UINT64_MAX,
                                HSA_WAIT_STATE_BLOCKED);
  printf("wait LT 1: %ld after %u\n", (long)v, fifties(t0) >= 2 ? 2u : 0u);
  printf("load after %ld\n", (long)hsa_signal_load_relaxed(sig));
  await_runs(&ne, 1);
  printf("async NE 1: %d run, value %ld, at the kernel's end: %s\n", atomic_load(&ne.runs),
         (long)atomic_load(&ne.value),
         atomic_load(&ne.at) - submitted >= 150000000ull ? "yes" : "no");
  int early = atomic_load(&gte.runs);
  hsa_signal_store_screlease(sig, 5);
  await_runs(&gte, 1);
  printf("async GTE 2: %d runs before the store of 5; then value %ld\n", early,
         (long)atomic_load(&gte.value));
  CHECK(hsa_signal_destroy(sig));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return 0;
}
