/* clock.c - time as HSA sees it: CLOCK_BOOTTIME nanoseconds (the clock of
 * hsa_system_get_info(TIMESTAMP) and of the profiling timestamps). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

#include "sim_core.h"

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

/* The GPU's clock counter: the same clock at 1 GHz, so ROCR's GPU-to-system
 * time translation is the identity and a dispatch's end - start is exactly
 * its simulated duration. ROCR divides by the difference of two readings, so
 * successive readings are made strictly increasing. */
uint64_t sim_clock_counter(void) {
  static uint64_t last;
  uint64_t t = sim_now_ns(), prev = __atomic_load_n(&last, __ATOMIC_RELAXED);
  do {
    if (t <= prev) t = prev + 1;
  } while (!__atomic_compare_exchange_n(&last, &prev, t, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
  return t;
}

/* Worker threads sleep for microseconds at a time; the default 50 us timer
 * slack would stretch every simulated kernel. The name shows in top/gdb.
 * With SIMGPU_CPUS the simulated GPU's threads run on those CPUs, apart
 * from the program's: a real GPU takes no host core. */
void sim_thread_setup(const char *name) {
  prctl(PR_SET_TIMERSLACK, 1UL);
  pthread_setname_np(pthread_self(), name);
  cpu_set_t set;
  CPU_ZERO(&set);
  for (int c = 0; c < 1024; c++)
    if (sim_cfg.cpus[c / 64] >> (c % 64) & 1) CPU_SET(c, &set);
  if (CPU_COUNT(&set)) pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}
