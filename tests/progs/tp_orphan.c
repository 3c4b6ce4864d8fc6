/* tp_orphan N: destroys a signal while the kernel that completes it still
 * runs (a 1 s kernel), creates another signal at once (the runtime hands
 * out the same memory, value 5), then submits N dispatches without a
 * completion signal on the same queue and waits for the last of them.
 * Untraced the program goes on: nothing waits on the destroyed signal.
 * Traced, the old kernel's completion can no longer be seen in that
 * memory: the tracer gives the destroy RTG_EXIT_WAIT_MS, then counts the
 * op as unfinished; its queue goes on. */
#define _GNU_SOURCE

#include "tp_common.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100;
  sg_system_t sys;
  sg_init(&sys);
  tp_slow_kernels(1000000000ll);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s, again, last;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  tp_dispatch(q, TP_SLOW_GRID, s);
  CHECK(hsa_signal_destroy(s)); /* the kernel still runs */
  CHECK(hsa_signal_create(5, 0, NULL, &again));
  printf("signal memory reused: %s\n", again.handle == s.handle ? "yes" : "no");
  for (int i = 0; i < n; i++) tp_dispatch(q, 64, (hsa_signal_t){0});
  CHECK(hsa_signal_create(1, 0, NULL, &last));
  tp_dispatch(q, 64, last);
  sg_wait(last);
  printf("%d dispatches after the destroyed signal's kernel: done\n", n + 1);
  CHECK(hsa_signal_destroy(last));
  CHECK(hsa_signal_destroy(again));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return 0;
}
