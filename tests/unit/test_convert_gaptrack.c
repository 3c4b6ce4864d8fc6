/* The GPU gap tracker's reorder window (src/convert/shared/gaptrack.c: a
 * run in sweep order and a heap of the ops that came earlier) against a
 * model that holds the same window in one plain heap: on ops in start
 * order, nearly in order, shuffled, with ties of start and end (swept by
 * kind, then name), more ops than the window holds (clamped
 * late ops), and trackers of a small pool that drains the idlest, both give
 * the same gaps in the same order with the same names, the same busy,
 * compute and copy totals, and the same late count. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gaptrack.h"

#define WINDOW (1u << 15) /* gaptrack.c's REORDER_WINDOW */
#define MAXGAPS 400000

typedef struct gap {
  uint64_t s, e;
  uint32_t before, after;
} gap;

typedef struct gaps {
  gap *v;
  size_t n;
} gaps;

static void on_gap(void *arg, uint64_t s, uint64_t e, uint32_t before, uint32_t after) {
  gaps *g = arg;
  if (g->n < MAXGAPS) g->v[g->n++] = (gap){s, e, before, after};
}

/* ---- the model: one heap of the window, ordered by start, end, kind, name */

typedef struct mitem {
  uint64_t start, end;
  uint32_t name, kind;
} mitem;

typedef struct model {
  mitem *heap;
  uint32_t n, cap;
  uint64_t swept_to, late;
  uint64_t all_s, all_e, all_t, comp_s, comp_e, comp_t, copy_s, copy_e, copy_t;
  bool all_o, comp_o, copy_o;
  uint32_t last_name;
  gaps *out;
} model;

static bool mless(const mitem *a, const mitem *b) {
  if (a->start != b->start) return a->start < b->start;
  if (a->end != b->end) return a->end < b->end;
  if (a->kind != b->kind) return a->kind < b->kind;
  return a->name < b->name;
}

static void uadd(uint64_t *us, uint64_t *ue, uint64_t *ut, bool *uo, uint64_t s, uint64_t e) {
  if (*uo && s <= *ue) {
    if (e > *ue) *ue = e;
    return;
  }
  if (*uo) *ut += *ue - *us;
  *us = s, *ue = e, *uo = true;
}

static void msweep(model *m, mitem it) {
  if (it.start < m->swept_to) {
    m->late++;
    it.start = m->swept_to;
    if (it.end < it.start) it.end = it.start;
  }
  m->swept_to = it.start;
  if (m->all_o && it.start > m->all_e) on_gap(m->out, m->all_e, it.start, m->last_name, it.name);
  if (!m->all_o || it.end > m->all_e) m->last_name = it.name;
  uadd(&m->all_s, &m->all_e, &m->all_t, &m->all_o, it.start, it.end);
  if (it.kind == GT_COPY)
    uadd(&m->copy_s, &m->copy_e, &m->copy_t, &m->copy_o, it.start, it.end);
  else
    uadd(&m->comp_s, &m->comp_e, &m->comp_t, &m->comp_o, it.start, it.end);
}

static mitem mpop(model *m) {
  mitem top = m->heap[0], x = m->heap[--m->n];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= m->n) break;
    if (c + 1 < m->n && mless(&m->heap[c + 1], &m->heap[c])) c++;
    if (!mless(&m->heap[c], &x)) break;
    m->heap[i] = m->heap[c];
    i = c;
  }
  if (m->n) m->heap[i] = x;
  return top;
}

static void madd(model *m, uint64_t s, uint64_t e, uint32_t kind, uint32_t name) {
  mitem it = {s, e, name, kind};
  if (m->n == m->cap) {
    if (m->cap < WINDOW) {
      m->cap = m->cap ? m->cap * 2 : 64;
      m->heap = realloc(m->heap, m->cap * sizeof *m->heap);
    } else {
      msweep(m, mpop(m));
    }
  }
  uint32_t i = m->n++;
  while (i && mless(&it, &m->heap[(i - 1) / 2])) {
    m->heap[i] = m->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  m->heap[i] = it;
}

/* Everything swept, as gt_finish; the memory freed, as the pool's drain. */
static void mdrain(model *m) {
  while (m->n) msweep(m, mpop(m));
  free(m->heap);
  m->heap = NULL;
  m->cap = 0;
}

static void mfinish(model *m) {
  mdrain(m);
  if (m->all_o) m->all_t += m->all_e - m->all_s;
  if (m->comp_o) m->comp_t += m->comp_e - m->comp_s;
  if (m->copy_o) m->copy_t += m->copy_e - m->copy_s;
}

/* ---- the ops */

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(uint64_t n) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return rng % n;
}

typedef struct op {
  uint64_t s, e;
  uint32_t kind, name;
} op;

/* n ops of one queue; how: 0 in start order, 1 nearly (completion order of
 * overlapping ops), 2 shuffled, 3 runs of ties (equal start and end) */
static void make_ops(op *v, size_t n, int how) {
  uint64_t t = 1000;
  for (size_t i = 0; i < n; i++) {
    t += how == 3 && rnd(3) ? 0 : rnd(50);
    v[i] = (op){t, t + (how == 3 ? 7 : rnd(80)), (uint32_t)rnd(2), (uint32_t)i};
  }
  if (how == 1)
    for (size_t i = 0; i + 1 < n; i++)
      if (rnd(4) == 0) {
        size_t j = i + 1 + rnd(40);
        if (j >= n) j = n - 1;
        op x = v[i];
        v[i] = v[j], v[j] = x;
      }
  if (how == 2)
    for (size_t i = n; i-- > 1;) {
      size_t j = rnd(i + 1);
      op x = v[i];
      v[i] = v[j], v[j] = x;
    }
}

static bool same_gaps(const gaps *a, const gaps *b) {
  if (a->n != b->n) return false;
  for (size_t i = 0; i < a->n; i++)
    if (a->v[i].s != b->v[i].s || a->v[i].e != b->v[i].e || a->v[i].before != b->v[i].before ||
        a->v[i].after != b->v[i].after)
      return false;
  return true;
}

static gaps new_gaps(void) {
  gaps g = {calloc(MAXGAPS, sizeof(gap)), 0};
  return g;
}

/* One tracker against the model on the ops v[0..n). */
static void one(const op *v, size_t n, int how) {
  gaps ga = new_gaps(), gb = new_gaps();
  gaptrack g;
  gt_init(&g, on_gap, &ga);
  model m = {.out = &gb};
  for (size_t i = 0; i < n; i++) {
    gt_add(&g, v[i].s, v[i].e, v[i].kind, v[i].name);
    madd(&m, v[i].s, v[i].e, v[i].kind, v[i].name);
  }
  gt_finish(&g);
  mfinish(&m);
  CHECK(same_gaps(&ga, &gb));
  CHECK(g.all.total == m.all_t && g.compute.total == m.comp_t && g.copy.total == m.copy_t);
  CHECK(g.late == m.late);
  if (how == 2 && n > WINDOW) CHECK(g.late > 0); /* the window was passed */
  if (how == 3) CHECK(ga.n > 0);
  gt_free(&g);
  free(ga.v), free(gb.v);
}

/* Three trackers of a pool of budget 500 fed in turns, the third only
 * at first (so it is drained while idle), against three models each
 * drained where the pool drains its tracker. */
static void pool(const op *v, size_t n) {
  gaps ga[3], gb[3];
  gaptrack g[3];
  model m[3];
  gt_pool p = {.budget = 500};
  for (int k = 0; k < 3; k++) {
    ga[k] = new_gaps(), gb[k] = new_gaps();
    gt_init(&g[k], on_gap, &ga[k]);
    gt_join(&g[k], &p);
    m[k] = (model){.out = &gb[k]};
  }
  for (size_t i = 0; i < n; i++) {
    int k = i < 300 ? (int)(i % 3) : (int)(i % 2);
    gt_add(&g[k], v[i].s, v[i].e, v[i].kind, v[i].name);
    madd(&m[k], v[i].s, v[i].e, v[i].kind, v[i].name);
    for (int j = 0; j < 3; j++)
      if (j != k && !g[j].n && m[j].n) mdrain(&m[j]); /* the pool drained it */
  }
  for (int k = 0; k < 3; k++) {
    gt_finish(&g[k]);
    mfinish(&m[k]);
    CHECK(same_gaps(&ga[k], &gb[k]));
    CHECK(g[k].all.total == m[k].all_t && g[k].copy.total == m[k].copy_t);
    gt_free(&g[k]);
    free(ga[k].v), free(gb[k].v);
  }
  CHECK(p.held == 0);
  gt_pool_free(&p);
}

int main(void) {
  size_t n = 3 * WINDOW;
  op *v = malloc(n * sizeof *v);
  for (int how = 0; how < 4; how++) {
    make_ops(v, 2000, how);
    one(v, 2000, how); /* within the window: swept at the end */
    make_ops(v, n, how);
    one(v, n, how); /* past the window: swept as ops come */
  }
  make_ops(v, 5000, 1);
  pool(v, 5000);
  free(v);
  return check_done("convert_gaptrack");
}
