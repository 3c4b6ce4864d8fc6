/* clock.c - time as HSA sees it: CLOCK_BOOTTIME nanoseconds (the clock of
 * hsa_system_get_info(TIMESTAMP) and of the profiling timestamps). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <time.h>

#include "sim.h"

uint64_t sim_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_BOOTTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sim_sleep_until(uint64_t t) {
  struct timespec ts = {(time_t)(t / 1000000000ull), (long)(t % 1000000000ull)};
  while (clock_nanosleep(CLOCK_BOOTTIME, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

void sim_sleep_ns(uint64_t ns) {
  sim_sleep_until(sim_now_ns() + ns);
}

/* Worker threads sleep for microseconds at a time; the default 50 us timer
 * slack would stretch every simulated kernel. The name shows in top/gdb. */
void sim_thread_setup(const char *name) {
  prctl(PR_SET_TIMERSLACK, 1UL);
  pthread_setname_np(pthread_self(), name);
}
