/* tp_deadline NS: one dispatch right after a wall-clock instant: sleeps
 * until CLOCK_REALTIME NS (nanoseconds since the epoch), then submits one
 * kernel and waits for it.  Several processes given the same NS, on
 * "hosts" of their own (time namespaces with different CLOCK_BOOTTIME
 * offsets), dispatch at the same moment: their kernels, on one time axis,
 * start together (e2e 136).  Prints "pid P boot B wall W": one instant just
 * before the submission on both clocks (the tightest of five reads), so
 * that a test can tell where on the wall clock the kernel really started
 * when the machine let a process run late. */
#include <errno.h>
#include <time.h>
#include <unistd.h>

#include "tp_common.h"

static uint64_t ns(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: tp_deadline REALTIME_NS\n");
    return 2;
  }
  unsigned long long at = strtoull(argv[1], NULL, 10);
  sg_system_t sys;
  sg_init(&sys);
  hsa_queue_t *q = tp_queue(&sys);
  hsa_signal_t s;
  CHECK(hsa_signal_create(1, 0, NULL, &s));
  struct timespec ts = {(time_t)(at / 1000000000ull), (long)(at % 1000000000ull)};
  while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
  uint64_t boot = 0, wall = 0, bracket = UINT64_MAX;
  for (int i = 0; i < 5; i++) {
    uint64_t b1 = ns(CLOCK_BOOTTIME), w = ns(CLOCK_REALTIME), b2 = ns(CLOCK_BOOTTIME);
    if (b2 - b1 < bracket) bracket = b2 - b1, boot = b1 + (b2 - b1) / 2, wall = w;
  }
  tp_dispatch_n(q, s, 1);
  printf("pid %d boot %llu wall %llu\n", (int)getpid(), (unsigned long long)boot,
         (unsigned long long)wall);
  CHECK(hsa_signal_destroy(s));
  CHECK(hsa_queue_destroy(q));
  CHECK(hsa_shut_down());
  return 0;
}
