/* The idle causes of one (process, GPU): see attrib.h. */
#include "attrib.h"
#include "xalloc.h"
#include "sort.h"

#include <stdlib.h>
#include <string.h>

#include "ivset.h"
#include "parts.h"
#include "u64map.h"
#include "shared/tmspan.h"

const char *const an_cause_names[AN_NCAUSES] = {
    [AN_STARTUP] = "startup",
    [AN_COPY_ONLY] = "copy_only",
    [AN_DEPENDENCY] = "dependency",
    [AN_LAUNCH_LATENCY] = "launch_latency",
    [AN_HOST_SYNC] = "host_sync",
    [AN_HOST_API] = "host_api",
    [AN_HOST_OUTSIDE_API] = "host_outside_api",
};

static bool starts(const char *s, const char *prefix) {
  return !strncmp(s, prefix, strlen(prefix));
}

bool an_is_sync_call(const char *name) {
  size_t n = strlen(name);
  if (n >= 11 && !strcmp(name + n - 11, "Synchronize")) return true;
  if ((starts(name, "hipMemcpy") || starts(name, "hipMemset")) && !strstr(name, "Async"))
    return true;
  /* an MPI call that blocks: all but the non-blocking starts and tests */
  if (starts(name, "MPI_")) return !starts(name, "MPI_I") && !starts(name, "MPI_Test");
  return starts(name, "hsa_signal_wait") || starts(name, "hsa_signal_group_wait") ||
         starts(name, "hsa_amd_signal_wait");
}

uint8_t an_call_flags(const char *name) {
  uint8_t f = an_is_sync_call(name) ? AN_CALL_SYNC : 0;
  if ((starts(name, "hipMemcpy") || starts(name, "hipMemset")) && !strstr(name, "Async"))
    f |= AN_CALL_COPY;
  /* hipMalloc covers hipMallocManaged, hipMallocPitch, ...; the stream
   * ordered hipMallocAsync and hipFreeAsync do not stall */
  static const char *const alloc[] = {"hipMalloc",   "hipFree",      "hipHostMalloc",
                                      "hipHostFree", "hipHostAlloc", "hipExtMallocWithFlags"};
  if (!strstr(name, "Async"))
    for (size_t i = 0; i < sizeof alloc / sizeof *alloc; i++)
      if (starts(name, alloc[i])) f |= AN_CALL_ALLOC;
  return f;
}

/* The time of each cause by key and thread (see an_detail), every key kept
 * while attributing; kept_details leaves the largest in an_result. */
#define NOTE_CACHE 64 /* recent (key, tid) of a cause: most pieces repeat one */

typedef struct notes {
  an_result *r;
  an_detail *v[AN_NCAUSES];
  size_t n[AN_NCAUSES], cap[AN_NCAUSES];
  rtg_u64map idx[AN_NCAUSES];              /* hash of (key, tid) -> index + 1 */
  uint32_t recent[AN_NCAUSES][NOTE_CACHE]; /* index + 1; 0: none */
} notes;

/* ns and count more for (key, tid) of cause (a new entry where none). */
static void detail_add(notes *nt, int cause, uint64_t key, uint64_t tid, uint64_t ns,
                       uint64_t count) {
  uint32_t *slot = &nt->recent[cause][(key * 0x9e3779b97f4a7c15ull ^ tid) % NOTE_CACHE];
  if (*slot) {
    an_detail *d = &nt->v[cause][*slot - 1];
    if (d->key == key && d->tid == tid) {
      d->ns += ns;
      d->count += count;
      return;
    }
  }
  uint64_t h = rtg_mix64(key ^ rtg_mix64(tid + 1));
  for (;; h++) { /* (distinct pairs whose hashes collide take the next) */
    bool added;
    uint64_t *v = rtg_u64map_put(&nt->idx[cause], h, 0, &added);
    if (!v) rtg_out_of_memory("the idle causes' details");
    if (added) {
      if (nt->n[cause] == nt->cap[cause]) {
        nt->cap[cause] = nt->cap[cause] ? 2 * nt->cap[cause] : 16;
        nt->v[cause] = rtg_xrealloc(nt->v[cause], nt->cap[cause] * sizeof *nt->v[cause],
                                    "the idle causes' details");
      }
      nt->v[cause][nt->n[cause]] = (an_detail){key, tid, ns, count};
      *v = ++nt->n[cause];
      *slot = (uint32_t)*v;
      return;
    }
    an_detail *d = &nt->v[cause][*v - 1];
    if (d->key == key && d->tid == tid) {
      d->ns += ns;
      d->count += count;
      *slot = (uint32_t)*v;
      return;
    }
  }
}

static void note(notes *nt, int cause, uint64_t key, uint64_t tid, uint64_t ns) {
  if (!ns) return;
  nt->r->cause[cause] += ns;
  detail_add(nt, cause, key, tid, ns, 1);
}

static int detail_order(const void *a, const void *b);

/* Each cause's largest details into the result, by time (equal ones in
 * the order they came); past AN_MAX_DETAILS the last entry takes the rest
 * (key UINT64_MAX). */
static void kept_details(notes *nt) {
  for (int c = 0; c < AN_NCAUSES; c++) {
    size_t n = nt->n[c];
    an_detail *d = nt->r->detail[c];
    if (n > AN_MAX_DETAILS) {
      qsort(nt->v[c], n, sizeof *nt->v[c], detail_order);
      memcpy(d, nt->v[c], (AN_MAX_DETAILS - 1) * sizeof *d);
      an_detail rest = {UINT64_MAX, 0, 0, 0};
      for (size_t i = AN_MAX_DETAILS - 1; i < n; i++)
        rest.ns += nt->v[c][i].ns, rest.count += nt->v[c][i].count;
      d[AN_MAX_DETAILS - 1] = rest;
      n = AN_MAX_DETAILS;
    } else if (n) {
      memcpy(d, nt->v[c], n * sizeof *d);
    }
    nt->r->ndetail[c] = (int)n;
    free(nt->v[c]);
    rtg_u64map_free(&nt->idx[c]);
  }
}

/* by start, then end: a barrier that completes as the next op starts (its
 * times are its completion's) comes before that op, as in its queue */
int an_op_by_start(const void *a, const void *b) {
  const an_op *x = a, *y = b;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

static int call_order(const void *a, const void *b) {
  const an_call *x = a, *y = b;
  if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
  if (x->start != y->start) return x->start < y->start ? -1 : 1;
  return x->end > y->end ? -1 : x->end < y->end; /* the outer call first */
}

void an_sort_ops(an_op *ops, size_t n) {
  an_sort(ops, n, sizeof *ops, an_op_by_start);
}

void an_sort_calls(an_call *calls, size_t n) {
  an_sort(calls, n, sizeof *calls, call_order);
}

unsigned an_sort_calls_shape(an_call *calls, size_t n, uint64_t after) {
  unsigned shape = 0;
  for (int pass = 0; pass < 2; pass++) {
    shape = AN_CALLS_DISJOINT | AN_CALLS_NONEMPTY | AN_CALLS_AFTER;
    bool sorted = true;
    for (size_t i = 0; i < n; i++) {
      const an_call *c = &calls[i];
      if (c->end <= c->start) shape &= ~(unsigned)AN_CALLS_NONEMPTY;
      if (c->start < after) shape &= ~(unsigned)AN_CALLS_AFTER;
      if (!i) continue;
      if (call_order(c - 1, c) > 0) {
        sorted = false;
        break;
      }
      if (c[-1].tid == c->tid && c->start < c[-1].end) shape &= ~(unsigned)AN_CALLS_DISJOINT;
    }
    if (sorted) break;
    an_sort_calls(calls, n);
  }
  return shape;
}

static int detail_order(const void *a, const void *b) {
  const an_detail *x = a, *y = b;
  return x->ns > y->ns ? -1 : x->ns < y->ns;
}

/* The op that ends an idle moment at t: the first to start at or after t
 * (else the last one before it); work: the first kernel or copy of those
 * (a barrier between names nothing the user launched). */
static size_t first_at(const an_gpu *g, uint64_t t) { /* the first op to start at or after t */
  size_t lo = 0, hi = g->nops;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (g->ops[mid].start < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* first_at for times that come in increasing order: from *at (the answer
 * for the time before), galloping forward; *at is left at the answer. */
static size_t first_at_from(const an_gpu *g, uint64_t t, size_t *at) {
  size_t lo = *at, step = 1;
  if (lo > g->nops || (lo && g->ops[lo - 1].start >= t)) return *at = first_at(g, t);
  while (lo + step <= g->nops && g->ops[lo + step - 1].start < t) lo += step, step *= 2;
  size_t hi = lo + step <= g->nops ? lo + step : g->nops;
  while (lo < hi) { /* the first in [lo, hi) to start at or after t */
    size_t mid = lo + (hi - lo) / 2;
    if (g->ops[mid].start < t)
      lo = mid + 1;
    else
      hi = mid;
  }
  return *at = lo;
}

static const an_op *next_op(const an_gpu *g, uint64_t t, bool work, size_t *at) {
  size_t lo = first_at_from(g, t, at);
  if (lo == g->nops) return &g->ops[g->nops - 1];
  for (size_t i = lo; work && i < g->nops; i++)
    if (g->ops[i].kind != AN_OP_BARRIER) return &g->ops[i];
  return &g->ops[lo];
}

/* A thread's top-level calls as segments (an_flatten_calls); calls that
 * are so already are the segments themselves (NULL: no copy made). */
typedef an_call seg;

an_call *an_flatten_calls(const an_call *calls, size_t ncalls, size_t *nseg) {
  seg *v = rtg_xmalloc((ncalls + 1) * sizeof *v, "the analysis's call segments");
  size_t n = 0;
  for (size_t i = 0; i < ncalls; i++) {
    const an_call *c = &calls[i];
    uint64_t s = c->start;
    if (c->end <= s) continue;
    if (n && v[n - 1].tid == c->tid && s < v[n - 1].end) {
      if (c->end <= v[n - 1].end) continue;
      s = v[n - 1].end;
    }
    v[n] = *c;
    v[n++].start = s;
  }
  *nseg = n;
  return v;
}

static seg *flatten(const an_gpu *g, size_t *nseg) {
  if (g->calls_flat) {
    *nseg = g->ncalls;
    return NULL;
  }
  return an_flatten_calls(g->calls, g->ncalls, nseg);
}

/* Where seg_after looks from: its last answer, for a time no later. */
typedef struct seg_hint {
  uint64_t tid, t;
  size_t at; /* SIZE_MAX: none */
} seg_hint;

/* The first segment of tid whose end is after t (n when none); from the
 * hint's answer, galloping forward, when it is one of tid for an earlier
 * time. */
static size_t seg_after(const seg *v, size_t n, uint64_t tid, uint64_t t, seg_hint *h) {
  size_t lo = 0, hi = n;
  if (h->at != SIZE_MAX && h->tid == tid && h->t <= t) {
    size_t step = 1;
    lo = h->at;
    while (lo + step <= n && v[lo + step - 1].tid == tid && v[lo + step - 1].end <= t)
      lo += step, step *= 2;
    hi = lo + step <= n ? lo + step : n;
  }
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].tid < tid || (v[mid].tid == tid && v[mid].end <= t))
      lo = mid + 1;
    else
      hi = mid;
  }
  *h = (seg_hint){tid, t, lo};
  return lo;
}

static uint64_t pair_key(const seg *v, size_t n, size_t before, size_t after, uint64_t tid) {
  uint64_t b = before < n && v[before].tid == tid ? (uint64_t)v[before].name + 1 : 0;
  uint64_t a = after < n && v[after].tid == tid ? (uint64_t)v[after].name + 1 : 0;
  return b << 32 | a;
}

static void piece(const an_gpu *g, int cause, uint64_t s, uint64_t e, uint64_t key, uint64_t tid) {
  if (g->piece && e > s) g->piece(g->piece_arg, cause, s, e, key, tid);
}

/* [a, b): nothing enqueued; what the thread tid was doing. */
static void host_piece(const an_gpu *g, notes *r, const seg *v, size_t n, seg_hint *h, uint64_t tid,
                       uint64_t a, uint64_t b) {
  size_t i = seg_after(v, n, tid, a, h);
  uint64_t cur = a;
  for (; i < n && v[i].tid == tid && v[i].start < b; i++) {
    if (v[i].start > cur) {
      uint64_t key = pair_key(v, n, i ? i - 1 : n, i, tid);
      note(r, AN_HOST_OUTSIDE_API, key, tid, v[i].start - cur);
      piece(g, AN_HOST_OUTSIDE_API, cur, v[i].start, key, tid);
      cur = v[i].start;
    }
    uint64_t e = v[i].end < b ? v[i].end : b;
    int cause = v[i].sync ? AN_HOST_SYNC : AN_HOST_API;
    note(r, cause, v[i].name, tid, e - cur);
    piece(g, cause, cur, e, v[i].name, tid);
    cur = e;
  }
  if (cur < b) {
    uint64_t key = pair_key(v, n, i ? i - 1 : n, i, tid);
    note(r, AN_HOST_OUTSIDE_API, key, tid, b - cur);
    piece(g, AN_HOST_OUTSIDE_API, cur, b, key, tid);
  }
}

#define WAITER_SEARCH 64 /* ops looked at after a dependency piece for its waiting op */

/* What the op that waits through [s, e) waited for (an_op.waits_for): the
 * first op at or after e with dependencies whose wait began by s; 0: none
 * known. */
static uint32_t waits_for(const an_gpu *g, uint64_t s, uint64_t e) {
  size_t lo = first_at(g, e);
  for (size_t i = lo; i < g->nops && i < lo + WAITER_SEARCH; i++) {
    const an_op *op = &g->ops[i];
    uint64_t from = op->enq && op->enq < op->start ? op->enq : op->start;
    if (op->waits_for && from <= s) return op->waits_for;
  }
  return 0;
}

/* rest -= set, the part taken noted for cause, each piece by the op that
 * ends it (a dependency: by what its waiting op waited for, when known). */
static void take(notes *r, const an_gpu *g, an_ivset *rest, const an_ivset *set, int cause) {
  an_ivset got = {0}, left = {0};
  an_iv_intersect(rest, set, &got);
  size_t at = 0; /* (the pieces come in time order) */
  for (size_t i = 0; i < got.n; i++) {
    uint32_t w = cause == AN_DEPENDENCY ? waits_for(g, got.v[i].s, got.v[i].e) : 0;
    uint64_t key = w ? AN_DETAIL_WAITS_FOR | (w - 1) : next_op(g, got.v[i].e, true, &at)->name;
    note(r, cause, key, 0, got.v[i].e - got.v[i].s);
    piece(g, cause, got.v[i].s, got.v[i].e, key, 0);
  }
  an_iv_subtract(rest, set, &left);
  an_iv_move(rest, &left);
  an_iv_free(&got);
}

/* The ops' interval sets: kernels, copies, the waits of barriers with
 * dependency signals (from when their queue reached them), enqueue to
 * start; each normalized and clipped to the span [s, e), made apart. */
enum { SET_KERN, SET_COPY, SET_DEP, SET_LAUNCH, NSETS };

typedef struct sets_job {
  const an_gpu *g;
  an_result *res; /* kernels and copies counted */
  an_ivset *set;  /* NSETS */
  uint64_t s, e;
} sets_job;

static void make_set(const sets_job *j, int k) {
  const an_gpu *g = j->g;
  an_ivset *set = &j->set[k];
  if (k != SET_DEP) an_iv_reserve(set, g->nops);
  uint64_t count = 0;
  for (size_t i = 0; i < g->nops; i++) {
    const an_op *op = &g->ops[i];
    switch (k) {
    case SET_KERN:
      if (op->kind == AN_OP_KERNEL) an_iv_add(set, op->start, op->end), count++;
      break;
    case SET_COPY:
      if (op->kind == AN_OP_COPY) an_iv_add(set, op->start, op->end), count++;
      break;
    case SET_DEP:
      if (op->kind == AN_OP_BARRIER && op->deps)
        an_iv_add(set, op->enq && op->enq < op->start ? op->enq : op->start, op->end);
      break;
    default:
      if (op->kind != AN_OP_BARRIER && op->enq) an_iv_add(set, op->enq, op->start);
    }
  }
  if (k == SET_KERN) j->res->kernels = count;
  if (k == SET_COPY) j->res->copies = count;
  an_iv_normalize(set);
  an_iv_clip(set, j->s, j->e);
}

static void sets_part(void *arg, size_t lo, size_t hi) {
  for (size_t k = lo; k < hi; k++) make_set(arg, (int)k);
}

/* A part of the idle time (consecutive idle intervals) attributed apart:
 * its causes' time and details, and its pieces in order, with where each
 * of idle_causes's four steps ends among them. */
typedef struct kept {
  int cause;
  uint64_t s, e, key, tid;
} kept;

typedef struct rest_part {
  an_ivset rest;
  an_result res;
  notes nt;
  kept *v;
  size_t n, cap;
  size_t ends[4];
} rest_part;

static void keep(void *arg, int cause, uint64_t s, uint64_t e, uint64_t key, uint64_t tid) {
  rest_part *x = arg;
  if (x->n == x->cap) {
    x->cap = x->cap ? 2 * x->cap : 256;
    x->v = rtg_xrealloc(x->v, x->cap * sizeof *x->v, "the idle pieces");
  }
  x->v[x->n++] = (kept){cause, s, e, key, tid};
}

/* The idle time left in rest once the kernels and the startup took theirs:
 * the copies', the dependencies' and the launches' shares, then what each
 * host thread was doing (ends: where each step's pieces end; NULL: not
 * kept apart). */
static void idle_causes(const an_gpu *g, notes *nt, an_ivset *rest, const an_ivset *copy,
                        const an_ivset *dep, const an_ivset *launch, const seg *segs, size_t nseg,
                        rest_part *part) {
  take(nt, g, rest, copy, AN_COPY_ONLY);
  if (part) part->ends[0] = part->n;
  take(nt, g, rest, dep, AN_DEPENDENCY);
  if (part) part->ends[1] = part->n;
  take(nt, g, rest, launch, AN_LAUNCH_LATENCY);
  if (part) part->ends[2] = part->n;
  size_t at = 0;
  seg_hint h = {.at = SIZE_MAX};
  for (size_t i = 0; i < rest->n; i++) {
    const an_op *op = next_op(g, rest->v[i].e, false, &at);
    uint64_t tid = op->tid ? op->tid : g->default_tid;
    host_piece(g, nt, segs, nseg, &h, tid, rest->v[i].s, rest->v[i].e);
  }
  if (part) part->ends[3] = part->n;
}

/* The idle time cut in parts of consecutive intervals, each attributed on
 * its own: every piece of a cause lies within one idle interval, and what
 * an interval's pieces are depends on no other interval, so the parts'
 * pieces, in order, and their notes, added in order, are the whole's. */
#define REST_PARTS 8

typedef struct rest_job {
  const an_gpu *g;
  const an_ivset *rest, *copy, *dep, *launch;
  const seg *segs;
  size_t nseg;
  rest_part *parts;
  size_t nparts;
} rest_job;

/* The intervals of set that may meet [lo, hi): a view into it. */
static an_ivset view_of(const an_ivset *set, uint64_t lo, uint64_t hi) {
  size_t a = 0, b = set->n;
  while (a < b) { /* the first to end after lo */
    size_t mid = a + (b - a) / 2;
    if (set->v[mid].e <= lo)
      a = mid + 1;
    else
      b = mid;
  }
  size_t c = a, d = set->n;
  while (c < d) { /* the first to start at hi or later */
    size_t mid = c + (d - c) / 2;
    if (set->v[mid].s < hi)
      c = mid + 1;
    else
      d = mid;
  }
  return (an_ivset){set->v ? set->v + a : NULL, c - a, 0};
}

static void rest_run(void *arg, size_t lo, size_t hi) {
  const rest_job *j = arg;
  for (size_t p = lo; p < hi; p++) {
    rest_part *x = &j->parts[p];
    size_t a = j->rest->n * p / j->nparts, b = j->rest->n * (p + 1) / j->nparts;
    an_iv_reserve(&x->rest, b - a);
    memcpy(x->rest.v, j->rest->v + a, (b - a) * sizeof *x->rest.v);
    x->rest.n = b - a;
    uint64_t from = x->rest.v[0].s, to = x->rest.v[b - a - 1].e;
    an_ivset copy = view_of(j->copy, from, to), dep = view_of(j->dep, from, to),
             launch = view_of(j->launch, from, to);
    an_gpu g = *j->g;
    if (g.piece) g.piece = keep, g.piece_arg = x, g.piece_slots = NULL, g.piece_put = NULL;
    x->nt.r = &x->res;
    idle_causes(&g, &x->nt, &x->rest, &copy, &dep, &launch, j->segs, j->nseg, x);
    an_iv_free(&x->rest);
  }
}

/* The parts' pieces put in their slots, each step's part after part (at:
 * the slot of each part's first piece of each step). */
typedef struct put_job {
  const an_gpu *g;
  const rest_part *parts;
  size_t (*at)[4];
} put_job;

static void put_part(void *arg, size_t lo, size_t hi) {
  const put_job *j = arg;
  for (size_t p = lo; p < hi; p++)
    for (int step = 0; step < 4; step++) {
      size_t from = step ? j->parts[p].ends[step - 1] : 0;
      for (size_t k = from; k < j->parts[p].ends[step]; k++) {
        const kept *x = &j->parts[p].v[k];
        j->g->piece_put(j->g->piece_arg, j->at[p][step] + k - from, x->cause, x->s, x->e, x->key,
                        x->tid);
      }
    }
}

/* idle_causes on parts side by side, joined: the causes' time and details
 * in the order the whole would note them, the pieces in the order it would
 * give them (each step's, part after part), put side by side where they
 * can be. */
static void idle_causes_apart(const an_gpu *g, notes *nt, const an_ivset *rest,
                              const an_ivset *copy, const an_ivset *dep, const an_ivset *launch,
                              const seg *segs, size_t nseg, size_t nparts) {
  rest_part *parts = rtg_xcalloc(nparts, sizeof *parts, "the idle causes");
  rest_job j = {g, rest, copy, dep, launch, segs, nseg, parts, nparts};
  rtg_parts_run(nparts, 1, nparts, rest_run, &j);
  for (int c = 0; c < AN_NCAUSES; c++)
    for (size_t p = 0; p < nparts; p++) {
      notes *x = &parts[p].nt;
      nt->r->cause[c] += parts[p].res.cause[c];
      for (size_t k = 0; k < x->n[c]; k++)
        detail_add(nt, c, x->v[c][k].key, x->v[c][k].tid, x->v[c][k].ns, x->v[c][k].count);
      free(x->v[c]);
      rtg_u64map_free(&x->idx[c]);
    }
  if (g->piece && g->piece_slots && g->piece_put) {
    size_t(*at)[4] = rtg_xmalloc(nparts * sizeof *at, "the idle pieces"), total = 0;
    for (size_t p = 0; p < nparts; p++) total += parts[p].n;
    size_t slot = g->piece_slots(g->piece_arg, total);
    for (int step = 0; step < 4; step++)
      for (size_t p = 0; p < nparts; p++) {
        at[p][step] = slot;
        slot += parts[p].ends[step] - (step ? parts[p].ends[step - 1] : 0);
      }
    put_job pj = {g, parts, at};
    rtg_parts_run(nparts, 1, nparts, put_part, &pj);
    free(at);
  } else {
    for (int step = 0; step < 4 && g->piece; step++)
      for (size_t p = 0; p < nparts; p++)
        for (size_t k = step ? parts[p].ends[step - 1] : 0; k < parts[p].ends[step]; k++) {
          const kept *x = &parts[p].v[k];
          g->piece(g->piece_arg, x->cause, x->s, x->e, x->key, x->tid);
        }
  }
  for (size_t p = 0; p < nparts; p++) free(parts[p].v);
  free(parts);
}

bool an_attribute(an_gpu *g, an_result *res) {
  memset(res, 0, sizeof *res);
  if (!g->nops) return false;
  an_sort_ops(g->ops, g->nops);
  if (!g->calls_flat) an_sort_calls(g->calls, g->ncalls);
  uint64_t first = UINT64_MAX, first_start = UINT64_MAX, last = 0;
  for (size_t i = 0; i < g->nops; i++) {
    const an_op *op = &g->ops[i];
    uint64_t begin = op->kind == AN_OP_BARRIER && op->deps && op->enq && op->enq < op->start
                         ? op->enq
                         : op->start; /* a waiting barrier's wait is the GPU's first work */
    if (begin < first) first = begin;
    if (op->start < first_start) first_start = op->start;
    if (op->end > last) last = op->end;
  }
  uint64_t s, e;
  if (!tm_span(g->proc_start, first_start, last, g->window_start, g->window_end, &s, &e))
    return false;
  res->span_start = s, res->span_end = e, res->span = e - s;

  an_ivset set[NSETS] = {{0}};
  sets_job job = {g, res, set, s, e};
  if (g->nops >= an_apart())
    rtg_parts_run(NSETS, 1, NSETS, sets_part, &job);
  else
    sets_part(&job, 0, NSETS);
  an_ivset kern = set[SET_KERN], copy = set[SET_COPY], dep = set[SET_DEP], launch = set[SET_LAUNCH];
  res->busy = an_iv_total(&kern);
  res->copy_busy = an_iv_total(&copy);
  res->idle = res->span - res->busy;

  an_ivset whole = {0}, rest = {0};
  an_iv_add(&whole, s, e);
  an_iv_subtract(&whole, &kern, &rest);
  /* the startup [s, f) takes the start of rest (which lies in [s, e)):
   * the intervals before f, the one across it cut there, in place */
  uint64_t f = first > s ? (first < e ? first : e) : s;
  size_t gone = 0;
  while (gone < rest.n && rest.v[gone].s < f) {
    uint64_t to = rest.v[gone].e < f ? rest.v[gone].e : f;
    res->cause[AN_STARTUP] += to - rest.v[gone].s;
    piece(g, AN_STARTUP, rest.v[gone].s, to, 0, 0);
    if (rest.v[gone].e > f) {
      rest.v[gone].s = f;
      break;
    }
    gone++;
  }
  if (gone) memmove(rest.v, rest.v + gone, (rest.n - gone) * sizeof *rest.v);
  rest.n -= gone;
  notes nt = {.r = res};
  size_t nseg;
  seg *own = flatten(g, &nseg);
  const seg *segs = own ? own : g->calls;
  size_t nparts = rest.n < REST_PARTS ? rest.n : REST_PARTS;
  if (g->nops >= an_apart() && nparts > 1)
    idle_causes_apart(g, &nt, &rest, &copy, &dep, &launch, segs, nseg, nparts);
  else
    idle_causes(g, &nt, &rest, &copy, &dep, &launch, segs, nseg, NULL);
  free(own);
  kept_details(&nt);
  for (int c = 0; c < AN_NCAUSES; c++)
    qsort(res->detail[c], (size_t)res->ndetail[c], sizeof(an_detail), detail_order);
  an_ivset *all[] = {&kern, &copy, &dep, &launch, &whole, &rest};
  for (size_t i = 0; i < sizeof all / sizeof *all; i++) an_iv_free(all[i]);
  return true;
}
