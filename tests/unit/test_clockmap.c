/* Hosts on one time axis (src/common/clockmap.c): the reference by name,
 * offsets as medians, uncertainty as the largest pair error plus the
 * spread, drift only beyond the pairs' errors and below a step, the exact
 * solution for drifting clocks (the same wall-clock instant lands on the
 * same aligned time), and the lift that keeps every host after 0. */
#include "check.h"
#include "clockmap.h"

#define S 1000000000ll
#define WALL 1795000000000000000ll /* a wall-clock time, ns */

static rtg_clock_sample pair(int64_t boot, int64_t offset, uint64_t err) {
  return (rtg_clock_sample){(uint64_t)boot, (uint64_t)(boot + offset), err};
}

static void add(rtg_clockmap *m, uint32_t h, rtg_clock_sample start, const rtg_clock_sample *exit) {
  CHECK(rtg_clockmap_add(m, h, &start, exit));
}

static uint64_t at(const rtg_clockmap *m, uint32_t h, uint64_t t) {
  return rtg_clockmap_apply(&m->hosts[h], m->lift_ns, t);
}

static int64_t absdiff(uint64_t a, uint64_t b) {
  return a > b ? (int64_t)(a - b) : (int64_t)(b - a);
}

/* Offsets of the median, the reference by name, constant shifts. */
static void offsets(void) {
  rtg_clockmap m = {0};
  uint32_t b = rtg_clockmap_host(&m, "node-b"), a = rtg_clockmap_host(&m, "node-a");
  uint32_t none = rtg_clockmap_host(&m, "node-c");
  CHECK_U64(rtg_clockmap_host(&m, "node-b"), b);
  /* node-a booted at WALL - 9000 s: offsets around WALL - 9000 s, three
   * processes 40 ns apart, errors 10..30 ns */
  int64_t oa = WALL - 9000 * S, ob = WALL - 2000 * S;
  add(&m, a, pair(9000 * S, oa + 40, 10), NULL);
  add(&m, a, pair(9001 * S, oa, 30), NULL);
  add(&m, a, pair(9002 * S, oa + 20, 20), NULL);
  /* node-b: four pairs (two processes with exits, no drift): the median of
   * an even count is the middle two's mean */
  rtg_clock_sample e1 = pair(2010 * S, ob + 100, 5), e2 = pair(2011 * S, ob - 50, 5);
  add(&m, b, pair(2000 * S, ob, 5), &e1);
  add(&m, b, pair(2001 * S, ob + 50, 5), &e2);
  rtg_clockmap_solve(&m);
  CHECK_U64(m.ref, a);
  CHECK(m.moves);
  CHECK_U64(m.lift_ns, 0);
  CHECK(m.hosts[a].known && m.hosts[b].known && !m.hosts[none].known);
  CHECK_U64(m.hosts[a].offset_ns, oa + 20);
  CHECK_U64(m.hosts[a].uncertainty_ns, 30 + 40);
  CHECK(m.hosts[b].drift == 0); /* moved +100 ns and -100 ns: 0 in all */
  CHECK_U64(m.hosts[b].offset_ns, ob + 25);
  CHECK_U64(m.hosts[b].uncertainty_ns, 5 + 150);
  CHECK_U64(m.hosts[a].shift_ns, 0);
  CHECK_U64(m.hosts[b].shift_ns, (ob + 25) - (oa + 20));
  CHECK_U64(at(&m, a, 9500 * S + 7), 9500 * S + 7); /* the reference stays */
  CHECK_U64(at(&m, b, 2005 * S), 2005 * S + (ob + 25) - (oa + 20));
  /* times of one host keep their differences exactly */
  CHECK_U64(at(&m, b, 2005 * S + 12345) - at(&m, b, 2005 * S), 12345);
  CHECK_U64(at(&m, none, 777), 777); /* no pairs: not moved */
  /* the same wall-clock instant: 7000 s later on node-a's boot clock */
  CHECK(absdiff(at(&m, b, 2003 * S), 9003 * S) < 100);
  rtg_clockmap_free(&m);

  /* one host: nothing moves */
  uint32_t h = rtg_clockmap_host(&m, "solo");
  add(&m, h, pair(50 * S, oa, 10), NULL);
  add(&m, h, pair(51 * S, oa + 5, 10), NULL);
  rtg_clockmap_solve(&m);
  CHECK(!m.moves);
  CHECK_U64(m.ref, h);
  CHECK_U64(at(&m, h, 60 * S), 60 * S);
  rtg_clockmap_free(&m);
}

/* Drift: applied beyond the pairs' errors, not for a step; exact for the
 * reference drifting too. */
static void drift(void) {
  rtg_clockmap m = {0};
  uint32_t r = rtg_clockmap_host(&m, "a"), h = rtg_clockmap_host(&m, "b");
  uint32_t quiet = rtg_clockmap_host(&m, "c"), step = rtg_clockmap_host(&m, "d");
  /* a: drifts +2 ppm (offset grows 200 us over 100 s) */
  int64_t or = WALL - 5000 * S, oh = WALL - 300 * S;
  rtg_clock_sample re = pair(5100 * S, or +200000, 20);
  add(&m, r, pair(5000 * S, or, 20), &re);
  /* b: -10 ppm over two processes of 50 s and 150 s */
  rtg_clock_sample he1 = pair(350 * S, oh - 500000, 20), he2 = pair(500 * S, oh - 2000000, 20);
  add(&m, h, pair(300 * S, oh, 20), &he1);
  add(&m, h, pair(350 * S, oh - 500000, 20), &he2);
  /* c: moved 50 ns with errors 30 + 30: no drift */
  rtg_clock_sample qe = pair(800 * S, oh + 50, 30);
  add(&m, quiet, pair(700 * S, oh, 30), &qe);
  /* d: the wall clock stepped 1 s in 10 s */
  rtg_clock_sample se = pair(910 * S, oh + S, 10);
  add(&m, step, pair(900 * S, oh, 10), &se);
  rtg_clockmap_solve(&m);
  CHECK(m.hosts[r].drift > 1.999e-6 && m.hosts[r].drift < 2.001e-6);
  CHECK(m.hosts[h].drift > -10.001e-6 && m.hosts[h].drift < -9.999e-6);
  CHECK(m.hosts[quiet].drift == 0 && !m.hosts[quiet].stepped);
  CHECK(m.hosts[step].drift == 0 && m.hosts[step].stepped);
  CHECK_U64(m.hosts[h].offset_ns, oh);
  CHECK(m.hosts[h].uncertainty_ns <= 20 + 2);
  CHECK_U64(m.lift_ns, 0);
  /* the same wall-clock instant lands on the same aligned time: b's boot
   * t and a's boot u with t + offset_b(t) == u + offset_a(u) */
  for (int64_t t = 300 * S; t <= 500 * S; t += 25 * S) {
    double wall = (double)t + (double)(oh - WALL) - 10e-6 * (double)(t - 300 * S);
    /* u + (or - WALL) + 2e-6 (u - 5000 s) = wall */
    double u = (wall - (double)(or -WALL) + 2e-6 * 5000.0 * (double)S) / (1 + 2e-6);
    CHECK(absdiff(at(&m, h, (uint64_t)t), (uint64_t)u) <= 2);
  }
  /* the reference stays, drift or not */
  CHECK_U64(at(&m, r, 5050 * S), 5050 * S);
  rtg_clockmap_free(&m);
}

/* A host whose first pair would land before 0 lifts every host. */
static void lift(void) {
  rtg_clockmap m = {0};
  uint32_t r = rtg_clockmap_host(&m, "a"), h = rtg_clockmap_host(&m, "b");
  /* a booted 100 s before WALL, b 4000 s before: b's process started 3000 s
   * before a booted */
  add(&m, r, pair(50 * S, WALL - 100 * S, 0), NULL);
  add(&m, h, pair(900 * S, WALL - 4000 * S, 0), NULL);
  rtg_clockmap_solve(&m);
  CHECK(m.moves);
  CHECK_U64(m.hosts[h].shift_ns, -3900 * S);
  CHECK_U64(m.lift_ns, 3001 * S);
  CHECK_U64(at(&m, h, 900 * S), 1 * S);
  CHECK_U64(at(&m, r, 50 * S), 3051 * S);
  /* both still agree: b's 900 s is a's -3000 s */
  CHECK_U64(at(&m, r, 50 * S) - at(&m, h, 900 * S), 3050 * S);
  rtg_clockmap_free(&m);
}

/* Hosts of another time (an hour and more apart on the wall clock) are
 * not aligned: the largest group is, ties to the first host by name. */
static void apart(void) {
  rtg_clockmap m = {0};
  uint32_t old = rtg_clockmap_host(&m, "a-old"), x = rtg_clockmap_host(&m, "x");
  uint32_t y = rtg_clockmap_host(&m, "y"), z = rtg_clockmap_host(&m, "z");
  /* a-old ran 7 years before x, y, z; z started 50 min after y's exit */
  int64_t then = WALL - 7 * 365 * 86400 * S;
  add(&m, old, pair(1 * S, then, 0), NULL);
  rtg_clock_sample ye = pair(2100 * S, WALL - 2000 * S, 0); /* (wall: WALL + 100 s) */
  add(&m, x, pair(3000 * S, WALL - 3000 * S, 0), NULL);
  add(&m, y, pair(2000 * S, WALL - 2000 * S, 0), &ye);
  add(&m, z, pair(4000 * S + 100 * S + 3000 * S, WALL - 4000 * S, 0), NULL);
  rtg_clockmap_solve(&m);
  CHECK(m.hosts[old].apart && !m.hosts[old].known);
  CHECK(m.hosts[x].known && m.hosts[y].known && m.hosts[z].known);
  CHECK_U64(m.ref, x);
  CHECK_U64(at(&m, old, 5 * S), 5 * S);
  CHECK_U64(at(&m, y, 2000 * S), 3000 * S);
  rtg_clockmap_free(&m);

  /* two hosts of two times: the first by name is aligned, alone: nothing moves */
  uint32_t b = rtg_clockmap_host(&m, "vm"), a = rtg_clockmap_host(&m, "node1");
  add(&m, b, pair(1992 * S, WALL, 0), NULL);
  add(&m, a, pair(1 * S, then, 0), NULL);
  rtg_clockmap_solve(&m);
  CHECK_U64(m.ref, a);
  CHECK(m.hosts[b].apart);
  CHECK(!m.moves);
  rtg_clockmap_free(&m);
}

/* A broken trace's pairs (any values) are taken without undefined
 * behaviour (built with -fsanitize=undefined, this says so). */
static void extremes(void) {
  static const uint64_t v[] = {0, 1, INT64_MAX, (uint64_t)INT64_MAX + 1, UINT64_MAX};
  rtg_clockmap m = {0};
  char name[8];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) {
      snprintf(name, sizeof name, "h%d%d", i, j);
      uint32_t h = rtg_clockmap_host(&m, name);
      rtg_clock_sample a = {v[i], v[j], v[j]}, b = {v[j], v[i], UINT64_MAX};
      CHECK(rtg_clockmap_add(&m, h, &a, &b));
      CHECK(rtg_clockmap_add(&m, h, &b, NULL));
    }
  rtg_clockmap_solve(&m);
  uint64_t sum = 0;
  for (uint32_t h = 0; h < m.nhosts; h++)
    for (int i = 0; i < 5; i++) sum += at(&m, h, v[i]);
  CHECK(m.nhosts == 25 && (sum | 1));
  rtg_clockmap_free(&m);
}

/* Collectives' bounds (rtg_clockmap_bound): they replace the pairs'
 * offset where it falls outside them or is less certain, with the
 * midpoint and half the interval; they leave it where it is inside and
 * tighter; bounds that contradict each other, the reference and an
 * unplaced host change nothing; a host moved before 0 is lifted. */
static void bounds(void) {
  rtg_clockmap m = {0};
  uint32_t a = rtg_clockmap_host(&m, "node-a"), b = rtg_clockmap_host(&m, "node-b");
  uint32_t c = rtg_clockmap_host(&m, "node-c"), d = rtg_clockmap_host(&m, "node-d");
  /* node-b's wall clock is 3 ms ahead: by the pairs its shift is 3 ms
   * more than the truth (7000 s) */
  int64_t oa = WALL - 9000 * S, ob = WALL - 2000 * S + 3000000, oc = WALL - 5000 * S;
  add(&m, a, pair(9000 * S, oa, 10), NULL);
  add(&m, b, pair(2000 * S, ob, 10), NULL);
  add(&m, c, pair(5000 * S, oc, 10), NULL);
  rtg_clockmap_solve(&m);
  int64_t truth = 7000 * S, pairs_b = m.hosts[b].shift_ns;
  CHECK(pairs_b == truth + 3000000);
  /* outside: replaced by the midpoint, half the interval as uncertainty */
  CHECK(rtg_clockmap_bound(&m, b, truth - 20000, truth + 30000, 12));
  CHECK(m.hosts[b].by_coll);
  CHECK(m.hosts[b].shift_ns == truth + 5000);
  CHECK_U64(m.hosts[b].uncertainty_ns, 25000);
  CHECK_U64(m.hosts[b].coll_n, 12);
  CHECK(absdiff(at(&m, b, 2100 * S), 9100 * S) <= 25000);
  /* inside and tighter (20 ns against +-1 ms): the pairs' offset stays */
  int64_t sc = m.hosts[c].shift_ns;
  CHECK(rtg_clockmap_bound(&m, c, sc - 1000000, sc + 1000000, 3));
  CHECK(!m.hosts[c].by_coll && m.hosts[c].shift_ns == sc);
  CHECK_U64(m.hosts[c].coll_n, 3);
  /* inside but looser than the bounds: replaced */
  CHECK(rtg_clockmap_bound(&m, c, sc - 8, sc + 4, 3));
  CHECK(m.hosts[c].by_coll && m.hosts[c].shift_ns == sc - 2);
  CHECK_U64(m.hosts[c].uncertainty_ns, 6);
  /* contradicting bounds, the reference, a host without pairs: nothing */
  CHECK(!rtg_clockmap_bound(&m, b, truth + 10, truth - 10, 5));
  CHECK(m.hosts[b].shift_ns == truth + 5000);
  CHECK(!rtg_clockmap_bound(&m, a, -5, 5, 5));
  CHECK(!rtg_clockmap_bound(&m, d, -5, 5, 5));
  CHECK(!rtg_clockmap_bound(&m, b, -5, 5, 0));
  CHECK_U64(m.lift_ns, 0);
  /* bounds that move node-c's first pair before 0: every host lifted */
  CHECK(rtg_clockmap_bound(&m, c, -5000 * S - 10, -5000 * S + 10, 1));
  CHECK_U64(m.lift_ns, 1 * S);
  CHECK_U64(at(&m, a, 9000 * S), 9001 * S);
  rtg_clockmap_free(&m);
}

int main(void) {
  bounds();
  offsets();
  drift();
  lift();
  apart();
  extremes();
  return check_done("test_clockmap");
}
