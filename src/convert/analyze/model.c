/* The analysis model: what the idle causes need, kept as the events come,
 * then resolved and attributed (analyze.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analyze.h"
#include "shared/timemodel.h"
#include "xalloc.h"
#include "sort.h"
#include "parts.h"

/* The next capacity of an array of the ops or calls, which grow with the
 * trace as the events come, on the dispatching thread: four times as large
 * from 64k elements, so that growing copies a third of the final array
 * rather than all of it (what is reserved and never written costs no
 * memory). */
static size_t next_cap(size_t cap) {
  return !cap ? 64 : cap < ((size_t)1 << 16) ? 2 * cap : 4 * cap;
}

static void *grow(void *p, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return p;
  size_t nc = next_cap(*cap);
  void *np = rtg_xrealloc(p, nc * size, "the analysis's ops and calls");
  *cap = nc;
  return np;
}

static an_proc *proc_of(an_state *st, uint32_t proc) {
  if (proc >= st->nprocs) {
    uint32_t n = proc + 1;
    an_proc *np = rtg_xrealloc(st->procs, n * sizeof *np, "the analysis's processes");
    memset(np + st->nprocs, 0, (n - st->nprocs) * sizeof *np);
    for (uint32_t i = st->nprocs; i < n; i++) np[i].first_launch = UINT64_MAX;
    st->procs = np;
    st->nprocs = n;
  }
  return &st->procs[proc];
}

static an_dev *dev_of(an_state *st, uint32_t proc, rtg_device device) {
  bool added;
  uint64_t *v = rtg_u64map_put(&st->dev_index, (uint64_t)proc << 32 | device, 0, &added);
  if (!v) rtg_out_of_memory("the analysis's GPUs");
  if (!*v) {
    if (st->ndevs == st->cap) {
      uint32_t nc = st->cap ? st->cap * 2 : 8;
      an_dev *nd = rtg_xrealloc(st->devs, nc * sizeof *nd, "the analysis's GPUs");
      st->devs = nd;
      st->cap = nc;
    }
    memset(&st->devs[st->ndevs], 0, sizeof *st->devs);
    st->devs[st->ndevs].proc = proc;
    st->devs[st->ndevs].device = device;
    *v = ++st->ndevs;
  }
  return &st->devs[*v - 1];
}

static void add_op(an_state *st, const cv_event *ev, rtg_device device, uint8_t kind) {
  an_dev *d = dev_of(st, ev->proc, device);
  if (d->nops == d->cap) {
    size_t nc = next_cap(d->cap);
    d->ops = rtg_xrealloc(d->ops, nc * sizeof *d->ops, "the analysis's GPU ops");
    d->corr = rtg_xrealloc(d->corr, nc * sizeof *d->corr, "the analysis's GPU ops");
    d->qid = rtg_xrealloc(d->qid, nc * sizeof *d->qid, "the analysis's GPU ops");
    d->sig = rtg_xrealloc(d->sig, nc * sizeof *d->sig, "the analysis's GPU ops");
    if (d->waiter)
      d->waiter = rtg_xrealloc(d->waiter, nc * sizeof *d->waiter, "the analysis's GPU ops");
    d->cap = nc;
  }
  if (ev->waiter && !d->waiter)
    d->waiter = rtg_xcalloc(d->cap, sizeof *d->waiter, "the analysis's GPU ops");
  if (d->waiter) d->waiter[d->nops] = (uint32_t)ev->waiter;
  d->ops[d->nops] = (an_op){.start = ev->start,
                            .end = ev->end,
                            .enq = ev->tick,
                            .name = cv_intern(st->ctx, ev->name ? ev->name : ""),
                            .queue = kind == AN_OP_COPY ? AN_NO_QUEUE : (uint32_t)ev->queue,
                            .kind = kind,
                            .deps = ev->has_deps || (kind == AN_OP_BARRIER && ev->name &&
                                                     !strcmp(ev->name, "barrier-value"))};
  d->corr[d->nops] = ev->has_corr ? ev->corr : UINT64_MAX;
  d->qid[d->nops] = kind == AN_OP_COPY ? UINT64_MAX : (ev->queue << 32 | (ev->id & 0xffffffffu));
  d->sig[d->nops] = ev->signal;
  if (kind == AN_OP_BARRIER && d->ops[d->nops].deps) {
    d->waiters = grow(d->waiters, &d->capwaiters, d->nwaiters, sizeof *d->waiters);
    an_waiter *w = &d->waiters[d->nwaiters++];
    w->op = d->nops;
    w->src_dev = UINT32_MAX;
    memcpy(w->dep, ev->deps, sizeof w->dep);
  }
  d->nops++;
}

static uint64_t qid_key(uint32_t proc, uint64_t qid) {
  return rtg_mix64((uint64_t)proc << 48 ^ qid);
}

#define CALL_FLAGS_KNOWN 0x80

/* an_call_flags of a name, once per name id. */
static uint8_t call_flags(an_state *st, uint32_t name, const char *s) {
  if (name >= st->ncall_flags) {
    uint32_t n = name < 256 ? 512 : 2 * name;
    st->call_flags = rtg_xrealloc(st->call_flags, n, "the analysis's calls");
    memset(st->call_flags + st->ncall_flags, 0, n - st->ncall_flags);
    st->ncall_flags = n;
  }
  if (!st->call_flags[name]) st->call_flags[name] = an_call_flags(s) | CALL_FLAGS_KNOWN;
  return st->call_flags[name] & ~CALL_FLAGS_KNOWN;
}

void an_add(an_state *st, const cv_event *ev) {
  if (ev->kinfo && !st->idle_only) cv_occ_add(st->ctx, &st->occ, ev);
  switch (ev->type) {
  case CV_HIP_API:
  case CV_HSA_API:
  case CV_MPI: {
    an_proc *p = proc_of(st, ev->proc);
    p->calls = grow(p->calls, &p->cap, p->ncalls, sizeof *p->calls);
    uint32_t name = cv_intern(st->ctx, ev->name);
    uint8_t flags = call_flags(st, name, ev->name);
    p->calls[p->ncalls] = (an_call){.tid = ev->tid,
                                    .start = ev->start,
                                    .end = ev->end,
                                    .name = name,
                                    .sync = flags & AN_CALL_SYNC,
                                    .flags = flags};
    p->ncalls++;
    if (ev->type == CV_HIP_API && !st->idle_only) {
      an_mem m;
      bool copy_call;
      if (an_mem_of_call(ev->name, ev->args, &m, &copy_call)) {
        p->mem = grow(p->mem, &p->capmem, p->nmem, sizeof *p->mem);
        m.start = ev->start, m.end = ev->end, m.tid = ev->tid, m.name = name;
        p->mem[p->nmem++] = m;
      } else if (copy_call && !ev->args) {
        p->mem_unchecked++;
      }
    }
    if (ev->type == CV_HIP_API && ev->has_corr) {
      p->corrs = grow(p->corrs, &p->capcorrs, p->ncorrs, sizeof *p->corrs);
      p->corrs[p->ncorrs][0] = ev->corr;
      p->corrs[p->ncorrs++][1] = p->ncalls - 1;
    }
    return;
  }
  case CV_HOST_DISPATCH:
  case CV_HOST_BARRIER: {
    uint64_t *v = rtg_u64map_put(
        &st->host_tid, qid_key(ev->proc, ev->queue << 32 | (ev->id & 0xffffffffu)), 0, NULL);
    if (v) *v = ev->tid;
    return;
  }
  case CV_KERNEL:
  case CV_BARRIER:
  case CV_COPY: {
    rtg_device d;
    enum tm_kind k;
    if (tm_op(st->ctx, ev, &d, &k))
      add_op(st, ev, d, k == TM_KERNEL ? AN_OP_KERNEL : k == TM_COPY ? AN_OP_COPY : AN_OP_BARRIER);
    return;
  }
  default:
    return;
  }
}

static int by_pair(const void *a, const void *b) {
  const uint64_t *x = a, *y = b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The HIP call of each corr id of a process (the last of calls with one
 * id): an array by id when ids are dense (they count up from 1), else the
 * ids sorted for a binary search. */
typedef struct corr_index {
  uint32_t *by_id; /* call index + 1; 0: none */
  uint64_t nid;
  bool sorted; /* else: p->corrs sorted by (id, index) */
} corr_index;

static void corr_index_of(an_proc *p, corr_index *x) {
  memset(x, 0, sizeof *x);
  uint64_t max = 0;
  for (size_t i = 0; i < p->ncorrs; i++)
    if (p->corrs[i][0] > max) max = p->corrs[i][0];
  if (max < 4 * (uint64_t)p->ncorrs + 65536 && p->ncalls < UINT32_MAX) {
    x->nid = max + 1;
    x->by_id = rtg_xcalloc(x->nid, sizeof *x->by_id, "the analysis's corr ids");
    for (size_t i = 0; i < p->ncorrs; i++) x->by_id[p->corrs[i][0]] = (uint32_t)p->corrs[i][1] + 1;
  } else {
    an_sort(p->corrs, p->ncorrs, sizeof *p->corrs, by_pair);
    x->sorted = true;
  }
}

static an_call *call_of_corr(an_proc *p, const corr_index *x, uint64_t corr) {
  if (!x->sorted) return corr < x->nid && x->by_id[corr] ? &p->calls[x->by_id[corr] - 1] : NULL;
  size_t lo = 0, hi = p->ncorrs; /* the last pair with this id */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->corrs[mid][0] <= corr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo && p->corrs[lo - 1][0] == corr ? &p->calls[p->corrs[lo - 1][1]] : NULL;
}

/* Who enqueued each op, and when: the HIP call of its corr: id (its
 * thread; its end when the op has no tick), else the host dispatch record. */
static void resolve(an_state *st, an_dev *d, const corr_index *x) {
  an_proc *p = proc_of(st, d->proc);
  for (size_t i = 0; i < d->nops; i++) {
    an_op *op = &d->ops[i];
    an_call *c = d->corr[i] != UINT64_MAX ? call_of_corr(p, x, d->corr[i]) : NULL;
    if (c) {
      op->tid = c->tid;
      op->api_s = c->start;
      op->api_e = c->end;
      op->call_flags = c->flags;
      /* a copy or fill that runs as a kernel is no kernel launch */
      if (op->kind == AN_OP_KERNEL && !(c->flags & AN_CALL_COPY)) c->flags |= AN_CALL_LAUNCHED;
      if (!op->enq) op->enq = c->end;
      continue;
    }
    if (d->qid[i] != UINT64_MAX) {
      uint64_t *v = rtg_u64map_get(&st->host_tid, qid_key(d->proc, d->qid[i]));
      if (v) op->tid = *v;
    }
  }
}

/* v (n elements of size bytes) in the order perm gives, in a new array. */
static void *permuted(void *v, const uint32_t *perm, size_t n, size_t size) {
  void *to = rtg_xmalloc(n * size + 1, "the analysis's GPU ops");
  an_gather(to, v, size, perm, n);
  free(v);
  return to;
}

/* The order of a device's ops in an_sort_ops's order (equal ones as they
 * came): perm[i] = the op that goes i-th; NULL when they are in it. */
static uint32_t *sort_order(const an_dev *d) {
  size_t n = d->nops, i = 1;
  while (i < n && an_op_by_start(&d->ops[i - 1], &d->ops[i]) <= 0) i++;
  if (i >= n) return NULL;
  if (n > UINT32_MAX) rtg_die(0, "more than 2^32 GPU ops on one GPU");
  uint32_t *perm = rtg_xmalloc(n * sizeof *perm, "the analysis's GPU ops");
  uint64_t *key = rtg_xmalloc(n * sizeof *key, "the analysis's GPU ops");
  for (i = 0; i < n; i++) key[i] = d->ops[i].start;
  an_order_by_key(key, n, perm);
  free(key);
  for (i = 1; i < n; i++) /* equal starts: by end (few, and next to each other) */
    for (size_t j = i; j > 0 && an_op_by_start(&d->ops[perm[j - 1]], &d->ops[perm[j]]) > 0; j--) {
      uint32_t t = perm[j];
      perm[j] = perm[j - 1], perm[j - 1] = t;
    }
  return perm;
}

/* A device's ops in the order perm gives, with their corr ids, queue ids
 * and signals, and its waiters' op indices; perm freed. */
static void sort_apply(an_dev *d, uint32_t *perm) {
  size_t n = d->nops, i;
  if (d->nwaiters) {
    uint32_t *at = rtg_xmalloc(n * sizeof *at, "the analysis's GPU ops");
    for (i = 0; i < n; i++) at[perm[i]] = (uint32_t)i;
    for (size_t w = 0; w < d->nwaiters; w++) d->waiters[w].op = at[d->waiters[w].op];
    free(at);
  }
  d->ops = permuted(d->ops, perm, n, sizeof *d->ops);
  d->corr = permuted(d->corr, perm, n, sizeof *d->corr);
  d->qid = permuted(d->qid, perm, n, sizeof *d->qid);
  d->sig = permuted(d->sig, perm, n, sizeof *d->sig);
  if (d->waiter) d->waiter = permuted(d->waiter, perm, n, sizeof *d->waiter);
  d->cap = n;
  free(perm);
}

/* Who enqueued each op of every process (resolve), before its calls are
 * sorted (an_proc.corrs indexes them). */
static void resolve_all(an_state *st) {
  for (uint32_t p = 0; p < st->nprocs; p++) {
    corr_index x;
    corr_index_of(&st->procs[p], &x);
    for (uint32_t i = 0; i < st->ndevs; i++)
      if (st->devs[i].proc == p) resolve(st, &st->devs[i], &x);
    free(x.by_id);
    free(st->procs[p].corrs); /* (only the resolving needed them) */
    st->procs[p].corrs = NULL;
    st->procs[p].ncorrs = st->procs[p].capcorrs = 0;
  }
}

/* The devices' orders (perm: one per device) beside the resolving: the
 * orders read the ops' times alone, the resolving writes none of them. */
typedef struct order_job {
  an_state *st;
  uint32_t **perm;
} order_job;

static void order_part(void *arg, size_t lo, size_t hi) {
  const order_job *j = arg;
  for (size_t k = lo; k < hi; k++)
    if (k)
      resolve_all(j->st);
    else
      for (uint32_t i = 0; i < j->st->ndevs; i++) j->perm[i] = sort_order(&j->st->devs[i]);
}

static int by_qid(const void *a, const void *b) {
  const uint64_t *x = a, *y = b; /* qid, index */
  return x[0] < y[0] ? -1 : x[0] > y[0];
}

/* A device's ops in queue order (qid: queue, then id) and each op's place
 * in it. */
typedef struct queue_order {
  uint64_t (*v)[2]; /* qid, op */
  size_t n;
  size_t *pos; /* per op; SIZE_MAX: no queue */
} queue_order;

/* (made once, when first asked for) */
static const queue_order *queue_order_of(const an_dev *d, queue_order *q) {
  if (q->v) return q;
  q->v = rtg_xmalloc((d->nops + 1) * sizeof *q->v, "the analysis");
  q->pos = rtg_xmalloc((d->nops + 1) * sizeof *q->pos, "the analysis");
  q->n = 0;
  for (size_t i = 0; i < d->nops; i++) {
    q->pos[i] = SIZE_MAX;
    if (d->qid[i] != UINT64_MAX) q->v[q->n][0] = d->qid[i], q->v[q->n][1] = i, q->n++;
  }
  an_sort(q->v, q->n, sizeof *q->v, by_qid);
  for (size_t k = 0; k < q->n; k++) q->pos[q->v[k][1]] = k;
  return q;
}

/* A barrier that waits (deps) waits from when its queue reaches it: its
 * enqueue, or the end of the op before it in its queue when that is later
 * (its GPU times are those of its completion); enq is set to that. */
static void barrier_waits(an_dev *d, const queue_order *q) {
  for (size_t k = 0; k < q->n; k++) {
    an_op *op = &d->ops[q->v[k][1]];
    if (op->kind != AN_OP_BARRIER || !op->deps) continue;
    uint64_t from = op->enq ? op->enq : op->start;
    if (k && q->v[k - 1][0] >> 32 == q->v[k][0] >> 32 && d->ops[q->v[k - 1][1]].end > from)
      from = d->ops[q->v[k - 1][1]].end;
    op->enq = from < op->start ? from : op->start;
  }
}

/* An op with a completion signal, for finding what a barrier waited on. */
typedef struct signalled {
  uint64_t sig, end;
  uint32_t dev;
  size_t op;
} signalled;

static int by_sig_end(const void *a, const void *b) {
  const signalled *x = a, *y = b;
  if (x->sig != y->sig) return x->sig < y->sig ? -1 : 1;
  return x->end < y->end ? -1 : x->end > y->end;
}

/* The op of v (sorted by signal, then end) that last ended on signal sig
 * by t; NULL: none. */
static const signalled *last_on(const signalled *v, size_t n, uint64_t sig, uint64_t t) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].sig < sig || (v[mid].sig == sig && v[mid].end <= t))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo && v[lo - 1].sig == sig ? &v[lo - 1] : NULL;
}

static uint32_t awaited_id(an_state *st, uint32_t name, rtg_device device, uint32_t queue) {
  uint64_t key = rtg_mix64(((uint64_t)name << 32 | queue) ^ rtg_mix64(device));
  bool added;
  uint64_t *v = rtg_u64map_put(&st->awaited_index, key, 0, &added);
  if (!v) rtg_out_of_memory("the analysis's dependencies");
  if (!added) {
    const an_awaited *a = &st->awaited[*v - 1];
    if (a->name == name && a->device == device && a->queue == queue) return (uint32_t)*v - 1;
    for (uint32_t i = 0; i < st->nawaited; i++) /* (a hash collision) */
      if (st->awaited[i].name == name && st->awaited[i].device == device &&
          st->awaited[i].queue == queue)
        return i;
  }
  if (st->nawaited == st->capawaited) {
    uint32_t nc = st->capawaited ? 2 * st->capawaited : 16;
    st->awaited =
        rtg_xrealloc(st->awaited, nc * sizeof *st->awaited, "the analysis's dependencies");
    st->capawaited = nc;
  }
  st->awaited[st->nawaited] = (an_awaited){name, device, queue};
  if (added) *v = st->nawaited + 1;
  return st->nawaited++;
}

#define WORK_SEARCH 16 /* barriers looked past, back in a queue, for the work before them */

/* What each barrier with dependency signals waited for (an_op.waits_for):
 * per process, the op that last ended on one of its signals by its end (a
 * signal is reused: the latest use is the one it saw), the latest of
 * those; an event's marker barrier stands for the work before it. */
static void match_waits(an_state *st, queue_order *qo) {
  for (uint32_t p = 0; p < st->nprocs; p++) {
    size_t n = 0, nw = 0;
    for (uint32_t k = 0; k < st->ndevs; k++)
      if (st->devs[k].proc == p) n += st->devs[k].nops, nw += st->devs[k].nwaiters;
    if (!nw) continue;
    signalled *v = rtg_xmalloc(n * sizeof *v, "the analysis's dependencies");
    n = 0;
    for (uint32_t k = 0; k < st->ndevs; k++) {
      const an_dev *d = &st->devs[k];
      if (d->proc != p) continue;
      for (size_t i = 0; i < d->nops; i++)
        if (d->sig[i]) v[n++] = (signalled){d->sig[i], d->ops[i].end, k, i};
    }
    qsort(v, n, sizeof *v, by_sig_end);
    for (uint32_t k = 0; k < st->ndevs; k++) {
      an_dev *d = &st->devs[k];
      if (d->proc != p) continue;
      for (size_t w = 0; w < d->nwaiters; w++) {
        an_op *op = &d->ops[d->waiters[w].op];
        const signalled *best = NULL;
        for (int j = 0; j < 5; j++) {
          const signalled *s =
              d->waiters[w].dep[j] ? last_on(v, n, d->waiters[w].dep[j], op->end) : NULL;
          if (s && !(s->dev == k && s->op == d->waiters[w].op) && (!best || s->end > best->end))
            best = s;
        }
        d->waiters[w].src_dev = best ? best->dev : UINT32_MAX;
        if (!best) continue;
        d->waiters[w].src_op = best->op;
        const an_dev *od = &st->devs[best->dev];
        size_t at = best->op;
        if (od->ops[at].kind == AN_OP_BARRIER) { /* the work before it in its queue */
          const queue_order *q = queue_order_of(od, &qo[best->dev]);
          size_t k2 = q->pos[at];
          for (int look = 0; k2 != SIZE_MAX && k2 > 0 && look < WORK_SEARCH; look++) {
            k2--;
            if (q->v[k2][0] >> 32 != od->qid[at] >> 32) break;
            size_t prev = q->v[k2][1];
            if (od->ops[prev].kind != AN_OP_BARRIER) {
              at = prev;
              break;
            }
          }
        }
        const an_op *a = &od->ops[at];
        op->waits_for = awaited_id(st, a->name, od->device, a->queue) + 1;
      }
    }
    free(v);
  }
}

an_state *an_new(cv_ctx *ctx) {
  an_state *st = rtg_xcalloc(1, sizeof *st, "the analysis");
  st->ctx = ctx;
  return st;
}

void an_on_piece(an_state *st, an_piece_fn fn, void *arg, bool queues) {
  if (st->npieces == AN_MAX_PIECE_FNS)
    rtg_die(0, "more than %d users of the idle pieces", AN_MAX_PIECE_FNS);
  st->pieces[st->npieces].fn = fn;
  st->pieces[st->npieces].arg = arg;
  st->pieces[st->npieces++].queues = queues;
  st->queue_pieces |= queues;
}

/* an_gpu.piece into a task's an_pieces */
static void keep_piece(void *arg, int cause, uint64_t s, uint64_t e, uint64_t key, uint64_t tid) {
  an_pieces *b = arg;
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 256;
    b->v = rtg_xrealloc(b->v, b->cap * sizeof *b->v, "the idle pieces");
  }
  b->v[b->n++] = (an_piece){b->proc, b->device, b->queue, cause, s, e, key, tid};
}

static size_t piece_slots(void *arg, size_t n) {
  an_pieces *b = arg;
  if (b->n + n > b->cap) {
    b->cap = b->n + n;
    b->v = rtg_xrealloc(b->v, (b->cap + 1) * sizeof *b->v, "the idle pieces");
  }
  b->n += n;
  return b->n - n;
}

static void piece_put(void *arg, size_t slot, int cause, uint64_t s, uint64_t e, uint64_t key,
                      uint64_t tid) {
  an_pieces *b = arg;
  b->v[slot] = (an_piece){b->proc, b->device, b->queue, cause, s, e, key, tid};
}

/* A device's kept pieces to each an_state.pieces, and freed. */
static void give_pieces(an_state *st, an_pieces *b) {
  for (size_t k = 0; k < b->n; k++)
    for (int i = 0; i < st->npieces; i++)
      if (b->v[k].queue == AN_NO_QUEUE || st->pieces[i].queues)
        st->pieces[i].fn(st->pieces[i].arg, &b->v[k]);
  free(b->v);
  *b = (an_pieces){0};
}

/* an_gpu.piece and its argument for a device's pieces of queue q
 * (AN_NO_QUEUE: the GPU's), when the analysis has piece callbacks. */
static void pieces_to(an_state *st, an_dev *d, an_gpu *g, uint32_t q) {
  if (!st->npieces || (q != AN_NO_QUEUE && !st->queue_pieces)) return;
  an_pieces *b = q == AN_NO_QUEUE ? &d->gpu_pieces : &d->queue_pieces;
  b->proc = d->proc, b->device = d->device, b->queue = q;
  g->piece = keep_piece, g->piece_arg = b, g->piece_slots = piece_slots, g->piece_put = piece_put;
}

static int dev_order(const void *a, const void *b) {
  const an_dev *x = a, *y = b;
  if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
  return x->device < y->device ? -1 : x->device > y->device;
}

static int by_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The queues of a device being attributed: queue k's ops are
 * order[start[k] .. start[k + 1]) (op indices, by start), its id ids[k];
 * pieces: each queue's idle pieces apart (NULL: none wanted). */
typedef struct queue_job {
  an_state *st;
  an_dev *d;
  const an_gpu *g;
  const size_t *start;
  const uint32_t *order, *ids;
  an_pieces *pieces;
} queue_job;

/* Queues [lo, hi) of a job, each gathered in turn into one buffer (as long
 * as the largest of them), not all at once. */
static void queues_part(void *arg, size_t lo, size_t hi) {
  const queue_job *j = arg;
  an_dev *d = j->d;
  size_t most = 0;
  for (size_t k = lo; k < hi; k++)
    if (j->start[k + 1] - j->start[k] > most) most = j->start[k + 1] - j->start[k];
  an_op *q = rtg_xmalloc((most + 1) * sizeof *q, "the analysis");
  for (size_t k = lo; k < hi; k++) {
    size_t n = 0;
    for (size_t i = j->start[k]; i < j->start[k + 1]; i++) q[n++] = d->ops[j->order[i]];
    an_gpu qg = *j->g;
    qg.ops = q;
    qg.nops = n;
    an_queue *r = &d->queues[k];
    r->queue = j->ids[k];
    if (j->pieces) {
      an_pieces *b = &j->pieces[k];
      b->proc = d->proc, b->device = d->device, b->queue = r->queue;
      qg.piece = keep_piece, qg.piece_arg = b;
      qg.piece_slots = piece_slots, qg.piece_put = piece_put;
    }
    r->ok = an_attribute(&qg, &r->res);
  }
  free(q);
}

/* The idle causes of each queue: its kernels and barriers alone, in order
 * of queue id, the queues of a large GPU side by side. */
static void per_queue(an_state *st, an_dev *d, const an_gpu *g) {
  uint32_t *rank = rtg_xmalloc((d->nops + 1) * sizeof *rank, "the analysis's queues");
  uint32_t *ids = NULL;
  size_t nq = 0, capq = 0;
  rtg_u64map index = {0}; /* queue id -> its place in ids */
  for (size_t i = 0; i < d->nops; i++) {
    if (d->ops[i].queue == AN_NO_QUEUE || (nq && d->ops[i].queue == ids[nq - 1])) continue;
    bool added;
    uint64_t *v = rtg_u64map_put(&index, d->ops[i].queue, 0, &added);
    if (!v) rtg_out_of_memory("the analysis's queues");
    if (added) {
      ids = grow(ids, &capq, nq, sizeof *ids);
      ids[nq++] = d->ops[i].queue;
    }
  }
  if (nq) qsort(ids, nq, sizeof *ids, by_u32); /* (ids is NULL when none) */
  for (size_t k = 0; k < nq; k++) *rtg_u64map_get(&index, ids[k]) = k;
  size_t *start = rtg_xcalloc(nq + 1, sizeof *start, "the analysis's queues");
  uint32_t last = AN_NO_QUEUE, last_rank = 0; /* (runs of one queue: one lookup) */
  for (size_t i = 0; i < d->nops; i++) {
    uint32_t qu = d->ops[i].queue;
    if (qu == AN_NO_QUEUE) continue;
    if (qu != last) last = qu, last_rank = (uint32_t)*rtg_u64map_get(&index, qu);
    start[(rank[i] = last_rank) + 1]++;
  }
  rtg_u64map_free(&index);
  for (size_t k = 0; k < nq; k++) start[k + 1] += start[k];
  uint32_t *order = rtg_xmalloc((start[nq] + 1) * sizeof *order, "the analysis's queues");
  size_t *fill = rtg_xmalloc((nq + 1) * sizeof *fill, "the analysis's queues");
  memcpy(fill, start, (nq + 1) * sizeof *fill);
  for (size_t i = 0; i < d->nops; i++) /* in order of start */
    if (d->ops[i].queue != AN_NO_QUEUE) order[fill[rank[i]]++] = (uint32_t)i;
  free(fill);
  free(rank);
  d->queues = rtg_xcalloc(nq + 1, sizeof *d->queues, "the analysis's queues");
  queue_job job = {st, d, g, start, order, ids, NULL};
  if (st->npieces && st->queue_pieces)
    job.pieces = rtg_xcalloc(nq + 1, sizeof *job.pieces, "the idle pieces");
  if (d->nops >= an_apart())
    rtg_parts_run(nq, 1, nq, queues_part, &job);
  else
    queues_part(&job, 0, nq);
  d->nqueues = nq;
  if (job.pieces) { /* in order of queue, as one */
    an_pieces *b = &d->queue_pieces;
    for (size_t k = 0; k < nq; k++) {
      if (b->n + job.pieces[k].n > b->cap) {
        b->cap = b->n + job.pieces[k].n;
        b->v = rtg_xrealloc(b->v, b->cap * sizeof *b->v, "the idle pieces");
      }
      if (job.pieces[k].n) memcpy(b->v + b->n, job.pieces[k].v, job.pieces[k].n * sizeof *b->v);
      b->n += job.pieces[k].n;
      free(job.pieces[k].v);
    }
    free(job.pieces);
  }
  free(order);
  free(start);
  free(ids);
}

/* When a kernel was launched: its call, else its enqueue, else its start. */
static uint64_t launched(const an_op *op) {
  return op->api_s ? op->api_s : op->enq ? op->enq : op->start;
}

/* The critical paths of every process. */
static void critical_paths(an_state *st) {
  an_cp_gpu *gpus = rtg_xcalloc(st->ndevs, sizeof *gpus, "the critical paths' GPUs");
  uint32_t *local = rtg_xmalloc((st->ndevs + 1) * sizeof *local, "the critical paths' GPUs");
  for (uint32_t i = 0; i < st->nprocs; i++) {
    an_proc *p = &st->procs[i];
    size_t n = 0;
    for (uint32_t k = 0; k < st->ndevs; k++) {
      local[k] = UINT32_MAX;
      if (st->devs[k].proc == i && st->devs[k].nops) {
        local[k] = (uint32_t)n;
        gpus[n++] = (an_cp_gpu){
            .ops = st->devs[k].ops, .nops = st->devs[k].nops, .waiter = st->devs[k].waiter};
      }
    }
    /* each waiting barrier's dependency: the op that signalled it */
    for (uint32_t k = 0; k < st->ndevs; k++) {
      const an_dev *d = &st->devs[k];
      if (local[k] == UINT32_MAX || !d->nwaiters) continue;
      an_cp_dep *v = rtg_xmalloc(d->nwaiters * sizeof *v, "the critical paths' dependencies");
      size_t nd = 0;
      for (size_t w = 0; w < d->nwaiters; w++)
        if (d->waiters[w].src_dev != UINT32_MAX && local[d->waiters[w].src_dev] != UINT32_MAX)
          v[nd++] =
              (an_cp_dep){d->waiters[w].op, local[d->waiters[w].src_dev], d->waiters[w].src_op};
      gpus[local[k]].deps = v;
      gpus[local[k]].ndeps = nd;
    }
    p->has_cp =
        n && an_critical_path(p->start, p->calls, p->ncalls,
                              (p->calls_shape & AN_CALLS_TOP) == AN_CALLS_TOP, gpus, n, &p->cp);
    for (size_t g = 0; g < n; g++) free((void *)gpus[g].deps);
  }
  free(local);
  free(gpus);
}

/* A process's calls as segments for the idle causes: made once. */
static an_call *proc_segs(an_proc *p, size_t *n) {
  pthread_mutex_lock(&p->segs_mu);
  if (!p->segs_made) {
    if ((p->calls_shape & AN_CALLS_FLAT) == AN_CALLS_FLAT)
      p->segs = p->calls, p->nsegs = p->ncalls;
    else
      p->segs = an_flatten_calls(p->calls, p->ncalls, &p->nsegs);
    p->segs_made = true;
  }
  pthread_mutex_unlock(&p->segs_mu);
  *n = p->nsegs;
  return p->segs;
}

static an_gpu gpu_of(an_state *st, uint32_t i) {
  const an_dev *d = &st->devs[i];
  an_proc *p = &st->procs[d->proc];
  size_t nsegs;
  an_call *segs = proc_segs(p, &nsegs);
  return (an_gpu){.proc_start = p->start,
                  .window_start = st->ctx->window_start,
                  .window_end = st->ctx->window_end,
                  .default_tid = st->ctx->procs[d->proc].pid,
                  .ops = d->ops,
                  .nops = d->nops,
                  .calls = segs,
                  .ncalls = nsegs,
                  .calls_flat = true};
}

/* A GPU's idle causes. */
static void attribute(an_state *st, uint32_t i) {
  an_gpu g = gpu_of(st, i);
  pieces_to(st, &st->devs[i], &g, AN_NO_QUEUE);
  st->devs[i].ok = an_attribute(&g, &st->devs[i].res);
}

/* What an_finish computes once the ops and calls are sorted: parts that
 * only read them, each writing its own results, run side by side. */
enum task_kind { T_CRITICAL, T_ATTRIBUTE, T_QUEUES, T_LAUNCH_QUEUE, T_LAUNCH_NAME };

typedef struct task {
  uint8_t kind;
  uint32_t dev;
} task;

typedef struct tasks {
  an_state *st;
  task *v;
  size_t n;
  size_t next; /* taken atomically */
} tasks;

static void run_task(an_state *st, const task *t) {
  switch (t->kind) {
  case T_CRITICAL:
    critical_paths(st);
    break;
  case T_ATTRIBUTE:
    attribute(st, t->dev);
    break;
  case T_QUEUES: {
    an_gpu g = gpu_of(st, t->dev);
    per_queue(st, &st->devs[t->dev], &g);
    break;
  }
  case T_LAUNCH_QUEUE:
  case T_LAUNCH_NAME:
    an_launch_part(st->devs[t->dev].ops, st->devs[t->dev].nops, &st->devs[t->dev].launch,
                   t->kind == T_LAUNCH_NAME);
    break;
  }
  /* a GPU's rules, once its causes and both launch halves are known, by
   * whichever task of them ends last */
  an_dev *d = &st->devs[t->dev];
  if (t->kind != T_CRITICAL && t->kind != T_QUEUES && !st->idle_only &&
      !__atomic_sub_fetch(&d->rules_wait, 1, __ATOMIC_ACQ_REL) && d->ok)
    an_rules_gpu(d->ops, d->nops, &d->res, &d->launch, d->rules);
}

static void *worker(void *arg) {
  tasks *q = arg;
  for (size_t i; (i = __atomic_fetch_add(&q->next, 1, __ATOMIC_RELAXED)) < q->n;)
    run_task(q->st, &q->v[i]);
  return NULL;
}

#define MAX_WORKERS 8

static void run_tasks(an_state *st) {
  tasks q = {.st = st};
  q.v = rtg_xcalloc(4 * (size_t)st->ndevs + 2, sizeof *q.v, "the analysis's tasks");
  if (!st->idle_only) q.v[q.n++] = (task){T_CRITICAL, 0}; /* the longest first */
  for (uint32_t i = 0; i < st->ndevs; i++) {
    st->devs[i].rules_wait = 3; /* T_ATTRIBUTE and the two launch halves */
    q.v[q.n++] = (task){T_ATTRIBUTE, i}, q.v[q.n++] = (task){T_QUEUES, i};
    if (!st->idle_only)
      q.v[q.n++] = (task){T_LAUNCH_QUEUE, i}, q.v[q.n++] = (task){T_LAUNCH_NAME, i};
  }
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  size_t nw = cpus > 1 ? (size_t)cpus : 1;
  if (nw > MAX_WORKERS) nw = MAX_WORKERS;
  if (nw > q.n) nw = q.n;
  pthread_t th[MAX_WORKERS];
  size_t started = 0;
  while (started + 1 < nw && !pthread_create(&th[started], NULL, worker, &q)) started++;
  worker(&q);
  for (size_t i = 0; i < started; i++) pthread_join(th[i], NULL);
  free(q.v);
  /* the pieces, in order: each GPU's, then its queues' (those of a GPU
   * with something to say) */
  for (uint32_t i = 0; i < st->ndevs; i++) {
    give_pieces(st, &st->devs[i].gpu_pieces);
    if (!st->devs[i].ok) st->devs[i].queue_pieces.n = 0;
    give_pieces(st, &st->devs[i].queue_pieces);
  }
}

/* The devices' ops in their order (perm), then what their waiting
 * barriers waited for; what only that needed freed. */
static void ops_ready(an_state *st, uint32_t **perm) {
  for (uint32_t i = 0; i < st->ndevs; i++)
    if (perm[i]) sort_apply(&st->devs[i], perm[i]);
  /* each GPU's ops in queue order, for the GPUs with waiting barriers and
   * those they waited on */
  queue_order *qo = rtg_xcalloc(st->ndevs + 1, sizeof *qo, "the analysis's dependencies");
  for (uint32_t i = 0; i < st->ndevs; i++)
    if (st->devs[i].nwaiters) barrier_waits(&st->devs[i], queue_order_of(&st->devs[i], &qo[i]));
  match_waits(st, qo);
  for (uint32_t i = 0; i < st->ndevs; i++) free(qo[i].v), free(qo[i].pos);
  free(qo);
  for (uint32_t i = 0; i < st->ndevs; i++) {
    an_dev *d = &st->devs[i];
    free(d->corr), free(d->qid), free(d->sig);
    d->corr = d->qid = d->sig = NULL;
  }
}

/* Each process with a GPU: its start, its calls sorted (their shape) and
 * made the idle causes' segments. */
static void calls_ready(an_state *st) {
  bool *seen = rtg_xcalloc(st->nprocs + 1, sizeof *seen, "the analysis");
  for (uint32_t i = 0; i < st->ndevs; i++) {
    an_dev *d = &st->devs[i];
    an_proc *p = &st->procs[d->proc];
    if (seen[d->proc]) continue;
    seen[d->proc] = true;
    p->start = st->ctx->procs[d->proc].boot_ns;
    if (!p->start) /* no header: its first call */
      for (size_t c = 0; c < p->ncalls; c++)
        if (!p->start || p->calls[c].start < p->start) p->start = p->calls[c].start;
    p->calls_shape = an_sort_calls_shape(p->calls, p->ncalls, p->start);
    size_t n;
    proc_segs(p, &n);
  }
  free(seen);
}

/* the two, which touch apart (the ops and dependencies; the calls) */
static void prepare_part(void *arg, size_t lo, size_t hi) {
  const order_job *j = arg;
  for (size_t k = lo; k < hi; k++)
    if (k)
      calls_ready(j->st);
    else
      ops_ready(j->st, j->perm);
}

void an_finish(an_state *st) {
  cv_ctx *ctx = st->ctx;
  cv_occ_finish(ctx, &st->occ);
  /* each device's ops by start, and who enqueued each op */
  uint32_t **perm = rtg_xcalloc(st->ndevs + 1, sizeof *perm, "the analysis's GPU ops");
  size_t nops = 0;
  for (uint32_t i = 0; i < st->ndevs; i++) nops += st->devs[i].nops;
  order_job oj = {st, perm};
  if (nops >= an_apart())
    rtg_parts_run(2, 1, 2, order_part, &oj);
  else
    order_part(&oj, 0, 2);
  /* (a GPU's process may have no call yet: made here, before any part) */
  for (uint32_t i = 0; i < st->ndevs; i++) proc_of(st, st->devs[i].proc);
  for (uint32_t i = 0; i < st->nprocs; i++) pthread_mutex_init(&st->procs[i].segs_mu, NULL);
  st->segs_mu_made = true;
  /* the ops in their order and what the barriers waited for, beside the
   * calls sorted and made segments */
  order_job pj = {st, perm};
  if (nops >= an_apart())
    rtg_parts_run(2, 1, 2, prepare_part, &pj);
  else
    prepare_part(&pj, 0, 2);
  free(perm);
  run_tasks(st);
  for (uint32_t i = 0; i < st->ndevs && !st->idle_only; i++) {
    an_dev *d = &st->devs[i];
    an_proc *p = proc_of(st, d->proc);
    if (!d->ok) continue;
    for (size_t k = 0; k < d->nops; k++)
      if (d->ops[k].kind == AN_OP_KERNEL && !(d->ops[k].call_flags & AN_CALL_COPY)) {
        uint64_t t = launched(&d->ops[k]);
        if (t < p->first_launch) p->first_launch = t;
        if (t > p->last_launch) p->last_launch = t;
      }
  }
  for (uint32_t i = 0; i < st->nprocs && !st->idle_only; i++) {
    an_proc *p = &st->procs[i];
    if (p->first_launch <= p->last_launch)
      an_rules_process(p->calls, p->ncalls, p->first_launch, p->last_launch, p->rules);
    an_mem_take_records(&p->mem, &p->nmem, &p->capmem, ctx->mem, i);
    if (ctx->window_start) { /* --start dropped the allocations before it */
      uint64_t copies = p->mem_unchecked;
      for (size_t k = 0; k < p->nmem; k++) copies += p->mem[k].kind == AN_MEM_COPY;
      an_rule_pageable(NULL, 0, copies, &p->rules[AN_RULE_PAGEABLE_COPY]);
    } else {
      an_rule_pageable(p->mem, p->nmem, p->mem_unchecked, &p->rules[AN_RULE_PAGEABLE_COPY]);
    }
  }
  if (st->ndevs) qsort(st->devs, st->ndevs, sizeof *st->devs, dev_order);
}

void an_free(an_state *st) {
  if (!st) return;
  cv_occ_free(&st->occ);
  for (uint32_t i = 0; i < st->ndevs; i++) {
    free(st->devs[i].ops);
    free(st->devs[i].corr);
    free(st->devs[i].qid);
    free(st->devs[i].sig);
    free(st->devs[i].waiter);
    free(st->devs[i].waiters);
    free(st->devs[i].queues);
    an_launch_free(&st->devs[i].launch);
  }
  for (uint32_t i = 0; i < st->nprocs; i++) {
    an_proc *p = &st->procs[i];
    if (p->segs != p->calls) free(p->segs);
    free(p->calls), free(p->mem), free(p->corrs);
    if (st->segs_mu_made) pthread_mutex_destroy(&p->segs_mu);
  }
  free(st->devs);
  free(st->procs);
  rtg_u64map_free(&st->dev_index);
  free(st->call_flags);
  rtg_u64map_free(&st->host_tid);
  rtg_u64map_free(&st->awaited_index);
  free(st->awaited);
  free(st);
}
