/* Several hosts' boot clocks on one time axis (clockmap.c).
 *
 * Each process's trace holds CLOCK_BOOTTIME/CLOCK_REALTIME pairs of its
 * host: one at its start (the header), one at its exit (the summary).  A
 * host's offset is realtime - boottime; the wall clocks of the hosts are
 * taken to agree (NTP), so the same wall-clock instant on two hosts is the
 * same moment, and each host's boot clock maps onto the reference host's:
 *
 *   offset_h(t)  = a_h + d_h * (t - t0_h)
 *                  a_h: median over the host's pairs of their offsets (less
 *                  the drift to t0_h, its first pair's boot time); d_h: the
 *                  drift, from the processes that have both pairs, weighted
 *                  by their spans; 0 when the offsets moved no more than the
 *                  pairs' own errors explain, or more than a clock can drift
 *                  (500 ppm: a step of the wall clock, said in stepped)
 *   aligned(t)   = the reference's boot time u of the same wall-clock
 *                  instant: u + offset_ref(u) = t + offset_h(t), solved
 *                  exactly for the linear offsets, plus lift_ns
 *
 * Only hosts whose traces are of one time are aligned: each host's pairs
 * span a wall-clock interval, and intervals less than RTG_CLOCKMAP_APART_NS
 * apart join (a job's hosts overlap; traces of runs hours or years apart,
 * merged to compare them, do not).  The largest such group of hosts is
 * aligned (of groups as large, the one with the first host by name); a host
 * of another group is apart, and not moved.  The reference is the first
 * host by name of that group; it stays where it is (aligned(t) = t) unless
 * another host's first pair would land before 0 (then every host is moved
 * lift_ns later, in whole seconds).  A host without pairs is not moved (but
 * lifted).  A host's uncertainty is
 * the largest error of its pairs plus the spread of their offsets (the
 * processes of one host disagreeing); the offset between two hosts is
 * uncertain by the sum of theirs and by their wall clocks' own
 * disagreement, which no pair can see. */
#ifndef RTG_CLOCKMAP_H
#define RTG_CLOCKMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Wall-clock intervals of hosts further apart are of different times. */
#define RTG_CLOCKMAP_APART_NS (3600ull * 1000000000ull)

/* One instant on both clocks; err_ns its error (0: not recorded). */
typedef struct rtg_clock_sample {
  uint64_t boot_ns, realtime_ns, err_ns;
} rtg_clock_sample;

typedef struct rtg_clock_proc {
  rtg_clock_sample start, exit;
  bool has_exit;
} rtg_clock_proc;

typedef struct rtg_clock_host {
  char *name;
  rtg_clock_proc *procs; /* the pairs of its processes (rtg_clockmap_add) */
  size_t nprocs, cap;
  /* rtg_clockmap_solve: */
  bool known;                /* it has pairs, and is placed by them */
  bool apart;                /* it has pairs, of another time than the reference's: not moved */
  uint64_t wall_lo, wall_hi; /* the wall-clock interval of its pairs */
  bool stepped;              /* its offsets moved more than a clock drifts: no drift applied */
  int64_t offset_ns;         /* a_h: realtime - boottime at t0_ns */
  uint64_t t0_ns;            /* its first pair's boot time */
  double drift;              /* d_h (ppm: times 1e6) */
  uint64_t uncertainty_ns;   /* largest pair error + spread of the offsets */
  int64_t shift_ns;          /* aligned(t0_ns) - t0_ns */
  double slope;              /* aligned(t) - t grows by slope per ns after t0_ns */
  /* rtg_clockmap_bound: matched collectives' bounds on shift_ns, from
   * coll_n instances; by_coll: they replaced the pairs' offset */
  uint64_t coll_n;
  int64_t coll_lo, coll_hi;
  bool by_coll;
} rtg_clock_host;

typedef struct rtg_clockmap {
  rtg_clock_host *hosts;
  uint32_t nhosts, cap;
  uint32_t ref;     /* the reference host; UINT32_MAX: none has pairs */
  uint64_t lift_ns; /* added to every host's times */
  bool moves;       /* some host's times move (solve): apply the map */
} rtg_clockmap;

/* The index of the host named name, added when new; UINT32_MAX when memory
 * runs out.  A zeroed rtg_clockmap is empty. */
uint32_t rtg_clockmap_host(rtg_clockmap *m, const char *name);
/* A process of host: its start pair, and its exit pair or NULL.  False
 * when memory runs out. */
bool rtg_clockmap_add(rtg_clockmap *m, uint32_t host, const rtg_clock_sample *start,
                      const rtg_clock_sample *exit);
/* Offsets, drifts, uncertainties, the reference and each host's map. */
void rtg_clockmap_solve(rtg_clockmap *m);
/* After solve: collectives bound host's shift (reference boot time minus
 * the host's boot time of one instant) to [lo, hi], from n instances
 * (matched MPI collectives: no rank leaves one before every rank entered
 * it).  The pairs' offset assumes the wall clocks agree, which no pair can
 * check; the bounds hold whatever the wall clocks say.  So the midpoint
 * replaces the pairs' map (no drift: one offset for the run), with half
 * the interval as its uncertainty, where the pairs' offset falls outside
 * the bounds or its uncertainty is larger; the lift is made again.  False
 * (nothing changes) when lo > hi (the clocks drifted, or the instances do
 * not match) or the host is not placed. */
bool rtg_clockmap_bound(rtg_clockmap *m, uint32_t host, int64_t lo, int64_t hi, uint64_t n);
/* t (host's CLOCK_BOOTTIME ns) on the common axis.  Times of one host keep
 * their order; without drift, their differences exactly. */
static inline uint64_t rtg_clockmap_apply(const rtg_clock_host *h, uint64_t lift_ns, uint64_t t) {
  uint64_t d = (uint64_t)h->shift_ns + lift_ns; /* (wrapping: a broken trace's values) */
  if (h->slope != 0) d += (uint64_t)(int64_t)(h->slope * (double)(int64_t)(t - h->t0_ns));
  return t + d;
}
void rtg_clockmap_free(rtg_clockmap *m);

#endif
