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
 * first handler's start):
 *   0   a handler of the program's own holds the async thread for 20 ms;
 *   5   hsa_queue_destroy: the AQL queue's handover stores its signal and
 *       sleeps from 55 on, while the handler answers at 20 and the async
 *       thread takes the set at once: the destroyer never wakes.
 * Through an intercept queue (a tracer) the destroy first hands over the
 * intercept queue's doorbell (its own event: no loss), so a second handler
 * holds the async thread from 45 to 65, when the AQL queue's handover
 * begins (55, asleep from 105): the same loss there.
 * Prints what it did; exits 0 when the destroy returned. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "common.h"

static void sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&ts, NULL);
}

static bool busy_handler(hsa_signal_value_t value, void *arg) {
  (void)value;
  (void)arg;
  sleep_ms(20);
  return false; /* once */
}

static void *second_busy(void *arg) {
  sleep_ms(45);
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
  for (int i = 0; i < 2; i++) {
    CHECK(hsa_signal_create(0, 0, NULL, &busy[i]));
    CHECK(hsa_amd_signal_async_handler(busy[i], HSA_SIGNAL_CONDITION_NE, 0, busy_handler, NULL));
  }
  sleep_ms(20); /* the async thread asleep in its wait */
  pthread_t t;
  hsa_signal_store_screlease(busy[0], 1);
  if (pthread_create(&t, NULL, second_busy, &busy[1])) return 1;
  sleep_ms(5);
  CHECK(hsa_queue_destroy(destroyed));
  printf("destroyed one queue while the async thread was busy\n");
  pthread_join(t, NULL);
  CHECK(hsa_queue_destroy(kept));
  for (int i = 0; i < 2; i++) CHECK(hsa_signal_destroy(busy[i]));
  CHECK(hsa_shut_down());
  printf("done\n");
  return 0;
}
