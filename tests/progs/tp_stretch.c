/* tp_stretch: how long the GPU timeline of a small program takes, for
 * scripts/bench-tracer.sh (its stretch part) to compare traced with untraced runs.
 *   tp_stretch b2b N     N dispatches over two queues, back to back, each
 *                        with its own completion signal; then wait for all
 *   tp_stretch wait N    the same, waiting for each dispatch to complete
 *                        before submitting the next (code that synchronizes)
 *   tp_stretch waitany N the same, each wait a hsa_amd_signal_wait_any on the
 *                        dispatch's signal and one nothing ever signals
 *   tp_stretch dep N     each dispatch on one queue followed by a barrier
 *                        on the other that depends on its signal, waiting
 *                        for the barrier (a stream waiting on another's
 *                        event): nobody waits on the dispatch's signal but
 *                        the GPU; prints "handler_tid N", the thread
 *                        that runs async handlers
 *   tp_stretch handler N the same, learning of each completion from an
 *                        async handler registered on the dispatch's signal
 *                        before it is submitted (as HIP >= 6 does); prints
 *                        "handler_tid N", the thread that ran the handlers
 *   tp_stretch reuse N   N dispatches on one queue completing one signal
 *                        with a handler (registered before each, as HIP
 *                        does): each is waited for by polling the signal's
 *                        memory (amd_signal_t: no call a tool sees), and
 *                        the signal is set back to 1 for the
 *                        next at once; prints "raised N", the times the
 *                        value read just after a submission was above 1
 * The kernels take SIMGPU_KERNEL_NS each on the simulated GPU.  Prints
 * "elapsed_ns N": from the first submission to the last completion seen. */
#include <hsa/amd_hsa_signal.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tp_common.h"

static uint64_t now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Wait for s with hsa_amd_signal_wait_any beside a signal that never
 * changes, as a program waiting for "this kernel or that event" does. */
static void wait_any_for(hsa_signal_t idle, hsa_signal_t s) {
  hsa_signal_t sig[2] = {idle, s};
  hsa_signal_condition_t c[2] = {HSA_SIGNAL_CONDITION_EQ, HSA_SIGNAL_CONDITION_LT};
  hsa_signal_value_t v[2] = {0, 1};
  while (hsa_amd_signal_wait_any(2, sig, c, v, UINT64_MAX, HSA_WAIT_STATE_BLOCKED, NULL) != 1) {
  }
}

static sem_t completed;
static _Atomic long handler_tid;

static bool on_complete(hsa_signal_value_t value, void *arg) {
  (void)value;
  (void)arg;
  handler_tid = syscall(SYS_gettid);
  sem_post(&completed);
  return false;
}

static bool on_reuse(hsa_signal_value_t value, void *arg) {
  (void)value;
  (void)arg;
  return false;
}

static int reuse(sg_system_t *sys, int n) {
  hsa_queue_t *q;
  CHECK(hsa_queue_create(sys->gpu[0].agent, 1024, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                         UINT32_MAX, &q));
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  /* the value in the signal's memory (amd_signal_t), as the GPU and HIP's
   * own polling read it: no call a tool could see */
  volatile hsa_signal_value_t *value = &((amd_signal_t *)(uintptr_t)s.handle)->value;
  int raised = 0;
  uint64_t t0 = now();
  for (int i = 0; i < n; i++) {
    CHECK(hsa_amd_signal_async_handler(s, HSA_SIGNAL_CONDITION_LT, 1, on_reuse, NULL));
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, s);
    sg_submit(q, &d);
    raised += *value > 1;
    while (*value > 0) {
    }
    if (i + 1 < n) hsa_signal_store_screlease(s, 1);
  }
  uint64_t t1 = now();
  printf("elapsed_ns %llu\nraised %d\n", (unsigned long long)(t1 - t0), raised);
  hsa_signal_destroy(s);
  hsa_queue_destroy(q);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "b2b";
  int n = argc > 2 ? atoi(argv[2]) : 200;
  if (n < 1 || n > 100000) n = 200;
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q[2];
  for (int i = 0; i < 2; i++)
    CHECK(hsa_queue_create(sys.gpu[0].agent, 1024, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                           UINT32_MAX, &q[i]));
  hsa_signal_t *s = calloc((size_t)n, sizeof *s);
  if (!s) return 1;
  for (int i = 0; i < n; i++) CHECK(hsa_signal_create(1, 0, NULL, &s[i]));
  bool wait_each = !strcmp(mode, "wait"), wait_any = !strcmp(mode, "waitany");
  bool handler = !strcmp(mode, "handler"), dep = !strcmp(mode, "dep");
  if (!strcmp(mode, "reuse")) return reuse(&sys, n);
  hsa_signal_t *t = calloc((size_t)n, sizeof *t);
  if (!t) return 1;
  for (int i = 0; dep && i < n; i++) CHECK(hsa_signal_create(1, 0, NULL, &t[i]));
  sem_init(&completed, 0, 0);
  hsa_signal_t idle;
  CHECK(hsa_signal_create(1, 0, NULL, &idle));
  if (dep) { /* which thread runs async handlers: it should complete the dispatches */
    CHECK(hsa_amd_signal_async_handler(idle, HSA_SIGNAL_CONDITION_LT, 1, on_complete, NULL));
    hsa_signal_store_screlease(idle, 0);
    while (sem_wait(&completed) != 0) {
    }
    hsa_signal_store_screlease(idle, 1);
  }
  uint64_t t0 = now();
  for (int i = 0; i < n; i++) {
    hsa_kernel_dispatch_packet_t d;
    sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, s[i]);
    if (handler)
      CHECK(hsa_amd_signal_async_handler(s[i], HSA_SIGNAL_CONDITION_LT, 1, on_complete, NULL));
    sg_submit(q[dep ? 0 : i % 2], &d);
    if (dep) {
      hsa_barrier_and_packet_t b;
      sg_barrier_packet(&b, 0, &s[i], 1, t[i]);
      sg_submit(q[1], &b);
      sg_wait(t[i]);
    }
    if (handler)
      while (sem_wait(&completed) != 0) {
      }
    if (wait_each) sg_wait(s[i]);
    if (wait_any) wait_any_for(idle, s[i]);
  }
  for (int i = 0; i < n; i++) sg_wait(s[i]);
  uint64_t t1 = now();
  printf("elapsed_ns %llu\n", (unsigned long long)(t1 - t0));
  if (handler || dep) printf("handler_tid %ld\n", (long)handler_tid);
  for (int i = 0; i < n; i++) hsa_signal_destroy(s[i]);
  for (int i = 0; dep && i < n; i++) hsa_signal_destroy(t[i]);
  free(t);
  hsa_signal_destroy(idle);
  for (int i = 0; i < 2; i++) hsa_queue_destroy(q[i]);
  free(s);
  return 0;
}
