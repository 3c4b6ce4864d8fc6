/* tp_crash N SIGNAL: N dispatches, then dies of SIGNAL (segv, abort, term)
 * without any cleanup: the trace must still hold the N dispatches. */
#include <signal.h>
#include <unistd.h>

#include "tp_common.h"

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  const char *how = argc > 2 ? argv[2] : "segv";
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(n, 0, NULL, &s));
  tp_dispatch_n(q, s, n);
  /* let the waiter write the last completion before dying */
  usleep(200000);
  fflush(stdout);
  if (!strcmp(how, "abort")) abort();
  if (!strcmp(how, "term")) raise(SIGTERM);
  volatile int *p = NULL;
  return *p;
}
