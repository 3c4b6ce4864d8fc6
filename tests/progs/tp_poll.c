/* tp_poll N: a runtime spinning, as HIP >= 6 does: while a kernel runs
 * (SIMGPU_KERNEL_NS), N hsa_signal_load_relaxed calls on one signal, then
 * hsa_signal_wait_scacquire with a 100 us timeout until the kernel is done,
 * hsa_queue_load_read_index_relaxed 500 times, and 300 more loads that
 * are the last HSA calls of the process (so their record is held at exit).
 * Meanwhile one thread makes 1000 loads of another signal and exits, and
 * another makes 777 loads of a third and blocks until the process exits.
 * Prints, per function and first argument, how many calls it made:
 *   calls FUNCTION ARG=VALUE COUNT
 * (ARG=VALUE as the trace writes the first argument). */
#include <pthread.h>

#include "tp_common.h"

static hsa_signal_t exiting_sig, blocked_sig;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int blocked_ready;

static void *exiting(void *arg) {
  (void)arg;
  for (int i = 0; i < 1000; i++) hsa_signal_load_relaxed(exiting_sig);
  return NULL; /* its held record is written at its exit */
}

static void *blocked(void *arg) {
  (void)arg;
  for (int i = 0; i < 777; i++) hsa_signal_load_relaxed(blocked_sig);
  pthread_mutex_lock(&mu);
  blocked_ready = 1;
  pthread_cond_broadcast(&cv);
  for (;;) pthread_cond_wait(&cv, &mu); /* until the process exits */
  return NULL;
}

static void print_calls(const char *fn, const char *arg, uint64_t handle, long n) {
  printf("calls %s %s=0x%llx %ld\n", fn, arg, (unsigned long long)handle, n);
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 100000;
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s, done;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  CHECK(hsa_signal_create(1, 0, NULL, &done));
  CHECK(hsa_signal_create(3, 0, NULL, &exiting_sig));
  CHECK(hsa_signal_create(4, 0, NULL, &blocked_sig));
  uint64_t freq;
  CHECK(hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY, &freq));

  pthread_t te, tb;
  pthread_create(&te, NULL, exiting, NULL);
  pthread_create(&tb, NULL, blocked, NULL);

  hsa_kernel_dispatch_packet_t d;
  sg_dispatch_packet(&d, (uint64_t)(uintptr_t)tp_descriptor, NULL, 64, done);
  sg_submit(q, &d);
  volatile int64_t sink = 0;
  for (long i = 0; i < n; i++) sink += hsa_signal_load_relaxed(s);
  long waits = 0, timeouts = 0;
  for (;;) {
    waits++;
    hsa_signal_value_t v = hsa_signal_wait_scacquire(done, HSA_SIGNAL_CONDITION_LT, 1, freq / 10000,
                                                     HSA_WAIT_STATE_ACTIVE);
    if (v < 1) break;
    timeouts++;
  }
  for (int i = 0; i < 500; i++) sink += (int64_t)hsa_queue_load_read_index_relaxed(q);

  pthread_join(te, NULL);
  pthread_mutex_lock(&mu);
  while (!blocked_ready) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);

  print_calls("hsa_signal_load_relaxed", "signal", s.handle, n + 300);
  print_calls("hsa_signal_load_relaxed", "signal", exiting_sig.handle, 1000);
  print_calls("hsa_signal_load_relaxed", "signal", blocked_sig.handle, 777);
  print_calls("hsa_signal_wait_scacquire", "signal", done.handle, waits);
  print_calls("hsa_queue_load_read_index_relaxed", "queue", (uint64_t)(uintptr_t)q, 500);
  printf("timed out waits: %s\n", timeouts > 0 ? "some" : "none");
  fflush(stdout);
  for (int i = 0; i < 300; i++) sink += hsa_signal_load_relaxed(s);
  (void)sink;
  return 0; /* no hsa_shut_down: the tracer's exit handler writes the rest */
}
