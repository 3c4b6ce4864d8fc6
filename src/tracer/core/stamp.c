/* TSC stamps turned into CLOCK_BOOTTIME ns (stamp.h).
 *
 * A point is a TSC reading and a CLOCK_BOOTTIME reading taken together
 * (the counter read on both sides of the clock, the point at the middle);
 * the kernel derives CLOCK_BOOTTIME from the same counter, linearly between
 * its adjustments, so a stamp between two points is placed on the line
 * through them, and one after the last on the last line's slope.  Points
 * are at least a millisecond apart, which keeps a slope's error from the
 * readings' +-10 ns around 1e-5.
 *
 * A time once written stays: a stamp placed past the last point was
 * placed on that point's slope, and the next point's line may pass below
 * it by the readings' error.  Then the stamps written next, between the
 * two points, would come out earlier than it, and a thread's next call
 * would start before its last one ended.  So a point whose line would pass
 * below the latest stamp placed past the last point comes after a point on
 * the old slope at that stamp (or, where even that would go backwards, is
 * left out). */
#include "stamp.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif

enum { NPOINTS = 256, MIN_GAP_NS = 1000000 };

typedef struct point {
  uint64_t tsc, ns;
  uint64_t mult; /* ns per tick << 32 from the point before to this one; 0: first */
} point;

/* Written by one thread at a time (the writer, under its drain lock, or a
 * dying process's last flush); a slot is filled before the count says so. */
static point points[NPOINTS];
static _Atomic uint64_t npoints;
/* The latest stamp placed past the last point (on that point's slope). */
static _Atomic uint64_t placed_past;

#if defined(__x86_64__)
static bool take(point *p) {
  for (int try = 0; try < 8; try++) {
    uint64_t a = __rdtsc(), ns = rtg_now(), b = __rdtsc();
    if (b - a < 2000 || try == 7) { /* not interrupted in between */
      p->tsc = a + (b - a) / 2;
      p->ns = ns;
      return true;
    }
  }
  return false;
}

static void put(const point *q, uint64_t n) {
  points[n % NPOINTS] = *q;
  atomic_store_explicit(&npoints, n + 1, memory_order_release);
}

static uint64_t on_line(const point *from, uint64_t mult, uint64_t tsc) {
  return from->ns + (uint64_t)(((unsigned __int128)(tsc - from->tsc) * mult) >> 32);
}

static void add(const point *p) {
  uint64_t n = atomic_load_explicit(&npoints, memory_order_relaxed);
  point q = *p;
  q.mult = 0;
  if (n) {
    const point *last = &points[(n - 1) % NPOINTS];
    if (q.tsc <= last->tsc || q.ns <= last->ns) return; /* never backwards */
    q.mult = (uint64_t)(((unsigned __int128)(q.ns - last->ns) << 32) / (q.tsc - last->tsc));
    uint64_t past = atomic_load_explicit(&placed_past, memory_order_relaxed);
    if (past > last->tsc && past < q.tsc &&
        on_line(last, q.mult, past) < on_line(last, last->mult, past)) {
      point x = {past, on_line(last, last->mult, past), last->mult};
      put(&x, n++);
      last = &points[(n - 1) % NPOINTS];
      if (q.ns <= last->ns) return;
      q.mult = (uint64_t)(((unsigned __int128)(q.ns - last->ns) << 32) / (q.tsc - last->tsc));
    }
  }
  put(&q, n);
}

/* The kernel keeps time with the TSC only when it found it invariant and
 * the same on every CPU; its choice is the one to trust. */
static bool kernel_clock_is_tsc(void) {
  int fd = open("/sys/devices/system/clocksource/clocksource0/current_clocksource",
                O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[32] = "";
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  return n >= 3 && !strncmp(buf, "tsc", 3) && (n == 3 || buf[3] == '\n');
}

static bool invariant_tsc(void) {
  unsigned a, b, c, d;
  return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d >> 8 & 1);
}
#endif

void rtg_stamp_init(void) {
#if defined(__x86_64__)
  point p;
  rtg_cfg.tsc = rtg_cfg.tsc && invariant_tsc() && kernel_clock_is_tsc() && take(&p);
  if (rtg_cfg.tsc) add(&p);
#else
  rtg_cfg.tsc = false;
#endif
}

void rtg_stamp_calibrate(void) {
#if defined(__x86_64__)
  uint64_t n = atomic_load_explicit(&npoints, memory_order_acquire);
  if (!rtg_cfg.tsc || !n) return;
  if (rtg_now() - points[(n - 1) % NPOINTS].ns < MIN_GAP_NS) return;
  point p;
  if (take(&p)) add(&p);
#endif
}

/* The point a stamp is placed from: the newest at or before it (or the
 * oldest kept), with the slope of its interval (of the last one past the
 * last point), and where the interval ends (UINT64_MAX: the last). */
typedef struct place {
  point p;
  uint64_t mult, until;
} place;

static uint64_t hint; /* the last point found: stamps come nearly in order */

static bool find(uint64_t stamp, place *out) {
  uint64_t n = atomic_load_explicit(&npoints, memory_order_acquire);
  if (n == 1) { /* no slope yet: wait for the second point */
    while (rtg_now() - points[0].ns < MIN_GAP_NS) {
    }
    rtg_stamp_calibrate();
    n = atomic_load_explicit(&npoints, memory_order_acquire);
  }
  if (n < 2) return false; /* cannot happen: the first point came with tsc */
  /* most stamps the writer places lie after the next-to-last point (the
   * last was taken as the drain began); then the one it found last time */
  uint64_t lo = n > NPOINTS ? n - NPOINTS : 0, i;
  if (stamp >= points[(n - 1) % NPOINTS].tsc) {
    i = n - 1;
  } else if (stamp >= points[(n - 2) % NPOINTS].tsc) {
    i = n - 2;
  } else {
    i = hint;
    if (i < lo || i >= n || points[i % NPOINTS].tsc > stamp ||
        (i + 1 < n && points[(i + 1) % NPOINTS].tsc <= stamp)) {
      for (i = n - 1; i > lo && points[i % NPOINTS].tsc > stamp; i--) {
      }
      hint = i;
    }
  }
  out->p = points[i % NPOINTS];
  out->mult = i + 1 < n ? points[(i + 1) % NPOINTS].mult : out->p.mult;
  out->until = i + 1 < n ? points[(i + 1) % NPOINTS].tsc : UINT64_MAX;
  return true;
}

static uint64_t place_ns(const place *pl, uint64_t stamp) {
  if (stamp >= pl->p.tsc)
    return pl->p.ns + (uint64_t)(((unsigned __int128)(stamp - pl->p.tsc) * pl->mult) >> 32);
  return pl->p.ns - (uint64_t)(((unsigned __int128)(pl->p.tsc - stamp) * pl->mult) >> 32);
}

/* A stamp placed past the last point: the next point keeps its time. */
static void note_past(uint64_t stamp) {
  uint64_t past = atomic_load_explicit(&placed_past, memory_order_relaxed);
  while (stamp > past &&
         !atomic_compare_exchange_weak_explicit(&placed_past, &past, stamp, memory_order_relaxed,
                                                memory_order_relaxed)) {
  }
}

uint64_t rtg_stamp_ns(uint64_t stamp) {
  if (!rtg_cfg.tsc) return stamp;
  place pl;
  if (!find(stamp, &pl)) return rtg_now();
  if (pl.until == UINT64_MAX) note_past(stamp);
  return place_ns(&pl, stamp);
}

void rtg_stamp_span_ns(uint64_t start, uint64_t dur, uint64_t *start_ns, uint64_t *dur_ns) {
  if (!rtg_cfg.tsc) {
    *start_ns = start;
    *dur_ns = dur;
    return;
  }
  /* the usual span first: both ends between the last two points (the
   * writer takes a point as each drain begins), as find would place them */
  uint64_t n = atomic_load_explicit(&npoints, memory_order_acquire);
  if (n >= 2) {
    const point *a = &points[(n - 2) % NPOINTS], *b = &points[(n - 1) % NPOINTS];
    if (start >= a->tsc && start + dur < b->tsc) {
      uint64_t s = a->ns + (uint64_t)(((unsigned __int128)(start - a->tsc) * b->mult) >> 32);
      uint64_t e = a->ns + (uint64_t)(((unsigned __int128)(start + dur - a->tsc) * b->mult) >> 32);
      *start_ns = s;
      *dur_ns = e - s;
      return;
    }
  }
  place pl;
  if (!find(start, &pl)) {
    *start_ns = rtg_now();
    *dur_ns = 0;
    return;
  }
  *start_ns = place_ns(&pl, start);
  uint64_t end = start + dur;
  /* an end in the same interval is placed from the same point */
  uint64_t end_ns = end < pl.until ? place_ns(&pl, end) : rtg_stamp_ns(end);
  if (pl.until == UINT64_MAX) note_past(end);
  *dur_ns = end_ns >= *start_ns ? end_ns - *start_ns : 0;
}
