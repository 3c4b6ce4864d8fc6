/* Time stamps for the hot paths (stamp.c).  An API call needs two times,
 * and two CLOCK_BOOTTIME reads are most of what tracing a call costs
 * (25 ns each through the vDSO, against 9 for the CPU's time-stamp counter
 * on the same machine).  Where the kernel itself keeps time with the TSC
 * (clocksource "tsc": invariant and synchronised across CPUs), a stamp is
 * the raw counter and the writer turns it into CLOCK_BOOTTIME ns with
 * points it takes of both clocks at once; elsewhere a stamp is
 * CLOCK_BOOTTIME ns already.  RTG_TSC=0 forces the latter. */
#ifndef RTG_STAMP_H
#define RTG_STAMP_H

#include "config.h"
#include "thread_state.h"

#include <stdint.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

/* Decide the kind of stamp and take the first point; before any stamp. */
RTG_HIDDEN void rtg_stamp_init(void);

static inline uint64_t rtg_stamp(void) {
#if defined(__x86_64__)
  if (rtg_cfg.tsc) return __rdtsc();
#endif
  return rtg_now();
}

/* A stamp as CLOCK_BOOTTIME ns.  For the writer and the fatal-signal path
 * (async-signal-safe): it may take a new point, and it waits up to a
 * millisecond for the second point of a young process. */
RTG_HIDDEN uint64_t rtg_stamp_ns(uint64_t stamp);

/* A call's start stamp and duration in stamps, as CLOCK_BOOTTIME ns
 * (placed from one point when both ends share an interval). */
RTG_HIDDEN void rtg_stamp_span_ns(uint64_t start, uint64_t dur, uint64_t *start_ns,
                                  uint64_t *dur_ns);

/* Take a point if the last is older than a millisecond: the writer does
 * before each drain, so every stamp it formats lies between two points or
 * just after the last. */
RTG_HIDDEN void rtg_stamp_calibrate(void);

#endif
