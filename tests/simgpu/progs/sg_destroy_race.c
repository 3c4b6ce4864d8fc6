/* sg_destroy_race - a queue destroyed while ROCR's async-events thread is
 * busy in handlers.
 *
 * ROCR's queue destructor hands over to its handler on that thread: it
 * stores the queue's inactive signal, then sleeps on the event that every
 * queue's signals share until the handler answers.  If the answer comes
 * after the destroyer's last look at the signal but before it sleeps, the
 * event is left set, and the async thread, back in its own wait on the same
 * event (another queue is alive), takes it: the destroyer sleeps forever
 * (ROCR without KFD's event age: 5.2, and later ones on older kernels).
 *
 * Made for SIMGPU_WAIT_ENTRY_US=50000, where each blocking wait on one
 * event begins 50 ms late, as a preempted thread's would (ms from the
 * call of hsa_queue_destroy):
 *   -   a handler of the program's own holds the async thread from before
 *       the call until 15;
 *   0   the AQL queue's handover stores its signal and sleeps from 50 on,
 *       the handler's answer comes at 15, and the async thread, back in
 *       its wait, takes the set at once: the destroyer never wakes.
 * Through an intercept queue (a tracer) the destroy first hands over the
 * intercept queue's doorbell (its own event: no loss), so a second handler
 * holds the async thread from 40 to 60, when the AQL queue's handover
 * begins (50, asleep from 100): the same loss there.
 * Prints what it did; exits 0 when the destroy returned. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "common.h"

static _Atomic int in_first_handler, destroy_called;

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

static bool first_handler(hsa_signal_value_t value, void *arg) {
  (void)value;
  (void)arg;
  atomic_store(&in_first_handler, 1);
  while (!atomic_load(&destroy_called)) sleep_ms(1);
  sleep_ms(15);
  return false; /* once */
}

static bool second_handler(hsa_signal_value_t value, void *arg) {
  (void)value;
  (void)arg;
  sleep_ms(20);
  return false;
}

static void *second_busy(void *arg) {
  while (!atomic_load(&destroy_called)) sleep_ms(1);
  sleep_ms(40);
  hsa_signal_store_screlease(*(hsa_signal_t *)arg, 1);
  return NULL;
}

int main(void) {
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *kept, *destroyed;
  CHECK(hsa_queue_create(sys.gpu[0].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                         UINT32_MAX, &kept));
  CHECK(hsa_queue_create(sys.gpu[0].agent, 64, HSA_QUEUE_TYPE_MULTI, NULL, NULL, UINT32_MAX,
                         UINT32_MAX, &destroyed));
  hsa_signal_t busy[2];
  for (int i = 0; i < 2; i++) CHECK(hsa_signal_create(0, 0, NULL, &busy[i]));
  CHECK(hsa_amd_signal_async_handler(busy[0], HSA_SIGNAL_CONDITION_NE, 0, first_handler, NULL));
  CHECK(hsa_amd_signal_async_handler(busy[1], HSA_SIGNAL_CONDITION_NE, 0, second_handler, NULL));
  pthread_t t;
  if (pthread_create(&t, NULL, second_busy, &busy[1])) return 1;
  hsa_signal_store_screlease(busy[0], 1);
  while (!atomic_load(&in_first_handler)) sleep_ms(1);
  atomic_store(&destroy_called, 1);
  CHECK(hsa_queue_destroy(destroyed));
  printf("destroyed one queue while the async thread was busy\n");
  pthread_join(t, NULL);
  CHECK(hsa_queue_destroy(kept));
  for (int i = 0; i < 2; i++) CHECK(hsa_signal_destroy(busy[i]));
  CHECK(hsa_shut_down());
  printf("done\n");
  return 0;
}
