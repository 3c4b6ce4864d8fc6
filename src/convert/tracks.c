/* Track assignment for the Chrome output; see tracks.h.
 *
 * Layout.  By domain (default, like the original converter): one Chrome
 * process per (host, domain) with pid host*10 + 1 GPU, 2 HSA API, 3 HIP
 * API, 4 ROCTx, 5 strace; threads inside are the processes' threads, queues
 * and engines.  By process (-p): one Chrome process per traced process,
 * pid = host*10000000 + pid (RPD's pid_stride), holding all its tracks.
 * Chrome tids are small numbers given out in order of first use. */
#include "tracks.h"

#include <stdlib.h>
#include <string.h>

enum { DOM_GPU = 1, DOM_HSA, DOM_HIP, DOM_ROCTX, DOM_SYSCALL };

static int domain_of(enum tk_kind k) {
  switch (k) {
  case TK_HIP: return DOM_HIP;
  case TK_HSA:
  case TK_DISPATCH: return DOM_HSA;
  case TK_ROCTX: return DOM_ROCTX;
  case TK_SYSCALL: return DOM_SYSCALL;
  default: return DOM_GPU;
  }
}

void tracks_init(tracks *ts, cv_ctx *ctx) {
  memset(ts, 0, sizeof *ts);
  ts->ctx = ctx;
}

void tracks_free(tracks *ts) {
  for (uint32_t i = 0; i < ts->n; i++) free(ts->t[i].lane_end);
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

track *tracks_get(tracks *ts, uint32_t proc, enum tk_kind kind, uint64_t a, uint64_t b,
                  uint32_t lane) {
  uint64_t h = key_hash(proc, kind, a, b, lane);
  uint64_t *head = rtg_u64map_get(&ts->index, h);
  for (uint64_t i = head ? *head : 0; i; i = ts->next[i - 1]) {
    track *t = &ts->t[i - 1];
    if (t->proc == proc && t->kind == kind && t->a == a && t->b == b && t->lane == lane) return t;
  }
  if (ts->n == ts->cap) {
    uint32_t nc = ts->cap ? ts->cap * 2 : 64;
    track *nt = realloc(ts->t, nc * sizeof *nt);
    uint32_t *nn = realloc(ts->next, nc * sizeof *nn);
    if (!nt || !nn) exit(1);
    ts->t = nt, ts->next = nn, ts->cap = nc;
  }
  track *t = &ts->t[ts->n];
  memset(t, 0, sizeof *t);
  t->proc = proc, t->kind = kind, t->a = a, t->b = b, t->lane = lane;
  t->cpid = tracks_cpid(ts, proc, kind);
  uint64_t *tid = rtg_u64map_put(&ts->next_tid, t->cpid, 1, NULL);
  t->ctid = (*tid)++;
  /* sort: by process (in the domain layout), class, then agent/queue/lane */
  uint64_t cls = ts->ctx->opt.by_process ? (uint64_t)kind : 0;
  uint64_t sub;
  if (kind == TK_QUEUE || kind == TK_COPY || kind == TK_GAPS) {
    uint64_t q = kind == TK_QUEUE ? queue_ordinal(ts, proc, a, b) : b;
    if (kind == TK_GAPS) q = 0;
    uint64_t kk = kind == TK_GAPS ? 0 : kind == TK_QUEUE ? 1 : 2;
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
  return &ts->t[ts->n++];
}

track *tracks_lane(tracks *ts, uint32_t proc, enum tk_kind kind, uint64_t a, uint64_t b,
                   uint64_t start, uint64_t end) {
  track *base = tracks_get(ts, proc, kind, a, b, 0);
  if (!base->lane_end) {
    base->lane_end = calloc(TK_MAX_LANES, sizeof *base->lane_end);
    if (!base->lane_end) exit(1);
  }
  uint32_t lane = UINT32_MAX, best = 0;
  for (uint32_t i = 0; i < base->nlanes; i++) {
    if (base->lane_end[i] <= start) {
      lane = i;
      break;
    }
    if (base->lane_end[i] < base->lane_end[best]) best = i;
  }
  if (lane == UINT32_MAX) lane = base->nlanes < TK_MAX_LANES ? base->nlanes++ : best;
  if (end > base->lane_end[lane]) base->lane_end[lane] = end;
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
  static const char *const names[] = {"", "GPU Activity", "HSA API Activity", "HIP API Activity",
                                      "ROCTx Markers", "strace/ltrace"};
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
  case TK_HIP: snprintf(buf, cap, "%sHIP %llu", pre, (unsigned long long)t->a); break;
  case TK_HSA: snprintf(buf, cap, "%sHSA %llu", pre, (unsigned long long)t->a); break;
  case TK_DISPATCH:
    snprintf(buf, cap, "%sHSA %llu dispatches", pre, (unsigned long long)t->a);
    break;
  case TK_ROCTX:
    snprintf(buf, cap, "%sROCTx %llu%s", pre, (unsigned long long)t->a, lane);
    break;
  case TK_SYSCALL: snprintf(buf, cap, "%scalls %llu", pre, (unsigned long long)t->a); break;
  case TK_QUEUE: {
    cv_agent_label(ctx, t->proc, (uint32_t)t->a, agent, sizeof agent);
    uint64_t key = rtg_mix64(((uint64_t)t->proc << 32 | t->a) ^ rtg_mix64(t->b));
    const uint64_t *ord = rtg_u64map_get(&ts->queue_ord, key);
    uint64_t q = t->b < 100000 ? t->b : ord ? *ord : t->b;
    snprintf(buf, cap, "%s%s queue %llu%s", pre, agent, (unsigned long long)q, lane);
    break;
  }
  case TK_COPY:
    cv_agent_label(ctx, t->proc, (uint32_t)t->a, agent, sizeof agent);
    if (t->b == UINT64_MAX) snprintf(buf, cap, "%s%s copies%s", pre, agent, lane);
    else snprintf(buf, cap, "%s%s copy engine %llu%s", pre, agent, (unsigned long long)t->b, lane);
    break;
  case TK_GAPS:
    cv_agent_label(ctx, t->proc, (uint32_t)t->a, agent, sizeof agent);
    snprintf(buf, cap, "%s%s gaps", pre, agent);
    break;
  }
}
