/* Track assignment for the timeline outputs; see tracks.h.
 *
 * Layout.  By domain (default, like the original converter): one Chrome
 * process per (host, domain) with pid host*10 + 1 GPU, 2 HSA API, 3 HIP
 * API, 4 ROCTx, 5 strace; threads inside are the processes' threads, queues
 * and engines.  By process (-p): one Chrome process per traced process,
 * pid = host*10000000 + pid (RPD's pid_stride), holding all its tracks.
 * Chrome tids are small numbers given out in order of first use. */
#include "tracks.h"
#include "xalloc.h"

#include <stdlib.h>
#include <string.h>

enum { DOM_GPU = 1, DOM_HSA, DOM_HIP, DOM_ROCTX, DOM_SYSCALL, DOM_MPI };

static int domain_of(enum tk_kind k) {
  switch (k) {
  case TK_HIP:
    return DOM_HIP;
  case TK_HSA:
  case TK_DISPATCH:
    return DOM_HSA;
  case TK_ROCTX:
    return DOM_ROCTX;
  case TK_SYSCALL:
    return DOM_SYSCALL;
  case TK_MPI:
    return DOM_MPI;
  default:
    return DOM_GPU;
  }
}

void tracks_init(tracks *ts, cv_ctx *ctx) {
  memset(ts, 0, sizeof *ts);
  ts->ctx = ctx;
}

void tracks_free(tracks *ts) {
  for (uint32_t i = 0; i < ts->n; i++) {
    if (!ts->t[i].lanes) continue;
    for (uint32_t l = 0; l < ts->t[i].nlanes; l++) free(ts->t[i].lanes[l].span);
    free(ts->t[i].lanes);
  }
  free(ts->t);
  free(ts->next);
  rtg_u64map_free(&ts->index);
  rtg_u64map_free(&ts->next_tid);
  rtg_u64map_free(&ts->queue_ord);
  rtg_u64map_free(&ts->nqueues);
}

uint64_t tracks_cpid(const tracks *ts, uint32_t proc, enum tk_kind kind) {
  const cv_proc *p = &ts->ctx->procs[proc];
  if (ts->ctx->opt.by_process) return (uint64_t)p->host * 10000000u + p->pid;
  return (uint64_t)p->host * 10 + (uint64_t)domain_of(kind);
}

static uint64_t key_hash(uint32_t proc, enum tk_kind kind, uint64_t a, uint64_t b, uint32_t lane) {
  uint64_t h = rtg_mix64(((uint64_t)proc << 8 | kind) ^ rtg_mix64(a) * 31 ^ rtg_mix64(b + 7));
  return rtg_mix64(h ^ lane);
}

static uint64_t queue_ordinal(tracks *ts, uint32_t proc, uint64_t agent, uint64_t queue) {
  uint64_t key = rtg_mix64(((uint64_t)proc << 32 | agent) ^ rtg_mix64(queue));
  bool added;
  uint64_t *n = rtg_u64map_put(&ts->nqueues, (uint64_t)proc << 32 | agent, 0, NULL);
  uint64_t *o = rtg_u64map_put(&ts->queue_ord, key, *n, &added);
  if (added) (*n)++;
  return *o;
}

static inline bool track_is(const track *t, uint32_t proc, enum tk_kind kind, uint64_t a,
                            uint64_t b, uint32_t lane) {
  return t->proc == proc && t->kind == kind && t->a == a && t->b == b && t->lane == lane;
}

track *tracks_find(tracks *ts, uint32_t proc, enum tk_kind kind, uint64_t a, uint64_t b,
                   uint32_t lane) {
  uint32_t *last = &ts->last[kind];
  uint64_t h = key_hash(proc, kind, a, b, lane);
  uint64_t *head = rtg_u64map_get(&ts->index, h);
  for (uint64_t i = head ? *head : 0; i; i = ts->next[i - 1]) {
    if (!track_is(&ts->t[i - 1], proc, kind, a, b, lane)) continue;
    *last = (uint32_t)i;
    return &ts->t[i - 1];
  }
  if (ts->n == ts->cap) {
    uint32_t nc = ts->cap ? ts->cap * 2 : 64;
    track *nt = rtg_xrealloc(ts->t, nc * sizeof *nt, "the timeline's tracks");
    uint32_t *nn = rtg_xrealloc(ts->next, nc * sizeof *nn, "the timeline's tracks");
    ts->t = nt, ts->next = nn, ts->cap = nc;
  }
  track *t = &ts->t[ts->n];
  memset(t, 0, sizeof *t);
  t->proc = proc, t->kind = kind, t->a = a, t->b = b, t->lane = lane;
  t->cpid = tracks_cpid(ts, proc, kind);
  uint64_t *tid = rtg_u64map_put(&ts->next_tid, t->cpid, 1, NULL);
  t->ctid = (*tid)++;
  t->where_len = (uint32_t)snprintf(t->where, sizeof t->where, ",\"pid\":%llu,\"tid\":%llu",
                                    (unsigned long long)t->cpid, (unsigned long long)t->ctid);
  /* sort: by process (in the domain layout), class, then agent/queue/lane */
  uint64_t cls = ts->ctx->opt.by_process ? (uint64_t)kind : 0;
  uint64_t sub;
  if (kind == TK_QUEUE || kind == TK_COPY || kind == TK_GAPS) {
    uint64_t q = kind == TK_QUEUE ? queue_ordinal(ts, proc, a, b) : b;
    uint64_t kk = kind == TK_QUEUE ? 1 : 2;
    if (kind == TK_GAPS && !b) /* a GPU's gaps: before its queues */
      q = 0, kk = 0;
    else if (kind == TK_GAPS) /* a queue's (b = queue + 1): after its lanes */
      q = queue_ordinal(ts, proc, a, b - 1), kk = 1, lane = 63;
    sub = (a & 0xff) << 20 | kk << 18 | (q & 0x3ff) << 6 | (lane & 63);
  } else {
    sub = t->ctid & 0xfffffff;
  }
  t->sort = ts->ctx->opt.by_process ? cls << 28 | sub : (uint64_t)proc << 28 | sub;
  if (head) {
    ts->next[ts->n] = (uint32_t)*head;
    *head = ts->n + 1;
  } else {
    ts->next[ts->n] = 0;
    *rtg_u64map_put(&ts->index, h, 0, NULL) = ts->n + 1;
  }
  *last = ts->n + 1;
  return &ts->t[ts->n++];
}

/* Index of the first span of l ending after t (l->n when none). */
static uint32_t span_after(const tk_lane *l, uint64_t t) {
  uint32_t lo = 0, hi = l->n;
  while (lo < hi) {
    uint32_t mid = (lo + hi) / 2;
    if (l->span[mid][1] > t)
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

static bool lane_free(const tk_lane *l, uint64_t start, uint64_t end) {
  uint32_t i = span_after(l, start);
  return i == l->n || l->span[i][0] >= end;
}

/* The closest pairs of spans.  When a lane is full, the two closest spans
 * merge (of equal gaps, the first); finding them anew for every op on a
 * full lane was a fifth of the converter's main thread on a kernel-heavy
 * trace.  So a lane remembers the TK_LANE_CAND smallest gaps (cand), which
 * stay right while spans are only added at the end or the last one grows
 * (ops in time order): a merge removes one gap and leaves the others'
 * values as they were, an added span adds one gap.  Anything else forgets
 * them, and the next merge looks at every gap. */
static uint64_t gap_at(const tk_lane *l, uint32_t k) {
  return l->span[k + 1][0] - l->span[k][1];
}

/* Puts gap k among the candidates, which are the smallest gaps of all the
 * others: it joins them if it comes before the last (dropping the last
 * when they are full) or while there are fewer than all of them (a scan),
 * else it is not among the smallest. */
static void cand_offer(tk_lane *l, uint32_t k, bool scanning) {
  uint64_t g = gap_at(l, k);
  uint32_t n = l->ncand;
  /* (k comes after every candidate: at an equal gap, it goes after) */
  if (!(scanning && n < TK_LANE_CAND) && (!n || g >= l->cand_gap[n - 1])) return;
  uint32_t i = n < TK_LANE_CAND ? l->ncand++ : n - 1;
  while (i > 0 && (g < l->cand_gap[i - 1] || (g == l->cand_gap[i - 1] && k < l->cand[i - 1]))) {
    l->cand_gap[i] = l->cand_gap[i - 1], l->cand[i] = l->cand[i - 1];
    i--;
  }
  l->cand_gap[i] = g, l->cand[i] = (uint8_t)k;
}

static void cand_scan(tk_lane *l) {
  l->ncand = 0;
  for (uint32_t k = 0; k + 1 < l->n; k++) cand_offer(l, k, true);
}

/* The lane is full: merge the two closest spans. */
static void merge_closest(tk_lane *l) {
  if (!l->ncand) cand_scan(l);
  uint32_t best = l->cand[0];
  memmove(&l->cand[0], &l->cand[1], (l->ncand - 1) * sizeof l->cand[0]);
  memmove(&l->cand_gap[0], &l->cand_gap[1], (l->ncand - 1) * sizeof l->cand_gap[0]);
  l->ncand--;
  for (uint32_t i = 0; i < l->ncand; i++) /* the gaps after best move down one */
    if (l->cand[i] > best) l->cand[i]--;
  l->span[best][1] = l->span[best + 1][1];
  memmove(&l->span[best + 1], &l->span[best + 2], (l->n - best - 2) * sizeof *l->span);
  l->n--;
}

/* Mark [start, end) busy, merging the spans it overlaps or touches. */
static void lane_add(tk_lane *l, uint64_t start, uint64_t end) {
  uint32_t i = span_after(l, start);
  if (i > 0 && l->span[i - 1][1] == start) i--; /* touches the span before */
  uint32_t j = i;                               /* spans [i, j) merge with the new one */
  while (j < l->n && l->span[j][0] <= end) {
    if (l->span[j][0] < start) start = l->span[j][0];
    if (l->span[j][1] > end) end = l->span[j][1];
    j++;
  }
  if (j > i) { /* replace spans [i, j) by one */
    /* the last span only grows at its end (an op that follows on): no gap
     * changes */
    bool same_gaps = j == i + 1 && j == l->n && start == l->span[i][0];
    l->span[i][0] = start, l->span[i][1] = end;
    memmove(&l->span[i + 1], &l->span[j], (l->n - j) * sizeof *l->span);
    l->n -= j - i - 1;
    if (!same_gaps) l->ncand = 0;
    return;
  }
  if (l->n == l->cap) {
    uint32_t nc = l->cap ? l->cap * 2 : 4;
    if (nc > TK_LANE_SPANS + 1) nc = TK_LANE_SPANS + 1;
    void *ns = rtg_xrealloc(l->span, nc * sizeof *l->span, "the spans of a lane");
    l->span = ns, l->cap = nc;
  }
  memmove(&l->span[i + 1], &l->span[i], (l->n - i) * sizeof *l->span);
  l->span[i][0] = start, l->span[i][1] = end;
  l->n++;
  if (i + 1 == l->n && i > 0)
    cand_offer(l, i - 1, false); /* at the end: one gap more */
  else
    l->ncand = 0;
  if (l->n > TK_LANE_SPANS) merge_closest(l);
}

track *tracks_lane(tracks *ts, uint32_t proc, enum tk_kind kind, uint64_t a, uint64_t b,
                   uint64_t start, uint64_t end) {
  track *base = tracks_get(ts, proc, kind, a, b, 0);
  if (!base->lanes) {
    base->lanes = rtg_xcalloc(TK_MAX_LANES, sizeof *base->lanes, "the lanes of a track");
  }
  uint32_t lane = UINT32_MAX, best = 0;
  for (uint32_t i = 0; i < base->nlanes; i++) {
    const tk_lane *l = &base->lanes[i];
    if (lane_free(l, start, end)) {
      lane = i;
      break;
    }
    if (l->span[l->n - 1][1] < base->lanes[best].span[base->lanes[best].n - 1][1]) best = i;
  }
  if (lane == UINT32_MAX) lane = base->nlanes < TK_MAX_LANES ? base->nlanes++ : best;
  lane_add(&base->lanes[lane], start, end);
  return lane ? tracks_get(ts, proc, kind, a, b, lane) : base;
}

void tracks_process_name(const tracks *ts, uint64_t cpid, uint32_t proc, enum tk_kind kind,
                         char *buf, size_t cap) {
  const cv_ctx *ctx = ts->ctx;
  const cv_proc *p = &ctx->procs[proc];
  const char *host = cv_str(ctx, ctx->hosts[p->host]);
  char hp[300] = "";
  if (ctx->nhosts > 1 || *host) snprintf(hp, sizeof hp, "%s: ", *host ? host : "(no host)");
  if (ctx->opt.by_process) {
    if (p->pid == 0) {
      snprintf(buf, cap, "%sstrace/ltrace", hp);
      return;
    }
    const char *exe = p->exe != UINT32_MAX ? cv_str(ctx, p->exe) : "";
    const char *slash = strrchr(exe, '/');
    snprintf(buf, cap, "%sProcess %u%s%s%s", hp, p->pid, *exe ? " " : "", slash ? slash + 1 : exe,
             p->rank != UINT32_MAX ? "" : "");
    if (p->rank != UINT32_MAX) {
      size_t n = strlen(buf);
      snprintf(buf + n, cap - n, " rank %s", cv_str(ctx, p->rank));
    }
    return;
  }
  static const char *const names[] = {"",
                                      "GPU Activity",
                                      "HSA API Activity",
                                      "HIP API Activity",
                                      "ROCTx Markers",
                                      "strace/ltrace",
                                      "MPI Activity"};
  (void)cpid;
  snprintf(buf, cap, "%s%s", hp, names[domain_of(kind)]);
}

void tracks_name(const tracks *ts, const track *t, char *buf, size_t cap) {
  const cv_ctx *ctx = ts->ctx;
  const cv_proc *p = &ctx->procs[t->proc];
  /* in the domain layout, name the process when there are several */
  char pre[64] = "";
  if (!ctx->opt.by_process && ctx->nprocs > 1 && p->pid) snprintf(pre, sizeof pre, "%u ", p->pid);
  char agent[300], lane[32] = "";
  if (t->lane) snprintf(lane, sizeof lane, " (lane %u)", t->lane + 1);
  switch (t->kind) {
  case TK_HIP:
    snprintf(buf, cap, "%sHIP %llu", pre, (unsigned long long)t->a);
    break;
  case TK_HSA:
    snprintf(buf, cap, "%sHSA %llu", pre, (unsigned long long)t->a);
    break;
  case TK_DISPATCH:
    snprintf(buf, cap, "%sHSA %llu dispatches", pre, (unsigned long long)t->a);
    break;
  case TK_ROCTX:
    snprintf(buf, cap, "%sROCTx %llu%s", pre, (unsigned long long)t->a, lane);
    break;
  case TK_SYSCALL:
    snprintf(buf, cap, "%scalls %llu", pre, (unsigned long long)t->a);
    break;
  case TK_MPI:
    snprintf(buf, cap, "%sMPI %llu", pre, (unsigned long long)t->a);
    break;
  case TK_QUEUE: {
    cv_device_label(ctx, t->proc, (rtg_device)t->a, agent, sizeof agent);
    uint64_t key = rtg_mix64(((uint64_t)t->proc << 32 | t->a) ^ rtg_mix64(t->b));
    const uint64_t *ord = rtg_u64map_get(&ts->queue_ord, key);
    uint64_t q = t->b < 100000 ? t->b : ord ? *ord : t->b;
    snprintf(buf, cap, "%s%s queue %llu%s", pre, agent, (unsigned long long)q, lane);
    break;
  }
  case TK_COPY:
    cv_device_label(ctx, t->proc, (rtg_device)t->a, agent, sizeof agent);
    if (t->b == UINT64_MAX)
      snprintf(buf, cap, "%s%s copies%s", pre, agent, lane);
    else
      snprintf(buf, cap, "%s%s copy engine %llu%s", pre, agent, (unsigned long long)t->b, lane);
    break;
  case TK_GAPS: {
    cv_device_label(ctx, t->proc, (rtg_device)t->a, agent, sizeof agent);
    if (!t->b) {
      snprintf(buf, cap, "%s%s gaps", pre, agent);
      break;
    }
    uint64_t key = rtg_mix64(((uint64_t)t->proc << 32 | t->a) ^ rtg_mix64(t->b - 1));
    const uint64_t *ord = rtg_u64map_get(&ts->queue_ord, key);
    uint64_t q = t->b - 1 < 100000 ? t->b - 1 : ord ? *ord : t->b - 1;
    snprintf(buf, cap, "%s%s queue %llu gaps", pre, agent, (unsigned long long)q);
    break;
  }
  }
}
