/* The Perfetto output's tracks: counter tracks (GPU ops in flight, bytes
 * copied, memory in use), and the descriptors of every track, written at the end in the
 * JSON's order (see perfetto.c). */
#include <stdlib.h>
#include <string.h>

#include "perfetto_state.h"
#include "shared/memuse.h"
#include "xalloc.h"

/* ------------------------------------------------------------ counters */

static counter *counter_get(pf *p, uint32_t proc, uint32_t agent, uint8_t what) {
  bool added;
  uint64_t key = (uint64_t)proc << 34 | (uint64_t)agent << 2 | what;
  uint64_t *ix = rtg_u64map_put(&p->ctr_index, key, 0, &added);
  if (!ix) rtg_out_of_memory("the index of counter tracks");
  if (added) {
    counter *nc = rtg_xrealloc(p->ctr, (p->nctr + 1) * sizeof *nc, "the counter tracks");
    p->ctr = nc;
    counter *c = &p->ctr[p->nctr];
    memset(c, 0, sizeof *c);
    c->proc = proc, c->agent = agent, c->what = what;
    c->heap = rtg_xmalloc(CTR_WINDOW * sizeof *c->heap, "a counter track's window");
    for (int r = 0; r < CTR_RUNS; r++)
      c->run[r].e = rtg_xmalloc(CTR_WINDOW * sizeof *c->run[r].e, "a counter track's window");
    *ix = p->nctr++;
  }
  return &p->ctr[*ix];
}

static inline bool heap_less(const ctr_chg *a, const ctr_chg *b) {
  /* at equal times increments first, so that the value never dips */
  return a->ts < b->ts || (a->ts == b->ts && a->delta > b->delta);
}

/* The heap's earliest change taken out.  The heap moves a hole instead of
 * swapping entries. */
static void heap_pop(counter *c) {
  uint32_t n = --c->nheap;
  const ctr_chg x = c->heap[n]; /* the last entry, placed anew */
  uint32_t i = 0;
  for (;;) {
    uint32_t l = 2 * i + 1, m = l;
    if (l >= n) break;
    if (l + 1 < n && heap_less(&c->heap[l + 1], &c->heap[l])) m = l + 1;
    if (!heap_less(&c->heap[m], &x)) break;
    c->heap[i] = c->heap[m];
    i = m;
  }
  c->heap[i] = x;
}

static void heap_push(counter *c, const ctr_chg *x) {
  uint32_t i = c->nheap++;
  while (i && heap_less(x, &c->heap[(i - 1) / 2])) {
    c->heap[i] = c->heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  c->heap[i] = *x;
}

/* The earliest change waiting: the first of a run or the heap's top,
 * whichever comes first (equal ones are the same change, so which one
 * goes does not show); from: its run, or -1 (the heap). */
static const ctr_chg *counter_min(const counter *c, int *from) {
  const ctr_chg *min = c->nheap ? &c->heap[0] : NULL;
  *from = -1;
  for (int r = 0; r < CTR_RUNS; r++) {
    const ctr_run *run = &c->run[r];
    if (run->n && (!min || heap_less(&run->e[run->head], min))) min = &run->e[run->head], *from = r;
  }
  return min;
}

/* The earliest changes, all those of its time, go out: the counter's value
 * after them, once, on the first of their packets held waiting for it
 * (the others carry none), or in a packet of its own where none is. */
static void counter_pop(pf *p, counter *c) {
  int from;
  const ctr_chg *min = counter_min(c, &from);
  uint64_t ts = min->ts, carrier = 0;
  c->popped = true, c->popped_ts = ts;
  do {
    c->value += min->delta;
    uint64_t ref = min->ref;
    if (from < 0) {
      heap_pop(c);
    } else {
      ctr_run *run = &c->run[from];
      run->head = (run->head + 1) % CTR_WINDOW;
      run->n--;
    }
    c->n--;
    if (ref && !carrier)
      carrier = ref;
    else if (ref)
      pf_held_resolve(p, ref, false, 0);
  } while (c->n && (min = counter_min(c, &from))->ts == ts);
  int64_t v = c->value < 0 ? 0 : c->value;
  if (carrier) {
    pf_held_resolve(p, carrier, true, v);
    return;
  }
  pkt k = pf_pkt_begin(p, ts, false, CTR_UUID + (uint64_t)(c - p->ctr), PF_TYPE_COUNTER);
  pbw_int(&p->w, PF_TE_COUNTER_VALUE, v);
  pf_pkt_end(p, k);
}

/* A change waits at the end of the first run it does not come before the
 * last of (or of an empty one), else in the heap. */
static void counter_add(pf *p, counter *c, uint64_t ts, int64_t delta, uint64_t ref) {
  if (c->n == CTR_WINDOW) counter_pop(p, c);
  if (c->popped && ts < c->popped_ts) c->late++;
  const ctr_chg x = {ts, delta, ref};
  c->n++;
  for (int r = 0; r < CTR_RUNS; r++) {
    ctr_run *run = &c->run[r];
    if (run->n && heap_less(&x, &run->e[(run->head + run->n - 1) % CTR_WINDOW])) continue;
    run->e[(run->head + run->n++) % CTR_WINDOW] = x;
    return;
  }
  heap_push(c, &x);
}

uint32_t pf_counter_ops(pf *p, const cv_event *ev) {
  return (uint32_t)(counter_get(p, ev->proc, ev->device, CTR_OPS) - p->ctr);
}

void pf_counters_op(pf *p, const cv_event *ev, uint32_t ops, uint64_t ref_begin, uint64_t ref_end) {
  counter *c = &p->ctr[ops];
  counter_add(p, c, ev->start, 1, ref_begin);
  counter_add(p, c, ev->end, -1, ref_end);
  if (ev->type == CV_COPY && ev->has_bytes)
    counter_add(p, counter_get(p, ev->proc, ev->device, CTR_BYTES), ev->end, (int64_t)ev->bytes, 0);
}

void pf_counters_memory(pf *p) {
  const cv_mem *mem = p->ctx->mem;
  for (size_t i = 0; mem && i < mem->n; i++) {
    const cv_mem_rec *m = &mem->v[i];
    if (!m->has_agent || (m->op != CV_MEM_ALLOC && !(m->op == CV_MEM_FREE && m->matched))) continue;
    int64_t delta = m->op == CV_MEM_ALLOC ? (int64_t)m->size : -(int64_t)m->size;
    counter_add(p, counter_get(p, m->proc, m->device, CTR_MEMORY), m->end, delta, 0);
  }
}

static void counter_name(pf *p, const counter *c, char *buf, size_t cap);

/* At the end: every change left goes out.  A change that came after a
 * later one had gone out (more than the window's changes late: a long op
 * beside thousands of short ones on other queues) was counted at the
 * wrong time, so the values around it are off: said, not hidden. */
void pf_counters_finish(pf *p) {
  for (uint32_t i = 0; i < p->nctr; i++) {
    while (p->ctr[i].n) counter_pop(p, &p->ctr[i]);
    if (p->ctr[i].late) {
      char name[400];
      counter_name(p, &p->ctr[i], name, sizeof name);
      rtg_warning("%s: counter '%s': %lu of its changes came more than %d changes late; its values "
                  "near them are off by their sum",
                  p->path, name, (unsigned long)p->ctr[i].late, CTR_WINDOW);
    }
    free(p->ctr[i].heap);
    for (int r = 0; r < CTR_RUNS; r++) free(p->ctr[i].run[r].e);
  }
}

/* ------------------------------------------------------------ descriptors */

typedef struct order {
  uint64_t cpid, sort, ctid;
  int64_t idx; /* track index, or -1 - counter index */
} order;

static int order_cmp(const void *a, const void *b) {
  const order *x = a, *y = b;
  if (x->cpid != y->cpid) return x->cpid < y->cpid ? -1 : 1;
  if (x->sort != y->sort) return x->sort < y->sort ? -1 : 1;
  if (x->ctid != y->ctid) return x->ctid < y->ctid ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static void descriptor(pf *p, uint64_t uuid, uint64_t parent, const char *name, int32_t rank) {
  size_t pk = pbw_open(&p->w, PF_TRACE_PACKET);
  size_t td = pbw_open(&p->w, PF_PKT_TRACK_DESCRIPTOR);
  pbw_uint(&p->w, PF_TD_UUID, uuid);
  pbw_uint(&p->w, PF_TD_PARENT_UUID, parent);
  pbw_str(&p->w, PF_TD_NAME, name);
  pbw_int(&p->w, PF_TD_SIBLING_ORDER_RANK, rank);
  pbw_close(&p->w, td);
  pbw_close(&p->w, pk);
}

static void counter_name(pf *p, const counter *c, char *buf, size_t cap) {
  const cv_ctx *ctx = p->ctx;
  const cv_proc *pr = &ctx->procs[c->proc];
  char pre[64] = "", agent[300];
  if (!ctx->opt.by_process && ctx->nprocs > 1 && pr->pid) snprintf(pre, sizeof pre, "%u ", pr->pid);
  cv_device_label(ctx, c->proc, c->agent, agent, sizeof agent);
  static const char *const what[] = {"ops in flight", "bytes copied", "memory in use"};
  snprintf(buf, cap, "%s%s %s", pre, agent, what[c->what]);
}

/* The first packet of the sequence, then a descriptor for every process
 * and lane (the JSON's metadata), in the JSON's order. */
void pf_header_out(pf *p, pbw *w) {
  if (p->body.in_place >= 0)
    pf_flush_to(p, w, &p->head);
  else if (w->n && fwrite(w->buf, 1, w->n, p->out) != w->n)
    p->io_failed = true;
  w->n = 0;
}

void pf_write_header(pf *p) {
  pbw *w = &p->w;
  size_t pk = pbw_open(w, PF_TRACE_PACKET);
  pbw_uint(w, PF_PKT_SEQUENCE_ID, SEQ_ID);
  pbw_uint(w, PF_PKT_SEQUENCE_FLAGS, PF_SEQ_INCREMENTAL_STATE_CLEARED);
  pbw_uint(w, PF_PKT_FIRST_ON_SEQUENCE, 1);
  size_t d = pbw_open(w, PF_PKT_DEFAULTS);
  pbw_uint(w, PF_DEF_TIMESTAMP_CLOCK_ID, PF_CLOCK_BOOTTIME);
  pbw_close(w, d);
  pbw_close(w, pk);
  /* the root track: processes in the order given by their ranks */
  pk = pbw_open(w, PF_TRACE_PACKET);
  d = pbw_open(w, PF_PKT_TRACK_DESCRIPTOR);
  pbw_uint(w, PF_TD_UUID, 0);
  pbw_uint(w, PF_TD_PROCESS_ORDERING, PF_PROCESS_ORDERING_EXPLICIT);
  pbw_close(w, d);
  pbw_close(w, pk);

  uint32_t n = p->ts.n + p->nctr;
  order *o = rtg_xcalloc(n, sizeof *o, "the order of the track descriptors");
  for (uint32_t i = 0; i < p->ts.n; i++) {
    const track *t = &p->ts.t[i];
    o[i] = (order){t->cpid, t->sort, t->ctid, i};
  }
  for (uint32_t i = 0; i < p->nctr; i++) {
    const counter *c = &p->ctr[i];
    /* after the agent's queues and copy engines (see tracks_get) */
    uint64_t sub = ((uint64_t)c->agent & 0xff) << 20 | 3ull << 18 | c->what;
    uint64_t sort =
        p->ctx->opt.by_process ? (uint64_t)TK_QUEUE << 28 | sub : (uint64_t)c->proc << 28 | sub;
    o[p->ts.n + i] =
        (order){tracks_cpid(&p->ts, c->proc, TK_QUEUE), sort, UINT64_MAX, -1 - (int64_t)i};
  }
  qsort(o, n, sizeof *o, order_cmp);
  char name[1024];
  int32_t prank = 0, rank = 0;
  for (uint32_t i = 0; i < n; i++) {
    uint64_t puuid = PROC_UUID + o[i].cpid;
    if (i == 0 || o[i].cpid != o[i - 1].cpid) {
      /* a process: named like the JSON's process_name, ordered by pid */
      const track *t0 = NULL;
      for (uint32_t j = i; j < n && o[j].cpid == o[i].cpid && !t0; j++)
        if (o[j].idx >= 0) t0 = &p->ts.t[o[j].idx];
      const counter *c0 = o[i].idx < 0 ? &p->ctr[-1 - o[i].idx] : NULL;
      if (t0)
        tracks_process_name(&p->ts, o[i].cpid, t0->proc, t0->kind, name, sizeof name);
      else
        tracks_process_name(&p->ts, o[i].cpid, c0->proc, TK_QUEUE, name, sizeof name);
      pk = pbw_open(w, PF_TRACE_PACKET);
      d = pbw_open(w, PF_PKT_TRACK_DESCRIPTOR);
      pbw_uint(w, PF_TD_UUID, puuid);
      pbw_str(w, PF_TD_NAME, name);
      size_t pd = pbw_open(w, PF_TD_PROCESS);
      pbw_int(w, PF_PD_PID, (int32_t)o[i].cpid);
      pbw_str(w, PF_PD_PROCESS_NAME, name);
      pbw_close(w, pd);
      pbw_uint(w, PF_TD_CHILD_ORDERING, PF_CHILD_ORDERING_EXPLICIT);
      pbw_int(w, PF_TD_SIBLING_ORDER_RANK, prank++);
      pbw_close(w, d);
      pbw_close(w, pk);
      rank = 0;
    }
    if (o[i].idx >= 0) {
      const track *t = &p->ts.t[o[i].idx];
      tracks_name(&p->ts, t, name, sizeof name);
      descriptor(p, track_uuid(p, t), puuid, name, rank++);
    } else {
      const counter *c = &p->ctr[-1 - o[i].idx];
      counter_name(p, c, name, sizeof name);
      pk = pbw_open(w, PF_TRACE_PACKET);
      d = pbw_open(w, PF_PKT_TRACK_DESCRIPTOR);
      pbw_uint(w, PF_TD_UUID, CTR_UUID + (uint64_t)(c - p->ctr));
      pbw_uint(w, PF_TD_PARENT_UUID, puuid);
      pbw_str(w, PF_TD_NAME, name);
      size_t cd = pbw_open(w, PF_TD_COUNTER);
      pbw_uint(w, PF_CD_UNIT, c->what != CTR_OPS ? PF_UNIT_SIZE_BYTES : PF_UNIT_COUNT);
      pbw_close(w, cd);
      pbw_int(w, PF_TD_SIBLING_ORDER_RANK, rank++);
      pbw_close(w, d);
      pbw_close(w, pk);
    }
    if (w->n >= BODY_FLUSH) pf_header_out(p, w);
  }
  free(o);
}
