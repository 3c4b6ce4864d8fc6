/* tp_queues N: creates, uses (one dispatch) and destroys N queues one after
 * the other, and prints whether the number of threads grew: each queue the
 * tracer intercepts has a waiter thread, which must end with its queue. */
#include <dirent.h>

#include "tp_common.h"

static int threads(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  if (!d) return -1;
  while (readdir(d)) n++;
  closedir(d);
  return n - 2; /* . and .. */
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20;
  sg_system_t sys;
  sg_init(&sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  int before = 0;
  for (int i = 0; i < n; i++) {
    hsa_queue_t *q = tp_queue(&sys);
    hsa_signal_store_screlease(s, 1);
    tp_dispatch_n(q, s, 1);
    CHECK(hsa_queue_destroy(q));
    if (i == 0) before = threads();
  }
  int after = threads();
  printf("%d queues created and destroyed, threads grew: %s\n", n, after > before ? "YES" : "no");
  if (after > before) fprintf(stderr, "threads %d -> %d\n", before, after);
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_shut_down());
  return 0;
}
