/* tp_fork N [exit|_exit]: N dispatches, then fork; the child makes three
 * HSA calls that need no GPU (hsa_system_get_info) and ends with exit() or
 * _exit() (no atexit handlers), the parent does N more.  Checks that the
 * parent's records stay in its file and the child writes its own (header,
 * its calls and summary) either way.
 * tp_fork N shutdown: N dispatches, hsa_shut_down, then fork; the child
 * initialises HSA again and does N dispatches (as RCCL's test bed does);
 * once the child ended, the parent initialises HSA again and does N. Each
 * new life writes a trace of its own, each ending with its summary. */
#include <sys/wait.h>
#include <unistd.h>

#include "tp_common.h"

/* hsa_init, N dispatches on a fresh queue, everything released */
static void life(int n, int shut_down) {
  sg_system_t sys;
  hsa_signal_t s;
  hsa_queue_t *q = tp_start(&sys, &s, n);
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  if (shut_down) CHECK(hsa_shut_down());
}

static int after_shut_down(int n) {
  life(n, 1);
  pid_t pid = fork();
  if (pid == 0) {
    life(n, 0);
    exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  life(n, 0);
  printf("child exit %d, %d dispatches in each of 3 lives\n", WEXITSTATUS(st), n);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 5;
  if (argc > 2 && !strcmp(argv[2], "shutdown")) return after_shut_down(n);
  sg_system_t sys;
  hsa_signal_t s;
  hsa_queue_t *q = tp_start(&sys, &s, n);
  pid_t pid = fork();
  if (pid == 0) {
    uint64_t t;
    for (int i = 0; i < 3; i++) hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP, &t);
    if (argc > 2 && !strcmp(argv[2], "_exit")) _exit(0);
    exit(0);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  hsa_signal_store_relaxed(s, n);
  tp_dispatch_n(q, s, n);
  printf("child exit %d, parent dispatched %d\n", WEXITSTATUS(st), 2 * n);
  return 0;
}
