/* Several hosts' boot clocks on one time axis (clockmap.h). */
#include "clockmap.h"

#include <stdlib.h>
#include <string.h>

/* More than any clock drifts (NTP slews at most 500 ppm): a step. */
#define MAX_DRIFT 500e-6

uint32_t rtg_clockmap_host(rtg_clockmap *m, const char *name) {
  for (uint32_t i = 0; i < m->nhosts; i++)
    if (!strcmp(m->hosts[i].name, name)) return i;
  if (m->nhosts == m->cap) {
    uint32_t nc = m->cap ? m->cap * 2 : 8;
    rtg_clock_host *nh = realloc(m->hosts, nc * sizeof *nh);
    if (!nh) return UINT32_MAX;
    m->hosts = nh;
    m->cap = nc;
  }
  char *copy = strdup(name);
  if (!copy) return UINT32_MAX;
  m->hosts[m->nhosts] = (rtg_clock_host){.name = copy};
  return m->nhosts++;
}

bool rtg_clockmap_add(rtg_clockmap *m, uint32_t host, const rtg_clock_sample *start,
                      const rtg_clock_sample *exit) {
  rtg_clock_host *h = &m->hosts[host];
  if (h->nprocs == h->cap) {
    size_t nc = h->cap ? h->cap * 2 : 4;
    rtg_clock_proc *np = realloc(h->procs, nc * sizeof *np);
    if (!np) return false;
    h->procs = np;
    h->cap = nc;
  }
  h->procs[h->nprocs++] = (rtg_clock_proc){*start, exit ? *exit : (rtg_clock_sample){0}, !!exit};
  return true;
}

static int64_t offset_of(const rtg_clock_sample *s) {
  return (int64_t)(s->realtime_ns - s->boot_ns);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The drift of a host from the processes with both pairs, weighted by
 * their spans: 0 when the offsets moved within the pairs' errors. */
static void solve_drift(rtg_clock_host *h) {
  double moved = 0, span = 0, err = 0;
  for (size_t i = 0; i < h->nprocs; i++) {
    const rtg_clock_proc *p = &h->procs[i];
    if (!p->has_exit || p->exit.boot_ns <= p->start.boot_ns) continue;
    moved += (double)(int64_t)((uint64_t)offset_of(&p->exit) - (uint64_t)offset_of(&p->start));
    span += (double)(p->exit.boot_ns - p->start.boot_ns);
    err += (double)(p->start.err_ns + p->exit.err_ns);
  }
  h->drift = 0;
  if (span <= 0 || (moved <= err && -moved <= err)) return;
  double d = moved / span;
  if (d > MAX_DRIFT || d < -MAX_DRIFT)
    h->stepped = true;
  else
    h->drift = d;
}

/* Offset at t0 (median), uncertainty (largest error + spread). */
static bool solve_offset(rtg_clock_host *h) {
  size_t n = 0;
  int64_t *o = malloc(2 * h->nprocs * sizeof *o);
  if (!o) return false;
  h->t0_ns = UINT64_MAX;
  for (size_t i = 0; i < h->nprocs; i++)
    if (h->procs[i].start.boot_ns < h->t0_ns) h->t0_ns = h->procs[i].start.boot_ns;
  uint64_t maxerr = 0;
  for (size_t i = 0; i < h->nprocs; i++)
    for (int k = 0; k < 1 + h->procs[i].has_exit; k++) {
      const rtg_clock_sample *s = k ? &h->procs[i].exit : &h->procs[i].start;
      double since = (double)(int64_t)(s->boot_ns - h->t0_ns);
      o[n++] = (int64_t)((uint64_t)offset_of(s) - (uint64_t)(int64_t)(h->drift * since));
      if (s->err_ns > maxerr) maxerr = s->err_ns;
    }
  qsort(o, n, sizeof *o, cmp_i64);
  /* (the middle two's mean, without overflowing) */
  /* (in unsigned arithmetic: a broken trace's values may be anything) */
  uint64_t lo = (uint64_t)o[n / 2 - (n % 2 ? 0 : 1)], hi = (uint64_t)o[n / 2];
  h->offset_ns = (int64_t)(lo + (hi - lo) / 2);
  h->uncertainty_ns = maxerr + ((uint64_t)o[n - 1] - (uint64_t)o[0]);
  free(o);
  return true;
}

/* The wall-clock interval of a host's pairs. */
static void wall_span(rtg_clock_host *h) {
  h->wall_lo = UINT64_MAX, h->wall_hi = 0;
  for (size_t i = 0; i < h->nprocs; i++)
    for (int k = 0; k < 1 + h->procs[i].has_exit; k++) {
      uint64_t w = (k ? &h->procs[i].exit : &h->procs[i].start)->realtime_ns;
      if (w < h->wall_lo) h->wall_lo = w;
      if (w > h->wall_hi) h->wall_hi = w;
    }
}

/* Group the known hosts by joined wall-clock intervals (group[i], 0 for
 * a host without pairs) and keep the largest group (ties: the one with the
 * first host by name); the others are apart.  False when out of memory. */
static bool keep_one_time(rtg_clockmap *m) {
  uint32_t n = m->nhosts, *order = malloc(n * sizeof *order), *group = calloc(n, sizeof *group);
  uint32_t *size = calloc(n + 1, sizeof *size);
  if (!order || !group || !size) {
    free(order), free(group), free(size);
    return false;
  }
  uint32_t nk = 0;
  for (uint32_t i = 0; i < n; i++) /* the known hosts by the start of their interval */
    if (m->hosts[i].known) {
      uint32_t j = nk++;
      for (; j > 0 && m->hosts[order[j - 1]].wall_lo > m->hosts[i].wall_lo; j--)
        order[j] = order[j - 1];
      order[j] = i;
    }
  uint32_t g = 0;
  uint64_t reach = 0;
  for (uint32_t k = 0; k < nk; k++) {
    const rtg_clock_host *h = &m->hosts[order[k]];
    if (!g || h->wall_lo > reach + RTG_CLOCKMAP_APART_NS) g++;
    if (h->wall_hi > reach) reach = h->wall_hi;
    group[order[k]] = g;
    size[g]++;
  }
  uint32_t best = 0, first = UINT32_MAX;
  for (uint32_t i = 0; i < n; i++) {
    if (!group[i]) continue;
    uint32_t gi = group[i];
    bool better = !best || size[gi] > size[best] ||
                  (size[gi] == size[best] && strcmp(m->hosts[i].name, m->hosts[first].name) < 0);
    if (better) best = gi, first = i;
  }
  for (uint32_t i = 0; i < n; i++)
    if (group[i] && group[i] != best) m->hosts[i].known = false, m->hosts[i].apart = true;
  free(order), free(group), free(size);
  return true;
}

static void lift(rtg_clockmap *m);

void rtg_clockmap_solve(rtg_clockmap *m) {
  m->ref = UINT32_MAX;
  m->lift_ns = 0;
  m->moves = false;
  for (uint32_t i = 0; i < m->nhosts; i++) {
    rtg_clock_host *h = &m->hosts[i];
    h->known = h->stepped = h->apart = false;
    h->shift_ns = 0;
    h->slope = 0;
    h->coll_n = 0, h->coll_lo = h->coll_hi = 0, h->by_coll = false;
    if (!h->nprocs) continue;
    solve_drift(h);
    if (!solve_offset(h)) continue; /* (out of memory: not placed) */
    h->known = true;
    wall_span(h);
  }
  if (!keep_one_time(m)) /* (out of memory: nothing moves) */
    for (uint32_t i = 0; i < m->nhosts; i++) m->hosts[i].known = false;
  for (uint32_t i = 0; i < m->nhosts; i++)
    if (m->hosts[i].known &&
        (m->ref == UINT32_MAX || strcmp(m->hosts[i].name, m->hosts[m->ref].name) < 0))
      m->ref = i;
  if (m->ref == UINT32_MAX) return;
  const rtg_clock_host *r = &m->hosts[m->ref];
  for (uint32_t i = 0; i < m->nhosts; i++) {
    rtg_clock_host *h = &m->hosts[i];
    if (!h->known || i == m->ref) continue;
    /* u (1 + d_r) = t + a_h + d_h (t - t0_h) - a_r + d_r t0_r, as the shift
     * at t0_h and a slope: the large difference of offsets in integers */
    int64_t da = (int64_t)((uint64_t)h->offset_ns - (uint64_t)r->offset_ns);
    double dr = r->drift;
    double corr = ((double)da * dr + dr * (double)(int64_t)(h->t0_ns - r->t0_ns)) / (1 + dr);
    h->shift_ns = (int64_t)((uint64_t)da - (uint64_t)(int64_t)corr);
    h->slope = (h->drift - dr) / (1 + dr);
    if (h->shift_ns || h->slope != 0) m->moves = true;
  }
  lift(m);
}

/* The first pair of every placed host at 1 s or later. */
static void lift(rtg_clockmap *m) {
  int64_t min_start = INT64_MAX;
  for (uint32_t i = 0; i < m->nhosts; i++) {
    const rtg_clock_host *h = &m->hosts[i];
    if (!h->known || i == m->ref) continue;
    int64_t at = (int64_t)(h->t0_ns + (uint64_t)h->shift_ns);
    if (at < min_start) min_start = at;
  }
  const int64_t s = 1000000000;
  m->lift_ns = 0;
  if (min_start < s) {
    m->lift_ns = ((uint64_t)s - (uint64_t)min_start + (uint64_t)s - 1) / (uint64_t)s * (uint64_t)s;
    m->moves = true;
  }
}

bool rtg_clockmap_bound(rtg_clockmap *m, uint32_t host, int64_t lo, int64_t hi, uint64_t n) {
  if (host >= m->nhosts || host == m->ref || m->ref == UINT32_MAX) return false;
  rtg_clock_host *h = &m->hosts[host];
  if (!h->known || lo > hi || !n) return false;
  h->coll_n = n, h->coll_lo = lo, h->coll_hi = hi;
  uint64_t half = ((uint64_t)hi - (uint64_t)lo + 1) / 2;
  bool outside = h->shift_ns < lo || h->shift_ns > hi || h->slope != 0;
  if (!outside && half >= h->uncertainty_ns) return true; /* the pairs' offset stays */
  h->shift_ns = lo + (int64_t)(((uint64_t)hi - (uint64_t)lo) / 2);
  h->slope = 0;
  h->drift = 0;
  h->uncertainty_ns = half;
  h->by_coll = true;
  m->moves = true;
  lift(m);
  return true;
}

void rtg_clockmap_free(rtg_clockmap *m) {
  for (uint32_t i = 0; i < m->nhosts; i++) {
    free(m->hosts[i].name);
    free(m->hosts[i].procs);
  }
  free(m->hosts);
  memset(m, 0, sizeof *m);
}
