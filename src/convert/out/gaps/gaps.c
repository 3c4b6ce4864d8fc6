/* --gaps: GPU idle time, per GPU and per queue, in rpt's buckets
 * (`gap <10us`, `gap 10us-20us`, ..., `gap >=100000us`), the busy share of
 * each, compute/copy overlap, and the largest gaps with the host calls that
 * ran during them (found in a second pass over the inputs, which the driver
 * runs for this sink).
 *
 * Span, busy and idle are the time model's (shared/timemodel.h): the gaps
 * are the idle time, from the process's start to the first kernel, between
 * kernels and from the last kernel to the span's end, so that busy and the
 * buckets add up to the span; copies are reported beside busy. */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "outfile.h"
#include "shared/timemodel.h"
#include "xalloc.h"

#define HOST_PER_GAP 3

typedef struct bucket {
  uint64_t n, total, min, max;
} bucket;

typedef struct host_call {
  uint32_t name;
  uint64_t tid, start, end, overlap;
} host_call;

typedef struct top_gap {
  uint64_t start, end;
  uint32_t before, after;
  host_call host[HOST_PER_GAP];
  int nhost;
} top_gap;

/* A GPU (queue GAP_DEVICE) or one of its queues: its gaps in buckets, and
 * for a GPU the largest ones. */
typedef struct res {
  tm_res tm;
  bucket b[17];
  top_gap *top;
  int ntop;
} res;

typedef struct gaps {
  cv_ctx *ctx;
  tm_index model;
  const char *path; /* what --gaps=FILE is written to (outfile.h); NULL: the report */
} gaps;

static void on_gap(void *arg, gap_res *base, uint64_t start, uint64_t end, uint32_t before,
                   uint32_t after);

static void *gaps_open(cv_ctx *ctx) {
  gaps *g = rtg_xcalloc(1, sizeof *g, "the --gaps report");
  g->ctx = ctx;
  /* created here, with the other outputs: one that cannot be stops the run
   * before the inputs are read */
  if (strcmp(ctx->opt.gaps_out, "-") && !(g->path = rtg_out_path(ctx->opt.gaps_out))) {
    rtg_error("cannot create output: path=%s: %m", ctx->opt.gaps_out);
    free(g);
    return NULL;
  }
  tm_init(&g->model, ctx, sizeof(res), true, on_gap, g);
  return g;
}

static void on_gap(void *arg, gap_res *base, uint64_t start, uint64_t end, uint32_t before,
                   uint32_t after) {
  gaps *g = arg;
  res *r = (res *)base;
  uint64_t d = end - start;
  rtg_gap_buckets gb = cv_gap_buckets(g->ctx);
  bucket *b = &r->b[rtg_gap_bucket(&gb, d)];
  if (!b->n || d < b->min) b->min = d;
  if (d > b->max) b->max = d;
  b->n++;
  b->total += d;
  int want = g->ctx->opt.top_gaps;
  if (r->tm.base.queue != GAP_DEVICE || !want) return;
  if (!r->top) r->top = rtg_xcalloc((size_t)want + 1, sizeof *r->top, "the largest gaps");
  /* keep the largest `want` gaps, sorted by size descending */
  if (r->ntop == want && d <= r->top[want - 1].end - r->top[want - 1].start) return;
  int i = r->ntop < want ? r->ntop++ : want - 1;
  while (i > 0 && r->top[i - 1].end - r->top[i - 1].start < d) {
    r->top[i] = r->top[i - 1];
    i--;
  }
  r->top[i] = (top_gap){start, end, before, after, {{0}}, 0};
}

static void gaps_event(void *st, const cv_event *ev) {
  gaps *g = st;
  tm_event(&g->model, ev);
}

/* After the first pass: every op is in, the largest gaps are known. */
static void gaps_first_pass_end(void *st) {
  gaps *g = st;
  tm_finish(&g->model);
}

/* The second pass: the host calls overlapping each top gap of their process. */
static void gaps_second_pass(void *st, const cv_event *ev) {
  gaps *g = st;
  if (ev->type != CV_HIP_API && ev->type != CV_HSA_API && ev->type != CV_SYSCALL &&
      ev->type != CV_RANGE)
    return;
  for (uint32_t i = 0; i < g->model.x.n; i++) {
    res *r = (res *)g->model.x.r[i];
    if (r->tm.base.proc != ev->proc || r->tm.base.queue != GAP_DEVICE || !r->top) continue;
    for (int k = 0; k < r->ntop; k++) {
      top_gap *t = &r->top[k];
      uint64_t s = ev->start > t->start ? ev->start : t->start;
      uint64_t e = ev->end < t->end ? ev->end : t->end;
      if (e <= s) continue;
      host_call hc = {cv_intern(g->ctx, ev->name), ev->tid, ev->start, ev->end, e - s};
      if (t->nhost == HOST_PER_GAP && t->host[HOST_PER_GAP - 1].overlap >= hc.overlap) continue;
      int j = t->nhost < HOST_PER_GAP ? t->nhost++ : HOST_PER_GAP - 1;
      while (j > 0 && t->host[j - 1].overlap < hc.overlap) {
        t->host[j] = t->host[j - 1];
        j--;
      }
      t->host[j] = hc;
    }
  }
}

static void us(char *buf, size_t cap, uint64_t ns) {
  snprintf(buf, cap, "%.3f", ns / 1000.0);
}

/* The busy row and the gap buckets (by total time, as rpt sorts), as
 * shares of the span: they add up to 100 %. */
static void print_table(FILE *f, const cv_ctx *ctx, res *r) {
  fprintf(f, "      Total(%%)    Time(us)    Calls  Avg(us)  Min(us)  Max(us)  Name\n");
  int order[17], n = ctx->opt.ngap_buckets + 1;
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && r->b[order[j]].total > r->b[order[j - 1]].total; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  const tm_totals *t = &r->tm.t;
  double sp = t->span ? (double)t->span : 1;
  uint64_t k = r->tm.kernels;
  fprintf(f, "  %10.2f%% %11.1f %8llu %8.1f %8s %8s  busy (kernels)\n",
          (double)t->busy * 100.0 / sp, t->busy / 1000.0, (unsigned long long)k,
          k ? t->busy / 1000.0 / (double)k : 0.0, "-", "-");
  for (int i = 0; i < n; i++) {
    bucket *b = &r->b[order[i]];
    if (!b->n) continue;
    char name[64];
    rtg_gap_buckets gb = cv_gap_buckets(ctx);
    rtg_gap_bucket_name(&gb, (size_t)order[i], name, sizeof name);
    fprintf(f, "  %10.2f%% %11.1f %8llu %8.1f %8.1f %8.1f  %s\n", (double)b->total * 100.0 / sp,
            b->total / 1000.0, (unsigned long long)b->n, b->total / 1000.0 / (double)b->n,
            b->min / 1000.0, b->max / 1000.0, name);
  }
}

static double pct(uint64_t part, uint64_t whole) {
  return whole ? part * 100.0 / (double)whole : 0.0;
}

static bool gaps_close(void *st) {
  gaps *g = st;
  cv_ctx *ctx = g->ctx;
  FILE *f = ctx->report;
  bool own = false;
  if (g->path) {
    f = fopen(g->path, "w");
    if (!f) {
      rtg_error("cannot create output: path=%s: %m", ctx->opt.gaps_out);
      return false;
    }
    own = true;
  }
  bool any = false;
  gap_index *x = &g->model.x;
  for (uint32_t i = 0; i < x->n; i++) {
    res *r = (res *)x->r[i];
    if (r->tm.base.queue != GAP_DEVICE || !r->tm.ok) continue;
    any = true;
    const tm_totals *t = &r->tm.t;
    const cv_proc *p = &ctx->procs[r->tm.base.proc];
    char label[300], a[32], b[32], c[32];
    cv_device_label(ctx, r->tm.base.proc, r->tm.base.device, label, sizeof label);
    const char *host = cv_str(ctx, ctx->hosts[p->host]);
    fprintf(f, "Resource=%s pid %u%s%s\n", label, p->pid, *host ? " host " : "", host);
    us(a, sizeof a, t->span_start), us(b, sizeof b, t->span_end), us(c, sizeof c, t->span);
    fprintf(f, "  span %s us (%s .. %s), busy %.2f%%, idle %.2f%%, %llu kernels, %llu copies\n", c,
            a, b, pct(t->busy, t->span), pct(t->idle, t->span), (unsigned long long)r->tm.kernels,
            (unsigned long long)r->tm.copies);
    us(a, sizeof a, t->busy), us(b, sizeof b, t->copy_busy), us(c, sizeof c, t->idle);
    fprintf(f, "  busy %s us, copy busy %s us (beside busy), idle %s us", a, b, c);
    us(a, sizeof a, gt_overlap(&r->tm.mixed));
    fprintf(f, ", compute/copy overlap %s us\n", a);
    print_table(f, ctx, r);
    for (uint32_t j = 0; j < x->n; j++) {
      res *q = (res *)x->r[j];
      if (q->tm.base.queue == GAP_DEVICE || q->tm.base.proc != r->tm.base.proc ||
          q->tm.base.device != r->tm.base.device || !q->tm.ok)
        continue;
      us(a, sizeof a, q->tm.t.span);
      fprintf(f, "  queue %llu: span %s us, busy %.2f%%, idle %.2f%%, %llu kernels\n",
              (unsigned long long)q->tm.base.queue, a, pct(q->tm.t.busy, q->tm.t.span),
              pct(q->tm.t.idle, q->tm.t.span), (unsigned long long)q->tm.kernels);
      print_table(f, ctx, q);
    }
    if (r->ntop) fprintf(f, "  largest gaps:\n");
    for (int k = 0; k < r->ntop; k++) {
      top_gap *tg = &r->top[k];
      us(a, sizeof a, tg->end - tg->start), us(b, sizeof b, tg->start - ctx->time_base);
      fprintf(f, "  %3d. %s us at %s us, after %s, before %s\n", k + 1, a, b,
              tg->before == UINT32_MAX ? "(the process's start)" : cv_str(ctx, tg->before),
              tg->after == UINT32_MAX ? "(the span's end)" : cv_str(ctx, tg->after));
      for (int h = 0; h < tg->nhost; h++) {
        host_call *hc = &tg->host[h];
        us(a, sizeof a, hc->start - ctx->time_base), us(b, sizeof b, hc->end - hc->start);
        us(c, sizeof c, hc->overlap);
        fprintf(f, "         host: %s (tid %llu) at %s us for %s us, %s us in the gap\n",
                cv_str(ctx, hc->name), (unsigned long long)hc->tid, a, b, c);
      }
    }
    fputc('\n', f);
  }
  if (!any) fprintf(f, "no GPU ops: no GPU gaps to report\n");
  for (uint32_t i = 0; i < x->n; i++) free(((res *)x->r[i])->top);
  tm_free(&g->model);
  free(g);
  bool ok = own ? rtg_out_close(f) : !ferror(f);
  if (!ok && own) rtg_error("cannot write output: path=%s: %s", ctx->opt.gaps_out, rtg_out_why());
  return ok;
}

const cv_sink cv_gaps_sink = {
    .name = "gaps",
    .open = gaps_open,
    .event = gaps_event,
    .first_pass_end = gaps_first_pass_end,
    .second_pass = gaps_second_pass,
    .close = gaps_close,
};
