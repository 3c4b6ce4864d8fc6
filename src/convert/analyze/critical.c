/* The critical path and its what-ifs: see critical.h. */
#include "critical.h"
#include "xalloc.h"
#include "sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parts.h"
#include "u64map.h"

const char *const an_cp_cat_names[AN_CP_NCATS] = {
    [AN_CP_HOST_CPU] = "host_cpu", [AN_CP_API] = "runtime_api", [AN_CP_QUEUE] = "queue",
    [AN_CP_KERNEL] = "kernels",    [AN_CP_COPY] = "copies",     [AN_CP_BARRIER] = "barriers",
};

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

#define NONE UINT32_MAX

/* An op's links to the nodes its start follows (NONE: none): a = the call
 * that enqueued it, b = the op before it in its queue, c = the op a
 * waiting barrier waited for. */
typedef struct links {
  uint32_t a, b, c;
} links;

/* A synchronisation and the op it waited for. */
typedef struct wake {
  uint32_t call, op;
} wake;

#define NPRED 3

typedef struct pred {
  uint32_t ev;
  uint8_t kind;
  uint64_t delay; /* the intrinsic delay: what the edge takes at least */
} pred;

/* Nodes 0 .. nc-1 are the top-level calls, by thread and start (the
 * caller's calls themselves when they all are, else a copy of those that
 * are), the ops follow; node i has events 2i (start) and 2i+1 (end). The
 * graph's edges are not stored: each event's predecessors come from its
 * node (a call's from the thread's call before it and the op its
 * synchronisation waited for, an op's from its links), and the edge that
 * set its time is chosen when asked (bind), so the graph costs 20 bytes an
 * op (where it is and its links) and 8 bytes a synchronisation; the calls
 * cost nothing when they are all top-level. */
typedef struct graph {
  const an_call *c;
  an_call *own; /* c when it is a copy */
  size_t nc;
  const an_op **o; /* the ops, each the caller's */
  links *l;
  size_t no, nn; /* nn = nc + no */
  wake *w;       /* by call */
  size_t nw;
  uint32_t last; /* the last event (the first of the latest, an op's before a call's) */
} graph;

static bool is_call(const graph *g, uint32_t i) {
  return i < g->nc;
}

static uint64_t ev_time(const graph *g, uint32_t ev) {
  uint32_t i = ev / 2;
  if (is_call(g, i)) return ev & 1 ? g->c[i].end : g->c[i].start;
  const an_op *x = g->o[i - g->nc];
  return ev & 1 ? x->end : x->start;
}

static uint64_t node_e(const graph *g, uint32_t i) {
  return is_call(g, i) ? g->c[i].end : g->o[i - g->nc]->end;
}

/* The op a call's synchronisation waited for; NONE: none. */
static uint32_t woke_by(const graph *g, uint32_t call) {
  if (!(g->c[call].flags & AN_CALL_SYNC)) return NONE;
  size_t lo = 0, hi = g->nw;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g->w[mid].call < call)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < g->nw && g->w[lo].call == call ? g->w[lo].op : NONE;
}

/* When op was enqueued: its tick, else its call's end, else (an op that
 * started before its call ended) its call's start; a barrier's is when its
 * queue reached it. 0: unknown. */
static uint64_t enq_of(const an_op *op) {
  uint64_t enq = op->kind != AN_OP_BARRIER ? op->enq : 0;
  if (!enq || enq > op->start)
    enq = !op->api_s ? 0 : op->api_e <= op->start ? op->api_e : op->api_s;
  return enq;
}

static void add_pred(const graph *g, pred *p, int *np, uint32_t ev, uint32_t from, uint8_t kind,
                     uint64_t intrinsic) {
  if (from == NONE || ev_time(g, from) > ev_time(g, ev)) return;
  p[(*np)++] = (pred){from, kind, intrinsic};
}

/* The predecessors of event ev, in a fixed order (ties go to the first). */
static int preds(const graph *g, uint32_t ev, pred p[NPRED]) {
  uint32_t i = ev / 2;
  int np = 0;
  if (is_call(g, i)) {
    const an_call *x = &g->c[i];
    if (!(ev & 1)) {
      if (i && g->c[i - 1].tid == x->tid) add_pred(g, p, &np, ev, 2 * (i - 1) + 1, E_CPU, 0);
      return np;
    }
    uint32_t b = woke_by(g, i);
    if (b == NONE) {
      add_pred(g, p, &np, ev, 2 * i, E_DUR, x->end - x->start);
    } else { /* start -> end: at least the return after the op it waited for */
      uint64_t wake = x->end - node_e(g, b);
      add_pred(g, p, &np, ev, 2 * i, E_DUR, wake);
      add_pred(g, p, &np, ev, 2 * b + 1, E_WAKE, wake);
    }
    return np;
  }
  const an_op *x = g->o[i - g->nc];
  const links *l = &g->l[i - g->nc];
  if (ev & 1) {
    add_pred(g, p, &np, ev, 2 * i, E_DUR, x->end - x->start);
  } else {
    if (l->a != NONE) add_pred(g, p, &np, ev, 2 * l->a, E_LAUNCH, enq_of(x) - g->c[l->a].start);
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
  const an_call *x = a, *y = b;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The call of thread tid that holds t, else the last one before it;
 * hint: the answer for an earlier time of the same thread (NONE: none),
 * galloped forward from. */
static uint32_t call_at(const graph *g, uint64_t tid, uint64_t t, uint32_t hint) {
  size_t lo = 0, hi = g->nc;
  const an_call *c = g->c;
  if (hint != NONE && c[hint].tid == tid && c[hint].start <= t) {
    size_t step = 1;
    lo = hint + 1;
    while (lo + step <= g->nc && c[lo + step - 1].tid == tid && c[lo + step - 1].start <= t)
      lo += step, step *= 2;
    hi = lo + step <= g->nc ? lo + step : g->nc;
  }
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (c[mid].tid < tid || (c[mid].tid == tid && c[mid].start <= t))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!lo || c[lo - 1].tid != tid) return NONE;
  return (uint32_t)(lo - 1);
}

/* The number of ops in byend whose end is at most t. */
static size_t ends_upto(const graph *g, const uint32_t *byend, size_t n, uint64_t t) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g->o[byend[mid] - g->nc]->end <= t)
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

/* The op of node i (i >= g->nc). */
static const an_op *op_node(const graph *g, uint32_t i) {
  return g->o[i - g->nc];
}

/* The top-level calls: a nested call is its outer call's time; the calls
 * before the process's start are left out. */
static void top_calls(graph *g, uint64_t proc_start, const an_call *calls, size_t ncalls,
                      bool calls_top) {
  if (calls_top) {
    g->c = calls, g->nc = ncalls;
    return;
  }
  an_call *v = rtg_xmalloc((ncalls + 1) * sizeof *v, "the critical path");
  size_t nc = 0;
  for (size_t i = 0; i < ncalls; i++) {
    const an_call *c = &calls[i];
    if (nc && v[nc - 1].tid == c->tid && c->start < v[nc - 1].end) continue;
    if (c->start < proc_start) continue;
    v[nc++] = *c;
  }
  an_sort(v, nc, sizeof *v, by_tid_start);
  g->c = g->own = v, g->nc = nc;
}

/* The queue of op i: its GPU (the last whose first op is at i or before)
 * and queue; UINT64_MAX for every copy. */
static uint64_t queue_of(const graph *g, const size_t *first, size_t ngpus, uint32_t i) {
  size_t d = ngpus;
  while (d > 1 && first[d - 1] > i) d--;
  const an_op *op = op_node(g, i);
  return op->queue == AN_NO_QUEUE ? UINT64_MAX : (uint64_t)(d - 1) << 32 | op->queue;
}

/* ev replaces *cur as the last event: later, or as late and an op's. */
static void later(const graph *g, uint32_t ev, uint32_t *cur, uint64_t *tc) {
  uint64_t t = ev_time(g, ev);
  if (t > *tc || (t == *tc && !is_call(g, ev / 2))) *cur = ev, *tc = t;
}

/* What build links once the nodes are made: the ops' links by queue
 * (queue_links) and those by end time, the synchronisations and the last
 * event (end_links); the two write apart (links' a and b, its c). */
typedef struct links_job {
  graph *g;
  const an_cp_gpu *gpus;
  size_t ngpus;
  const size_t *first, *skip; /* each GPU's first op's node, its ops left out */
  waited *wv;                 /* the ops a thread waited for */
  size_t nwaited;
} links_job;

/* byq's ops [lo, hi): each one's enqueuing call and the op before it in
 * its queue (key: byq's queues' ranks). */
typedef struct qlinks_job {
  graph *g;
  const uint32_t *byq, *key;
} qlinks_job;

static void qlinks_part(void *arg, size_t lo, size_t hi) {
  const qlinks_job *j = arg;
  graph *g = j->g;
  uint32_t hint = NONE; /* (where call_at looks from: the answer before) */
  for (size_t k = lo; k < hi; k++) {
    uint32_t i = j->byq[k];
    const an_op *x = op_node(g, i);
    links *l = &g->l[i - g->nc];
    uint64_t enq = enq_of(x);
    if (enq && x->tid) hint = l->a = call_at(g, x->tid, enq, hint);
    if (k && x->queue != AN_NO_QUEUE && j->key[k - 1] == j->key[k]) l->b = j->byq[k - 1];
  }
}

/* Each op's enqueuing call and the op before it in its queue. */
static void queue_links(const links_job *j) {
  graph *g = j->g;
  size_t nc = g->nc, no = g->no;
  uint32_t *byq = rtg_xmalloc((no + 1) * sizeof *byq, "the critical path");
  for (size_t i = 0; i < no; i++) byq[i] = (uint32_t)(nc + i);
  /* by queue, then start: the ops come by GPU, each GPU's by start; key:
   * an op's queue (GPU and queue; one for every copy) as its rank, then
   * (an_group) byq's */
  uint32_t *key = rtg_xmalloc((no + 1) * sizeof *key, "the critical path");
  rtg_u64map dense = {0}; /* queue -> 1 + its rank of first appearance */
  uint64_t last_q = 0;
  uint32_t last_v = 0; /* (runs of one queue: one lookup) */
  for (size_t d = 0, i = 0; d < j->ngpus; d++)
    for (size_t k = j->skip[d]; k < j->gpus[d].nops; k++, i++) {
      bool added;
      const an_op *op = g->o[i];
      uint64_t q = op->queue == AN_NO_QUEUE ? UINT64_MAX : (uint64_t)d << 32 | op->queue;
      if (last_v && q == last_q) {
        key[i] = last_v;
        continue;
      }
      uint64_t *v = rtg_u64map_put(&dense, q, 0, &added);
      if (!v) rtg_out_of_memory("the critical path's queues");
      if (added) *v = dense.n;
      key[i] = last_v = (uint32_t)*v, last_q = q;
    }
  rtg_u64map_free(&dense);
  an_group(byq, no, sizeof *byq, key);
  qlinks_job qj = {g, byq, key};
  if (no >= an_apart())
    rtg_parts_run(no, 1, 8, qlinks_part, &qj);
  else
    qlinks_part(&qj, 0, no);
  free(key);
  free(byq);
}

/* The op call's synchronisation waited for (NONE: none, or no sync): the
 * latest op to end within it that its thread waited for; without one, the
 * latest op to end within it, launched before it ended (byend: the ops by
 * end; wv: by thread and end). */
static uint32_t sync_wake(const graph *g, const uint32_t *byend, const waited *wv, size_t nwaited,
                          size_t call) {
  const an_call *c = &g->c[call];
  if (!(c->flags & AN_CALL_SYNC)) return NONE;
  const waited *w = last_waited(wv, nwaited, c->tid, c->end);
  if (w && w->end >= c->start) return w->node;
  size_t j = ends_upto(g, byend, g->no, c->end);
  for (int look = 0; j > 0 && look < SEARCH; j--, look++) {
    const an_op *o = op_node(g, byend[j - 1]);
    if (o->end < c->start) break;
    uint64_t enq = enq_of(o);
    if (enq && enq < c->end) return byend[j - 1];
  }
  return NONE;
}

static void add_wake(graph *g, size_t *capw, wake w) {
  if (g->nw == *capw) {
    *capw = *capw ? 2 * *capw : 256;
    g->w = rtg_xrealloc(g->w, *capw * sizeof *g->w, "the critical path");
  }
  g->w[g->nw++] = w;
}

/* The synchronisations of the calls cut in WAKE_PARTS parts of
 * consecutive calls, each part's wakes in order in a graph of its own
 * (its w and nw only). */
#define WAKE_PARTS 8

typedef struct wakes_job {
  const graph *g;
  const uint32_t *byend;
  const waited *wv;
  size_t nwaited, nparts;
  graph *parts;
} wakes_job;

static void wakes_part(void *arg, size_t lo, size_t hi) {
  const wakes_job *j = arg;
  for (size_t p = lo; p < hi; p++) {
    graph *x = &j->parts[p];
    size_t capw = 0;
    for (size_t i = j->g->nc * p / j->nparts; i < j->g->nc * (p + 1) / j->nparts; i++) {
      uint32_t by = sync_wake(j->g, j->byend, j->wv, j->nwaited, i);
      if (by != NONE) add_wake(x, &capw, (wake){(uint32_t)i, by});
    }
  }
}

/* Each waiting barrier's op, each synchronisation's and the last event. */
static void end_links(const links_job *j) {
  graph *g = j->g;
  size_t nc = g->nc, no = g->no, ngpus = j->ngpus, nwaited = j->nwaited;
  const size_t *first = j->first, *skip = j->skip;
  const an_cp_gpu *gpus = j->gpus;
  waited *wv = j->wv;
  uint32_t *byend = rtg_xmalloc((no + 1) * sizeof *byend, "the critical path");
  uint64_t *ends = rtg_xmalloc((no + 1) * sizeof *ends, "the critical path");
  for (size_t i = 0; i < no; i++) ends[i] = g->o[i]->end;
  an_order_by_key(ends, no, byend);
  free(ends);
  for (size_t i = 0; i < no; i++) byend[i] += (uint32_t)nc;
  /* a waiting barrier <- the op that signalled it; without one known, the
   * op that ended last before it on another queue */
  for (size_t d = 0; d < ngpus; d++)
    for (size_t k = 0; k < gpus[d].ndeps; k++) {
      const an_cp_dep *x = &gpus[d].deps[k];
      if (x->op < skip[d] || x->src_op < skip[x->src_gpu]) continue;
      size_t i = first[d] + x->op - skip[d], jj = first[x->src_gpu] + x->src_op - skip[x->src_gpu];
      if (i != jj) g->l[i - nc].c = (uint32_t)jj;
    }
  for (size_t i = nc; i < g->nn; i++) {
    const an_op *x = op_node(g, (uint32_t)i);
    if (x->kind != AN_OP_BARRIER || !x->deps || g->l[i - nc].c != NONE) continue;
    size_t j = ends_upto(g, byend, no, x->start);
    for (int look = 0; j > 0 && look < SEARCH; j--, look++) {
      if (queue_of(g, first, ngpus, byend[j - 1]) != queue_of(g, first, ngpus, (uint32_t)i) &&
          byend[j - 1] != i) {
        g->l[i - nc].c = byend[j - 1];
        break;
      }
    }
  }
  /* a synchronisation <- the latest op to end within it that its thread
   * waited for; without one, the latest op to end within it, launched
   * before it ended; and the last event, in the same pass */
  an_sort(wv, nwaited, sizeof *wv, by_waiter_end);
  size_t capw = 0;
  size_t nparts = nc < WAKE_PARTS ? nc : WAKE_PARTS;
  if (no >= an_apart() && nparts > 1) { /* the parts' wakes joined in order */
    graph *parts = rtg_xcalloc(nparts, sizeof *parts, "the critical path");
    wakes_job wj = {g, byend, wv, nwaited, nparts, parts};
    rtg_parts_run(nparts, 1, nparts, wakes_part, &wj);
    size_t n = 0;
    for (size_t p = 0; p < nparts; p++) n += parts[p].nw;
    g->w = rtg_xmalloc((n + 1) * sizeof *g->w, "the critical path");
    for (size_t p = 0; p < nparts; p++) {
      if (parts[p].nw) memcpy(g->w + g->nw, parts[p].w, parts[p].nw * sizeof *g->w);
      g->nw += parts[p].nw;
      free(parts[p].w);
    }
    free(parts);
  } else {
    for (size_t i = 0; i < nc; i++) {
      uint32_t by = sync_wake(g, byend, wv, nwaited, i);
      if (by != NONE) add_wake(g, &capw, (wake){(uint32_t)i, by});
    }
  }
  uint32_t cur = 0;
  uint64_t tc = g->nn ? ev_time(g, 0) : 0;
  for (size_t i = 0; i < nc; i++) {
    if (i) later(g, (uint32_t)(2 * i), &cur, &tc);
    later(g, (uint32_t)(2 * i + 1), &cur, &tc);
  }
  for (size_t ev = nc ? 2 * nc : 1; ev < 2 * g->nn; ev++) later(g, (uint32_t)ev, &cur, &tc);
  g->last = cur;
  free(byend);
}

static void links_part(void *arg, size_t lo, size_t hi) {
  for (size_t i = lo; i < hi; i++) i ? end_links(arg) : queue_links(arg);
}

static void build(graph *g, uint64_t proc_start, const an_call *calls, size_t ncalls,
                  bool calls_top, const an_cp_gpu *gpus, size_t ngpus) {
  size_t nops = 0;
  for (size_t i = 0; i < ngpus; i++) nops += gpus[i].nops;
  top_calls(g, proc_start, calls, ncalls, calls_top);
  size_t nc = g->nc;
  g->o = rtg_xmalloc((nops + 1) * sizeof *g->o, "the critical path");
  /* a GPU's ops before the process's start (a prefix: they are by start)
   * are left out; first[d]: its first op's node, skip[d]: how many */
  size_t *first = rtg_xmalloc(2 * (ngpus + 1) * sizeof *first, "the critical path"),
         *skip = first + ngpus + 1;
  for (size_t d = 0, at = nc; d < ngpus; d++) {
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
  size_t no = 0;
  for (size_t d = 0; d < ngpus; d++)
    for (size_t i = skip[d]; i < gpus[d].nops; i++) {
      const an_op *op = &gpus[d].ops[i];
      if (gpus[d].waiter && gpus[d].waiter[i])
        wv[nwaited++] = (waited){gpus[d].waiter[i], op->end, (uint32_t)(nc + no)};
      g->o[no++] = op;
    }
  g->no = no;
  g->nn = nc + no;
  g->l = rtg_xmalloc((no + 1) * sizeof *g->l, "the critical path");
  for (size_t i = 0; i < no; i++) g->l[i] = (links){NONE, NONE, NONE};

  links_job j = {g, gpus, ngpus, first, skip, wv, nwaited};
  if (no >= an_apart())
    rtg_parts_run(2, 1, 2, links_part, &j);
  else
    links_part(&j, 0, 2);
  free(first);
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
    const an_op *x = is_call(g, ev / 2) ? NULL : op_node(g, ev / 2);
    uint64_t best = 0;
    for (int k = 0; k < np; k++) {
      uint64_t d = p[k].delay;
      if (p[k].kind == E_DUR && x &&
          (name == AN_CP_ALL_COPIES ? x->kind == AN_OP_COPY
                                    : x->kind == AN_OP_KERNEL && x->name == name))
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
  uint32_t cur = g->last;
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
    uint32_t i = cur / 2;
    const an_op *x = is_call(g, i) ? NULL : op_node(g, i);
    uint64_t d = ev_time(g, cur) - ev_time(g, p->ev);
    r->steps++;
    switch (p->kind) {
    case E_CPU:
      r->cat[AN_CP_HOST_CPU] += d;
      break;
    case E_DUR:
      if (!x) {
        r->cat[AN_CP_API] += d;
        share(&calls, g->c[i].name, d);
      } else if (x->kind == AN_OP_KERNEL) {
        r->cat[AN_CP_KERNEL] += d;
        share(&kernels, x->name, d);
      } else {
        r->cat[x->kind == AN_OP_COPY ? AN_CP_COPY : AN_CP_BARRIER] += d;
      }
      break;
    case E_WAKE:
      r->cat[AN_CP_API] += d;
      share(&calls, g->c[i].name, d);
      break;
    case E_LAUNCH: { /* the call to the enqueue, then the queue */
      const an_call *from = &g->c[p->ev / 2];
      uint64_t enq = enq_of(x);
      uint64_t api = enq > from->start ? enq - from->start : 0;
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

static void graph_free(graph *g) {
  free(g->own), free(g->o), free(g->l), free(g->w);
}

bool an_critical_path(uint64_t proc_start, const an_call *calls, size_t ncalls, bool calls_top,
                      const an_cp_gpu *gpus, size_t ngpus, an_cp_result *out) {
  memset(out, 0, sizeof *out);
  size_t nops = 0;
  for (size_t i = 0; i < ngpus; i++) nops += gpus[i].nops;
  if (!nops) return false;
  graph g = {0};
  build(&g, proc_start, calls, ncalls, calls_top, gpus, ngpus);
  if (!g.no) {
    graph_free(&g);
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
  graph_free(&g);
  return true;
}
