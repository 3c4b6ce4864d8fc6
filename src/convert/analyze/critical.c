/* The critical path and its what-ifs: see critical.h. */
#include "critical.h"
#include "xalloc.h"
#include "sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "u64map.h"

const char *const an_cp_cat_names[AN_CP_NCATS] = {
    [AN_CP_HOST_CPU] = "host_cpu", [AN_CP_API] = "runtime_api", [AN_CP_QUEUE] = "queue",
    [AN_CP_KERNEL] = "kernels",    [AN_CP_COPY] = "copies",     [AN_CP_BARRIER] = "barriers",
};

enum node_type { N_CALL, N_KERNEL, N_COPY, N_BARRIER };

/* What an edge is, for the path's categories. */
enum edge {
  E_NONE,
  E_CPU,    /* the thread's previous call's end -> a call's start */
  E_DUR,    /* a node's start -> its end */
  E_WAKE,   /* the op a synchronisation waited for -> its end */
  E_LAUNCH, /* the enqueuing call's start -> an op's start */
  E_QPREV,  /* the op before in the queue -> an op's start */
  E_DEP,    /* the op a waiting barrier waited for -> its start */
};

typedef struct node {
  uint64_t s, e, enq, tid, qkey;
  uint32_t name;
  uint8_t type;
  bool sync, deps;
} node;

#define NONE UINT32_MAX

/* A node's links to the nodes its events follow (NONE: none):
 *   call: a = the thread's previous call, b = the op its synchronisation
 *         waited for;
 *   op:   a = the call that enqueued it, b = the op before it in its queue,
 *         c = the op a waiting barrier waited for. */
typedef struct links {
  uint32_t a, b, c;
} links;

#define NPRED 3

typedef struct pred {
  uint32_t ev;
  uint8_t kind;
  uint64_t delay; /* the intrinsic delay: what the edge takes at least */
} pred;

/* The graph's edges are not stored: each event's predecessors come from
 * its node's links (preds), and the edge that set its time is chosen when
 * asked (bind), so the graph costs its nodes and 12 bytes a node. */
typedef struct graph {
  node *n;
  links *l;
  size_t nn, ncall;
} graph;

static uint64_t ev_time(const graph *g, uint32_t ev) {
  const node *x = &g->n[ev / 2];
  return ev & 1 ? x->e : x->s;
}

static void add_pred(const graph *g, pred *p, int *np, uint32_t ev, uint32_t from, uint8_t kind,
                     uint64_t intrinsic) {
  if (from == NONE || ev_time(g, from) > ev_time(g, ev)) return;
  p[(*np)++] = (pred){from, kind, intrinsic};
}

/* The predecessors of event ev, in a fixed order (ties go to the first). */
static int preds(const graph *g, uint32_t ev, pred p[NPRED]) {
  uint32_t i = ev / 2;
  const node *x = &g->n[i];
  const links *l = &g->l[i];
  int np = 0;
  if (x->type == N_CALL) {
    if (!(ev & 1)) {
      if (l->a != NONE) add_pred(g, p, &np, ev, 2 * l->a + 1, E_CPU, 0);
    } else if (l->b == NONE) {
      add_pred(g, p, &np, ev, 2 * i, E_DUR, x->e - x->s);
    } else { /* start -> end: at least the return after the op it waited for */
      uint64_t wake = x->e - g->n[l->b].e;
      add_pred(g, p, &np, ev, 2 * i, E_DUR, wake);
      add_pred(g, p, &np, ev, 2 * l->b + 1, E_WAKE, wake);
    }
  } else if (ev & 1) {
    add_pred(g, p, &np, ev, 2 * i, E_DUR, x->e - x->s);
  } else {
    if (l->a != NONE) add_pred(g, p, &np, ev, 2 * l->a, E_LAUNCH, x->enq - g->n[l->a].s);
    if (l->b != NONE) add_pred(g, p, &np, ev, 2 * l->b + 1, E_QPREV, 0);
    if (l->c != NONE) add_pred(g, p, &np, ev, 2 * l->c + 1, E_DEP, 0);
  }
  return np;
}

/* The edge that set ev's time in the trace: the latest of its
 * predecessors' times plus their intrinsic delays (-1: none). */
static int bind(const graph *g, uint32_t ev, const pred *p, int np) {
  int best = -1;
  uint64_t bt = 0;
  for (int k = 0; k < np; k++) {
    uint64_t at = ev_time(g, p[k].ev) + p[k].delay;
    if (best < 0 || at > bt) best = k, bt = at;
  }
  return best;
}

static int by_tid_start(const void *a, const void *b) {
  const node *x = a, *y = b;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  return x->s < y->s ? -1 : x->s > y->s;
}

/* The call node of thread tid that holds t, else the last one before it;
 * hint: the answer for an earlier time of the same thread (NONE: none),
 * galloped forward from. */
static uint32_t call_at(const graph *g, uint64_t tid, uint64_t t, uint32_t hint) {
  size_t lo = 0, hi = g->ncall;
  if (hint != NONE && g->n[hint].tid == tid && g->n[hint].s <= t) {
    size_t step = 1;
    lo = hint + 1;
    while (lo + step <= g->ncall && g->n[lo + step - 1].tid == tid && g->n[lo + step - 1].s <= t)
      lo += step, step *= 2;
    hi = lo + step <= g->ncall ? lo + step : g->ncall;
  }
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const node *c = &g->n[mid];
    if (c->tid < tid || (c->tid == tid && c->s <= t))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo || g->n[lo - 1].tid != tid) return NONE;
  return (uint32_t)(lo - 1);
}

/* The number of ops in byend whose end is at most t. */
static size_t ends_upto(const graph *g, const uint32_t *byend, size_t n, uint64_t t) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g->n[byend[mid]].e <= t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

#define SEARCH 64 /* ops looked at, back from a time, for what a wait waited for */

/* An op a thread waited for (the trace's waiter), for its synchronisations. */
typedef struct waited {
  uint64_t tid, end;
  uint32_t node;
} waited;

static int by_waiter_end(const void *a, const void *b) {
  const waited *x = a, *y = b;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

/* The last op of v (by thread, then end) that thread tid waited for and
 * that ended by t; NULL: none. */
static const waited *last_waited(const waited *v, size_t n, uint64_t tid, uint64_t t) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].tid < tid || (v[mid].tid == tid && v[mid].end <= t))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo && v[lo - 1].tid == tid ? &v[lo - 1] : NULL;
}

static void build(graph *g, uint64_t proc_start, const an_call *calls, size_t ncalls,
                  const an_cp_gpu *gpus, size_t ngpus) {
  size_t nops = 0;
  for (size_t i = 0; i < ngpus; i++) nops += gpus[i].nops;
  g->n = rtg_xmalloc((ncalls + nops) * sizeof *g->n, "the critical path");
  /* top-level calls: a nested call is its outer call's time */
  size_t nc = 0;
  for (size_t i = 0; i < ncalls; i++) {
    const an_call *c = &calls[i];
    if (nc && g->n[nc - 1].tid == c->tid && c->start < g->n[nc - 1].e) continue;
    if (c->start < proc_start) continue;
    g->n[nc++] = (node){.s = c->start,
                        .e = c->end,
                        .tid = c->tid,
                        .name = c->name,
                        .type = N_CALL,
                        .sync = c->flags & AN_CALL_SYNC};
  }
  an_sort(g->n, nc, sizeof *g->n, by_tid_start);
  g->ncall = nc;
  size_t nn = nc;
  /* a GPU's ops before the process's start (a prefix: they are by start)
   * are left out; first[d]: its first op's node, skip[d]: how many */
  size_t *first = rtg_xmalloc(2 * (ngpus + 1) * sizeof *first, "the critical path"),
         *skip = first + ngpus + 1;
  for (size_t d = 0, at = nn; d < ngpus; d++) {
    skip[d] = 0;
    while (skip[d] < gpus[d].nops && gpus[d].ops[skip[d]].start < proc_start) skip[d]++;
    first[d] = at;
    at += gpus[d].nops - skip[d];
  }
  size_t nwaited = 0;
  for (size_t d = 0; d < ngpus; d++)
    for (size_t i = skip[d]; gpus[d].waiter && i < gpus[d].nops; i++)
      nwaited += !!gpus[d].waiter[i];
  waited *wv = rtg_xmalloc((nwaited + 1) * sizeof *wv, "the critical path");
  nwaited = 0;
  for (size_t d = 0; d < ngpus; d++)
    for (size_t i = skip[d]; i < gpus[d].nops; i++) {
      const an_op *op = &gpus[d].ops[i];
      if (gpus[d].waiter && gpus[d].waiter[i])
        wv[nwaited++] = (waited){gpus[d].waiter[i], op->end, (uint32_t)nn};
      node *x = &g->n[nn++];
      *x = (node){.s = op->start,
                  .e = op->end,
                  .tid = op->tid,
                  .name = op->name,
                  .type = op->kind == AN_OP_KERNEL ? N_KERNEL
                          : op->kind == AN_OP_COPY ? N_COPY
                                                   : N_BARRIER,
                  .deps = op->deps,
                  .qkey = op->queue == AN_NO_QUEUE ? UINT64_MAX : (uint64_t)d << 32 | op->queue};
      /* when it was enqueued: its tick, else its call's end, else (an op
       * that started before its call ended) its call's start; a barrier's
       * enq is when its queue reached it */
      uint64_t enq = op->kind != AN_OP_BARRIER ? op->enq : 0;
      if (!enq || enq > op->start)
        enq = !op->api_s ? 0 : op->api_e <= op->start ? op->api_e : op->api_s;
      x->enq = enq;
    }
  g->nn = nn;
  g->l = rtg_xmalloc(nn * sizeof *g->l, "the critical path");
  for (size_t i = 0; i < nn; i++) g->l[i] = (links){NONE, NONE, NONE};

  /* the threads: the previous call */
  for (size_t i = 1; i < nc; i++)
    if (g->n[i - 1].tid == g->n[i].tid) g->l[i].a = (uint32_t)(i - 1);
  size_t no = nn - nc;
  uint32_t *byend = rtg_xmalloc(no * sizeof *byend, "the critical path"),
           *byq = rtg_xmalloc(no * sizeof *byq, "the critical path");
  uint64_t *ends = rtg_xmalloc((no + 1) * sizeof *ends, "the critical path");
  for (size_t i = 0; i < no; i++) byq[i] = (uint32_t)(nc + i), ends[i] = g->n[nc + i].e;
  an_order_by_key(ends, no, byend);
  free(ends);
  for (size_t i = 0; i < no; i++) byend[i] += (uint32_t)nc;
  /* by queue, then start: the ops come by GPU, each GPU's by start */
  uint32_t *key = rtg_xmalloc(no * sizeof *key, "the critical path");
  rtg_u64map dense = {0}; /* queue key -> 1 + its rank of first appearance */
  for (size_t i = 0; i < no; i++) {
    bool added;
    uint64_t *v = rtg_u64map_put(&dense, g->n[nc + i].qkey, 0, &added);
    if (!v) rtg_out_of_memory("the critical path's queues");
    if (added) *v = dense.n;
    key[i] = (uint32_t)*v;
  }
  rtg_u64map_free(&dense);
  an_group(byq, no, sizeof *byq, key);
  free(key);
  /* the ops: the enqueuing call; the op before in the queue */
  uint32_t hint = NONE;
  for (size_t k = 0; k < no; k++) {
    uint32_t i = byq[k];
    node *x = &g->n[i];
    if (x->enq && x->tid) hint = g->l[i].a = call_at(g, x->tid, x->enq, hint);
    if (k && x->qkey != UINT64_MAX && g->n[byq[k - 1]].qkey == x->qkey) g->l[i].b = byq[k - 1];
  }
  /* a waiting barrier <- the op that signalled it; without one known, the
   * op that ended last before it on another queue */
  for (size_t d = 0; d < ngpus; d++)
    for (size_t k = 0; k < gpus[d].ndeps; k++) {
      const an_cp_dep *x = &gpus[d].deps[k];
      if (x->op < skip[d] || x->src_op < skip[x->src_gpu]) continue;
      size_t i = first[d] + x->op - skip[d], j = first[x->src_gpu] + x->src_op - skip[x->src_gpu];
      if (i != j) g->l[i].c = (uint32_t)j;
    }
  free(first);
  for (size_t i = nc; i < nn; i++) {
    node *x = &g->n[i];
    if (x->type != N_BARRIER || !x->deps || g->l[i].c != NONE) continue;
    size_t j = ends_upto(g, byend, no, x->s);
    for (int look = 0; j > 0 && look < SEARCH; j--, look++) {
      const node *d = &g->n[byend[j - 1]];
      if (d->qkey != x->qkey && byend[j - 1] != i) {
        g->l[i].c = byend[j - 1];
        break;
      }
    }
  }
  /* a synchronisation <- the latest op to end within it that its thread
   * waited for; without one, the latest op to end within it, launched
   * before it ended */
  an_sort(wv, nwaited, sizeof *wv, by_waiter_end);
  for (size_t i = 0; i < nc; i++) {
    node *c = &g->n[i];
    if (!c->sync) continue;
    const waited *w = last_waited(wv, nwaited, c->tid, c->e);
    if (w && w->end >= c->s) {
      g->l[i].b = w->node;
      continue;
    }
    size_t j = ends_upto(g, byend, no, c->e);
    for (int look = 0; j > 0 && look < SEARCH; j--, look++) {
      const node *o = &g->n[byend[j - 1]];
      if (o->e < c->s) break;
      if (o->enq && o->enq < c->e) {
        g->l[i].b = byend[j - 1];
        break;
      }
    }
  }
  free(byend);
  free(byq);
  free(wv);
}

/* The events in an order where each comes after its predecessors (Kahn);
 * events on a cycle, which a wrong guess of a wait's op could make, are
 * left out and keep their trace times. */
static uint32_t *topological(const graph *g, size_t *norder) {
  size_t nev = 2 * g->nn;
  uint32_t *indeg = rtg_xcalloc(nev, sizeof *indeg, "the critical path"),
           *start = rtg_xcalloc(nev + 1, sizeof *start, "the critical path");
  pred p[NPRED];
  for (uint32_t ev = 0; ev < nev; ev++) {
    int np = preds(g, ev, p);
    indeg[ev] = (uint32_t)np;
    for (int k = 0; k < np; k++) start[p[k].ev + 1]++;
  }
  for (size_t ev = 0; ev < nev; ev++) start[ev + 1] += start[ev];
  uint32_t *succ = rtg_xmalloc((start[nev] + 1) * sizeof *succ, "the critical path"),
           *fill = rtg_xcalloc(nev, sizeof *fill, "the critical path");
  for (uint32_t ev = 0; ev < nev; ev++) {
    int np = preds(g, ev, p);
    for (int k = 0; k < np; k++) succ[start[p[k].ev] + fill[p[k].ev]++] = ev;
  }
  free(fill);
  uint32_t *order = rtg_xmalloc(nev * sizeof *order, "the critical path");
  size_t head = 0, tail = 0;
  for (uint32_t ev = 0; ev < nev; ev++)
    if (!indeg[ev]) order[tail++] = ev;
  while (head < tail) {
    uint32_t ev = order[head++];
    for (uint32_t s = start[ev]; s < start[ev + 1]; s++)
      if (!--indeg[succ[s]]) order[tail++] = succ[s];
  }
  free(indeg), free(start), free(succ);
  *norder = tail;
  return order;
}

/* The time of the last event when the ops that match (name, or every copy)
 * take half as long: the graph run forward in order, the edge that set an
 * event's time in the trace with its observed delay, the others with their
 * intrinsic ones. */
static uint64_t rerun(const graph *g, const uint32_t *order, size_t norder, uint32_t name) {
  size_t nev = 2 * g->nn;
  uint64_t *t = rtg_xmalloc(nev * sizeof *t, "the critical path"), end = 0;
  for (uint32_t ev = 0; ev < nev; ev++) t[ev] = ev_time(g, ev);
  pred p[NPRED];
  for (size_t i = 0; i < norder; i++) {
    uint32_t ev = order[i];
    int np = preds(g, ev, p);
    if (!np) continue;
    int b = bind(g, ev, p, np);
    p[b].delay = ev_time(g, ev) - ev_time(g, p[b].ev);
    const node *x = &g->n[ev / 2];
    uint64_t best = 0;
    for (int k = 0; k < np; k++) {
      uint64_t d = p[k].delay;
      if (p[k].kind == E_DUR && x->type != N_CALL &&
          (name == AN_CP_ALL_COPIES ? x->type == N_COPY : x->type == N_KERNEL && x->name == name))
        d /= 2;
      uint64_t at = t[p[k].ev] + d;
      if (!k || at > best) best = at;
    }
    t[ev] = best;
  }
  for (size_t ev = 0; ev < nev; ev++)
    if (t[ev] > end) end = t[ev];
  free(t);
  return end;
}

static void share(rtg_u64map *m, uint32_t name, uint64_t ns) {
  uint64_t *v = rtg_u64map_put(m, name, 0, NULL);
  if (v) *v += ns;
}

static int share_order(const void *a, const void *b) {
  const an_cp_share *x = a, *y = b;
  if (x->ns != y->ns) return x->ns > y->ns ? -1 : 1;
  return x->name < y->name ? -1 : x->name > y->name;
}

static int top(const rtg_u64map *m, an_cp_share *out) {
  size_t n = m->n, k = 0;
  an_cp_share *all = rtg_xcalloc(n, sizeof *all, "the critical path");
  uint64_t key, val;
  for (size_t it = 0; rtg_u64map_next(m, &it, &key, &val);)
    all[k++] = (an_cp_share){(uint32_t)key, val};
  qsort(all, k, sizeof *all, share_order);
  int nt = k < AN_CP_TOP ? (int)k : AN_CP_TOP;
  memcpy(out, all, (size_t)nt * sizeof *out);
  free(all);
  return nt;
}

/* Walks back from the last event along the edges that set each time. */
static void walk(const graph *g, uint64_t proc_start, an_cp_result *r) {
  size_t nev = 2 * g->nn;
  uint32_t cur = 0;
  for (uint32_t ev = 1; ev < nev; ev++) {
    uint64_t t = ev_time(g, ev), tc = ev_time(g, cur);
    if (t > tc || (t == tc && g->n[ev / 2].type != N_CALL)) cur = ev;
  }
  r->start = proc_start < ev_time(g, cur) ? proc_start : ev_time(g, cur);
  r->end = ev_time(g, cur);
  r->length = r->end - r->start;
  rtg_u64map kernels = {0}, calls = {0};
  pred pr[NPRED];
  for (size_t steps = 0; steps <= nev; steps++) {
    int np = preds(g, cur, pr);
    int b = bind(g, cur, pr, np);
    if (b < 0) {
      r->cat[AN_CP_HOST_CPU] += ev_time(g, cur) - r->start;
      break;
    }
    const pred *p = &pr[b];
    const node *x = &g->n[cur / 2], *from = &g->n[p->ev / 2];
    uint64_t d = ev_time(g, cur) - ev_time(g, p->ev);
    r->steps++;
    switch (p->kind) {
    case E_CPU:
      r->cat[AN_CP_HOST_CPU] += d;
      break;
    case E_DUR:
      if (x->type == N_CALL) {
        r->cat[AN_CP_API] += d;
        share(&calls, x->name, d);
      } else if (x->type == N_KERNEL) {
        r->cat[AN_CP_KERNEL] += d;
        share(&kernels, x->name, d);
      } else {
        r->cat[x->type == N_COPY ? AN_CP_COPY : AN_CP_BARRIER] += d;
      }
      break;
    case E_WAKE:
      r->cat[AN_CP_API] += d;
      share(&calls, x->name, d);
      break;
    case E_LAUNCH: { /* the call to the enqueue, then the queue */
      uint64_t api = x->enq > from->s ? x->enq - from->s : 0;
      if (api > d) api = d;
      r->cat[AN_CP_API] += api;
      share(&calls, from->name, api);
      r->cat[AN_CP_QUEUE] += d - api;
      break;
    }
    default: /* E_QPREV, E_DEP */
      r->cat[AN_CP_QUEUE] += d;
      break;
    }
    cur = p->ev;
  }
  r->nkernels = top(&kernels, r->kernels);
  r->ncalls = top(&calls, r->calls);
  rtg_u64map_free(&kernels);
  rtg_u64map_free(&calls);
}

bool an_critical_path(uint64_t proc_start, const an_call *calls, size_t ncalls,
                      const an_cp_gpu *gpus, size_t ngpus, an_cp_result *out) {
  memset(out, 0, sizeof *out);
  size_t nops = 0;
  for (size_t i = 0; i < ngpus; i++) nops += gpus[i].nops;
  if (!nops) return false;
  graph g = {0};
  build(&g, proc_start, calls, ncalls, gpus, ngpus);
  if (g.nn == g.ncall) {
    free(g.n), free(g.l);
    return false;
  }
  walk(&g, proc_start, out);
  /* what-ifs: the kernels that take the most of the path, then copies */
  for (int i = 0; i < out->nkernels && out->nwhatif < AN_CP_WHATIFS - 1; i++)
    if (100 * out->kernels[i].ns >= out->length) /* 1 % of the path or more */
      out->whatif[out->nwhatif++] = (an_cp_whatif){out->kernels[i].name, 0};
  if (100 * out->cat[AN_CP_COPY] >= out->length)
    out->whatif[out->nwhatif++] = (an_cp_whatif){AN_CP_ALL_COPIES, 0};
  if (out->nwhatif) {
    size_t norder;
    uint32_t *order = topological(&g, &norder);
    for (int i = 0; i < out->nwhatif; i++)
      out->whatif[i].length = rerun(&g, order, norder, out->whatif[i].name) - out->start;
    free(order);
  }
  free(g.n), free(g.l);
  return true;
}
