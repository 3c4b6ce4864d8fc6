/* tp_fork N [exit|_exit|many]: N dispatches, then fork; the child makes
 * three HSA calls that need no GPU (hsa_system_get_info), or 20000 with
 * many, and ends with exit() or _exit() (no atexit handlers), the parent
 * does N more.  Checks that the parent's records stay in its file and the
 * child writes its own (header, its calls and summary) either way, and
 * which threads the tracer starts in the child: none for three records,
 * its writer once records fill its buffers (the child's exit status is the
 * number of its threads besides its own).
 * tp_fork N shutdown: N dispatches, hsa_shut_down, then fork; the child
 * initialises HSA again and does N dispatches (as RCCL's test bed does);
 * once the child ended, the parent initialises HSA again and does N. Each
 * new life writes a trace of its own, each ending with its summary. */
#include <fcntl.h>
#include <sys/syscall.h>
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

/* this process's threads but the calling one, read with no allocation
 * (a fork child of a threaded process) */
static int other_threads(void) {
  int fd = open("/proc/self/task", O_RDONLY | O_DIRECTORY), n = 0;
  char buf[4096] __attribute__((aligned(8)));
  for (long got; fd >= 0 && (got = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
    for (long off = 0; off < got;) {
      unsigned short reclen;
      memcpy(&reclen, buf + off + 16, sizeof reclen); /* d_reclen, then d_type, d_name */
      n += buf[off + 19] != '.';
      off += reclen;
    }
  if (fd >= 0) close(fd);
  return n - 1;
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
  int many = argc > 2 && !strcmp(argv[2], "many");
  /* many: the child starts a thread (the tracer's writer); under gcc 12's
   * AddressSanitizer, which takes no allocator lock around fork, that
   * hangs if another thread of the parent was inside the allocator at the
   * fork, as the threads finishing the dispatches just waited for may be:
   * fork once they are idle */
  if (many) usleep(100000);
  pid_t pid = fork();
  if (pid == 0) {
    uint64_t t;
    int calls = many ? 20000 : 3;
    for (int i = 0; i < calls; i++) /* two attributes in turn: a call each, not one poll */
      hsa_system_get_info(i % 2 ? HSA_SYSTEM_INFO_TIMESTAMP : HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                          &t);
    int others = other_threads();
    if (argc > 2 && !strcmp(argv[2], "_exit")) _exit(others);
    exit(others);
  }
  int st = 0;
  waitpid(pid, &st, 0);
  hsa_signal_store_relaxed(s, n);
  tp_dispatch_n(q, s, n);
  printf("child exit %d, parent dispatched %d\n", WEXITSTATUS(st), 2 * n);
  return 0;
}
