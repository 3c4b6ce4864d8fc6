/* tp_crash N SIGNAL: N dispatches, then dies of SIGNAL (segv, abort, term)
 * without any cleanup: the trace must still hold the N dispatches.
 * tp_crash N wait: N dispatches, "ready" on stdout, then waits for a signal
 * to end it; tp_crash N handle: the same, and a SIGTERM it catches makes it
 * exit(7) (for rtg-trace's forwarding of signals). */
#include <signal.h>
#include <unistd.h>

#include "tp_common.h"

static volatile sig_atomic_t got;
static void on_term(int sig) {
  got = sig;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  const char *how = argc > 2 ? argv[2] : "segv";
  sg_system_t sys;
  hsa_signal_t s;
  tp_start(&sys, &s, n); /* (the queue stays: the process dies with it) */
  /* let the waiter write the last completion before dying */
  usleep(200000);
  fflush(stdout);
  if (!strcmp(how, "handle")) signal(SIGTERM, on_term);
  if (!strcmp(how, "wait") || !strcmp(how, "handle")) {
    printf("ready\n");
    fflush(stdout);
    while (!got) pause();
    printf("caught signal %d\n", (int)got);
    exit(7);
  }
  if (!strcmp(how, "abort")) abort();
  if (!strcmp(how, "term")) raise(SIGTERM);
  volatile int *p = NULL;
  return *p;
}
