/* Busy time and gaps of a GPU resource; see gaptrack.h. */
#include "gaptrack.h"

#include <stdlib.h>

#include "xalloc.h"

#define REORDER_WINDOW (1u << 15) /* ops held back to restore start order */
#define POOL_BUDGET (1u << 20)    /* ops held by the trackers of a pool together */

void gt_init(gaptrack *g, gt_gap_fn on_gap, void *arg) {
  *g = (gaptrack){0};
  g->on_gap = on_gap;
  g->arg = arg;
}

/* The window's memory freed: it holds no op. */
static void release(gaptrack *g) {
  free(g->run);
  free(g->heap);
  g->run = g->heap = NULL;
  g->rhead = g->rn = g->rcap = g->hn = g->hcap = 0;
  g->n = g->cap = 0;
}

void gt_free(gaptrack *g) {
  if (g->pool) g->pool->held -= g->n;
  release(g);
}

void gt_join(gaptrack *g, gt_pool *p) {
  if (!p->budget) {
    const char *env = getenv("RTG_CONVERT_GAP_BUDGET");
    p->budget = env && atoll(env) > 0 ? (uint64_t)atoll(env) : POOL_BUDGET;
  }
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 64;
    p->t = rtg_xrealloc(p->t, p->cap * sizeof *p->t, "the GPU gap trackers");
  }
  p->t[p->n++] = g;
  g->pool = p;
}

void gt_pool_free(gt_pool *p) {
  free(p->t);
  *p = (gt_pool){0};
}

/* Sweep order: by start, then end, then kind and name (ops equal in all
 * four are alike to the sweep). */
static bool less(const gt_item *a, const gt_item *b) {
  if (a->start != b->start) return a->start < b->start;
  if (a->end != b->end) return a->end < b->end;
  if (a->kind != b->kind) return a->kind < b->kind;
  return a->name < b->name;
}

static void union_add(gt_union *u, uint64_t s, uint64_t e) {
  if (u->open && s <= u->e) {
    if (e > u->e) u->e = e;
    return;
  }
  if (u->open) u->total += u->e - u->s;
  u->s = s, u->e = e, u->open = true;
}

static void union_close(gt_union *u) {
  if (u->open) u->total += u->e - u->s;
  u->open = false;
}

static void sweep(gaptrack *g, gt_item it) {
  if (it.start < g->swept_to) { /* out of order beyond the window: clamp */
    g->late++;
    it.start = g->swept_to;
    if (it.end < it.start) it.end = it.start;
  }
  g->swept_to = it.start;
  if (g->all.open && it.start > g->all.e) {
    if (g->on_gap) g->on_gap(g->arg, g->all.e, it.start, g->last_name, it.name);
  }
  if (!g->all.open || it.end > g->all.e) g->last_name = it.name;
  union_add(&g->all, it.start, it.end);
  union_add(it.kind == GT_COPY ? &g->copy : &g->compute, it.start, it.end);
}

static gt_item heap_pop(gaptrack *g) {
  gt_item top = g->heap[0];
  gt_item x = g->heap[--g->hn];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= g->hn) break;
    if (c + 1 < g->hn && less(&g->heap[c + 1], &g->heap[c])) c++;
    if (!less(&g->heap[c], &x)) break;
    g->heap[i] = g->heap[c];
    i = c;
  }
  if (g->hn) g->heap[i] = x;
  return top;
}

static void heap_push(gaptrack *g, gt_item it) {
  if (g->hn == g->hcap) {
    g->hcap = g->hcap ? g->hcap * 2 : 64;
    g->heap = rtg_xrealloc(g->heap, g->hcap * sizeof *g->heap, "the GPU ops held back");
  }
  uint32_t i = g->hn++;
  while (i && less(&it, &g->heap[(i - 1) / 2])) {
    g->heap[i] = g->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  g->heap[i] = it;
}

/* The first op in sweep order (n > 0). */
static gt_item pop(gaptrack *g) {
  g->n--;
  if (g->rn && (!g->hn || less(&g->run[g->rhead], &g->heap[0]))) {
    gt_item it = g->run[g->rhead];
    g->rhead = (g->rhead + 1) & (g->rcap - 1);
    g->rn--;
    return it;
  }
  return heap_pop(g);
}

/* Room in the run for cap ops; false when memory runs out. */
static bool run_fit(gaptrack *g, uint32_t cap) {
  if (g->rcap >= cap) return true;
  gt_item *nr = malloc(cap * sizeof *nr);
  if (!nr) return false;
  for (uint32_t i = 0; i < g->rn; i++) nr[i] = g->run[(g->rhead + i) & (g->rcap - 1)];
  free(g->run);
  g->run = nr;
  g->rhead = 0;
  g->rcap = cap;
  return true;
}

static void push(gaptrack *g, gt_item it) {
  g->n++;
  if (!g->rn || !less(&it, &g->run[(g->rhead + g->rn - 1) & (g->rcap - 1)])) {
    g->run[(g->rhead + g->rn) & (g->rcap - 1)] = it;
    g->rn++;
  } else {
    heap_push(g, it);
  }
}

static void drain_idlest(gt_pool *p);

void gt_add(gaptrack *g, uint64_t start, uint64_t end, uint32_t kind, uint32_t name) {
  if (!g->ops || start < g->first) g->first = start;
  if (end > g->last) g->last = end;
  gt_item it = {start, end, name, kind};
  g->ops++;
  if (g->n == g->cap) {
    if (g->cap < REORDER_WINDOW) {
      uint32_t nc = g->cap ? g->cap * 2 : 64;
      if (run_fit(g, nc)) g->cap = nc;
    }
    if (g->n == g->cap) {
      sweep(g, pop(g));
      if (g->pool) g->pool->held--;
    }
  }
  push(g, it);
  gt_pool *p = g->pool;
  if (p) {
    g->used = ++p->clock;
    if (++p->held > p->budget) drain_idlest(p);
  }
}

/* Over the pool's budget: the tracker that waited longest for an op (not
 * the one that just got one) sweeps what it holds and frees it. */
static void drain_idlest(gt_pool *p) {
  gaptrack *idlest = NULL;
  for (uint32_t i = 0; i < p->n; i++) {
    gaptrack *t = p->t[i];
    if (t->n && t->used != p->clock && (!idlest || t->used < idlest->used)) idlest = t;
  }
  if (!idlest) return;
  p->held -= idlest->n;
  while (idlest->n) sweep(idlest, pop(idlest));
  release(idlest);
}

void gt_finish(gaptrack *g) {
  if (g->pool) g->pool->held -= g->n;
  while (g->n) sweep(g, pop(g));
  union_close(&g->all);
  union_close(&g->compute);
  union_close(&g->copy);
}
