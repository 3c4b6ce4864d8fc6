/* tp_held MODE N: a queue (64 slots) whose oldest op does not finish, or
 * does not look finished to the tracer, while the program submits N more
 * dispatches (no completion signal) and one last with a signal it waits
 * on.  Untraced each mode runs through; traced, the ops behind the oldest
 * are more than the tracer lets be in flight on the queue (half of it).
 *   add      a 200 ms kernel whose signal (1) the program raises by one
 *            while it runs (hsa_signal_add_relaxed): the kernel leaves 1,
 *            which the tracer, having raised the signal itself, never sees
 *            fall below its own mark.
 *   barrier  a barrier waiting for a signal the program sets only after
 *            all N + 1 dispatches are submitted.
 *   full     a barrier waiting for a signal another thread sets after
 *            1 s, while the program fills the queue (N beyond its size):
 *            the ring is full until then, and nothing may overflow it. */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include "tp_common.h"

static void *release_later(void *arg) {
  hsa_signal_t *x = arg;
  sleep(1);
  hsa_signal_store_screlease(*x, 0);
  return NULL;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "add";
  int n = argc > 2 ? atoi(argv[2]) : 100;
  sg_system_t sys;
  sg_init(&sys);
  tp_slow_kernels(200000000ll);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s, last;
  pthread_t later;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  if (!strcmp(mode, "add")) {
    tp_dispatch(q, TP_SLOW_GRID, s);
    hsa_signal_add_relaxed(s, 1); /* the kernel still runs */
  } else {
    hsa_barrier_and_packet_t b;
    sg_barrier_packet(&b, 0, &s, 1, (hsa_signal_t){0});
    sg_submit(q, &b);
    if (!strcmp(mode, "full")) pthread_create(&later, NULL, release_later, &s);
  }
  for (int i = 0; i < n; i++) tp_dispatch(q, 64, (hsa_signal_t){0});
  CHECK(hsa_signal_create(1, 0, NULL, &last));
  tp_dispatch(q, 64, last);
  if (!strcmp(mode, "barrier")) hsa_signal_store_screlease(s, 0);
  sg_wait(last);
  if (!strcmp(mode, "full")) pthread_join(later, NULL);
  printf("%s: %d dispatches behind the held op: done\n", mode, n + 1);
  if (!strcmp(mode, "add")) { /* the kernel has finished: 1 + 1 - 1 */
    hsa_signal_value_t v;
    for (int t = 0; (v = hsa_signal_load_scacquire(s)) != 1 && t < 5000; t++) usleep(1000);
    printf("add: the signal reads %ld\n", (long)v);
  }
  CHECK(hsa_signal_destroy(last));
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return 0;
}
