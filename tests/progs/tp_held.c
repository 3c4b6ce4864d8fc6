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
 *            the ring is full until then, and nothing may overflow it.
 *   addall   as add, with a 1 s kernel, and the first 62 dispatches behind
 *            it (as many as the ring takes while it runs) each with a
 *            signal of its own that the program raises by one as it
 *            submits it: none of them ever looks finished either, though
 *            the GPU runs them all once the kernel ends (N beyond the
 *            queue's size). */
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
  bool all = !strcmp(mode, "addall");
  tp_slow_kernels(all ? 1000000000ll : 200000000ll);
  hsa_queue_t *q = tp_queue(&sys);
  enum { RAISED = 62 };
  hsa_signal_t s, last, behind[RAISED];
  pthread_t later;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  if (!strcmp(mode, "add") || all) {
    tp_dispatch(q, TP_SLOW_GRID, s);
    hsa_signal_add_relaxed(s, 1); /* the kernel still runs */
  } else {
    hsa_barrier_and_packet_t b;
    sg_barrier_packet(&b, 0, &s, 1, (hsa_signal_t){0});
    sg_submit(q, &b);
    if (!strcmp(mode, "full")) pthread_create(&later, NULL, release_later, &s);
  }
  for (int i = 0; i < n; i++) {
    if (!all || i >= RAISED) {
      tp_dispatch(q, 64, (hsa_signal_t){0});
      continue;
    }
    CHECK(hsa_signal_create(1, 0, NULL, &behind[i]));
    tp_dispatch(q, 64, behind[i]);
    hsa_signal_add_relaxed(behind[i], 1); /* the first kernel still runs */
  }
  CHECK(hsa_signal_create(1, 0, NULL, &last));
  tp_dispatch(q, 64, last);
  if (!strcmp(mode, "barrier")) hsa_signal_store_screlease(s, 0);
  sg_wait(last);
  if (!strcmp(mode, "full")) pthread_join(later, NULL);
  printf("%s: %d dispatches behind the held op: done\n", mode, n + 1);
  if (!strcmp(mode, "add") || all) { /* the kernel has finished: 1 + 1 - 1 */
    hsa_signal_value_t v;
    for (int t = 0; (v = hsa_signal_load_scacquire(s)) != 1 && t < 5000; t++) usleep(1000);
    printf("%s: the signal reads %ld\n", mode, (long)v);
  }
  int ones = 0; /* the dispatches behind it: finished, 1 + 1 - 1 each */
  for (int i = 0; all && i < RAISED && i < n; i++) {
    ones += hsa_signal_load_scacquire(behind[i]) == 1;
    CHECK(hsa_signal_destroy(behind[i]));
  }
  if (all) printf("addall: %d of %d signals behind it read 1\n", ones, n < RAISED ? n : RAISED);
  CHECK(hsa_signal_destroy(last));
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return 0;
}
