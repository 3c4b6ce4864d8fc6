/* --gaps: GPU idle time, per GPU and per queue, in rpt's buckets
 * (`gap <10us`, `gap 10us-20us`, ..., `gap >=100000us`), the busy share of
 * each, compute/copy overlap, and the largest gaps with the host calls that
 * ran during them (found in a second pass over the inputs, which the driver
 * runs for this sink).
 *
 * Busy means a kernel ran: barriers are not counted (a barrier packet
 * waiting for a signal leaves the GPU idle), copies are reported apart. */
#include <stdlib.h>
#include <string.h>

#include "convert.h"
#include "outfile.h"
#include "shared/gapindex.h"
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

/* A GPU (queue GAP_DEVICE) or one of its queues: its kernels' gaps (in
 * base.gt) in buckets, and for a GPU the largest ones. */
typedef struct res {
  gap_res base;
  gaptrack mixed; /* kernels and copies, for the overlap */
  bucket b[17];
  top_gap *top;
  int ntop;
  uint64_t kernels, copies;
} res;

typedef struct gaps {
  cv_ctx *ctx;
  gap_index index;
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
  gap_index_init(&g->index, sizeof(res), on_gap, g);
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
  if (r->base.queue != GAP_DEVICE || !want) return;
  /* keep the largest `want` gaps, sorted by size descending */
  if (r->ntop == want && d <= r->top[want - 1].end - r->top[want - 1].start) return;
  int i = r->ntop < want ? r->ntop++ : want - 1;
  while (i > 0 && r->top[i - 1].end - r->top[i - 1].start < d) {
    r->top[i] = r->top[i - 1];
    i--;
  }
  r->top[i] = (top_gap){start, end, before, after, {{0}}, 0};
}

static res *res_get(gaps *g, uint32_t proc, rtg_device device, uint64_t queue) {
  bool added;
  res *r = (res *)gap_index_get(&g->index, proc, device, queue, &added);
  if (added) {
    gt_init(&r->mixed, NULL, NULL);
    r->top = rtg_xcalloc((size_t)g->ctx->opt.top_gaps + 1, sizeof *r->top, "the largest gaps");
  }
  return r;
}

static void gaps_event(void *st, const cv_event *ev) {
  gaps *g = st;
  if (ev->type == CV_KERNEL) {
    uint32_t name = cv_intern(g->ctx, ev->name);
    res *gpu = res_get(g, ev->proc, ev->device, GAP_DEVICE);
    gt_add(&gpu->base.gt, ev->start, ev->end, GT_COMPUTE, name);
    gt_add(&gpu->mixed, ev->start, ev->end, GT_COMPUTE, name);
    gpu->kernels++;
    res *q = res_get(g, ev->proc, ev->device, ev->queue);
    gt_add(&q->base.gt, ev->start, ev->end, GT_COMPUTE, name);
    q->kernels++;
  } else if (ev->type == CV_COPY) {
    res *gpu = res_get(g, ev->proc, ev->device, GAP_DEVICE);
    gt_add(&gpu->mixed, ev->start, ev->end, GT_COPY, 0);
    gpu->copies++;
  }
}

/* After the first pass: every op is in, the largest gaps are known. */
static void gaps_first_pass_end(void *st) {
  gaps *g = st;
  gap_index_finish(&g->index);
  for (uint32_t i = 0; i < g->index.n; i++) gt_finish(&((res *)g->index.r[i])->mixed);
}

/* The second pass: the host calls overlapping each top gap of their process. */
static void gaps_second_pass(void *st, const cv_event *ev) {
  gaps *g = st;
  if (ev->type != CV_HIP_API && ev->type != CV_HSA_API && ev->type != CV_SYSCALL &&
      ev->type != CV_RANGE)
    return;
  for (uint32_t i = 0; i < g->index.n; i++) {
    res *r = (res *)g->index.r[i];
    if (r->base.proc != ev->proc || r->base.queue != GAP_DEVICE) continue;
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

static void print_table(FILE *f, const cv_ctx *ctx, res *r, uint64_t span) {
  fprintf(f, "      Total(%%)    Time(us)    Calls  Avg(us)  Min(us)  Max(us)  Name\n");
  /* rows: busy first, then the gap buckets by total time, as rpt sorts */
  int order[17], n = ctx->opt.ngap_buckets + 1;
  for (int i = 0; i < n; i++) order[i] = i;
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && r->b[order[j]].total > r->b[order[j - 1]].total; j--) {
      int t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  double sp = span ? (double)span : 1;
  fprintf(f, "  %10.2f%% %11.1f %8llu %8.1f %8s %8s  busy (kernels)\n",
          (double)r->base.gt.all.total * 100.0 / sp, r->base.gt.all.total / 1000.0,
          (unsigned long long)r->kernels,
          r->kernels ? r->base.gt.all.total / 1000.0 / (double)r->kernels : 0.0, "-", "-");
  for (int k = 0; k < n; k++) {
    bucket *b = &r->b[order[k]];
    if (!b->n) continue;
    char name[64];
    rtg_gap_buckets gb = cv_gap_buckets(ctx);
    rtg_gap_bucket_name(&gb, (size_t)order[k], name, sizeof name);
    fprintf(f, "  %10.2f%% %11.1f %8llu %8.1f %8.1f %8.1f  %s\n", (double)b->total * 100.0 / sp,
            b->total / 1000.0, (unsigned long long)b->n, b->total / 1000.0 / (double)b->n,
            b->min / 1000.0, b->max / 1000.0, name);
  }
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
  if (!g->index.n) fprintf(f, "no kernels: no GPU gaps to report\n");
  for (uint32_t i = 0; i < g->index.n; i++) {
    res *r = (res *)g->index.r[i];
    if (r->base.queue != GAP_DEVICE) continue;
    const cv_proc *p = &ctx->procs[r->base.proc];
    char label[300], a[32], b[32], c[32];
    cv_device_label(ctx, r->base.proc, r->base.device, label, sizeof label);
    const char *host = cv_str(ctx, ctx->hosts[p->host]);
    uint64_t span = r->mixed.last - r->mixed.first;
    fprintf(f, "Resource=%s pid %u%s%s\n", label, p->pid, *host ? " host " : "", host);
    us(a, sizeof a, r->mixed.first), us(b, sizeof b, r->mixed.last), us(c, sizeof c, span);
    fprintf(f, "  span %s us (%s .. %s), busy %.2f%%, %llu kernels, %llu copies\n", c, a, b,
            span ? r->base.gt.all.total * 100.0 / (double)span : 0.0,
            (unsigned long long)r->kernels, (unsigned long long)r->copies);
    us(a, sizeof a, r->mixed.compute.total), us(b, sizeof b, r->mixed.copy.total);
    us(c, sizeof c, gt_overlap(&r->mixed));
    fprintf(f, "  compute %s us, copy %s us, compute/copy overlap %s us\n", a, b, c);
    print_table(f, ctx, r, span);
    for (uint32_t j = 0; j < g->index.n; j++) {
      res *q = (res *)g->index.r[j];
      if (q->base.queue == GAP_DEVICE || q->base.proc != r->base.proc ||
          q->base.device != r->base.device)
        continue;
      fprintf(f, "  queue %llu: busy %.2f%%, %llu kernels\n", (unsigned long long)q->base.queue,
              span ? q->base.gt.all.total * 100.0 / (double)span : 0.0,
              (unsigned long long)q->kernels);
      print_table(f, ctx, q, span);
    }
    if (r->ntop) fprintf(f, "  largest gaps:\n");
    for (int k = 0; k < r->ntop; k++) {
      top_gap *t = &r->top[k];
      us(a, sizeof a, t->end - t->start), us(b, sizeof b, t->start - ctx->time_base);
      fprintf(f, "  %3d. %s us at %s us, after %s, before %s\n", k + 1, a, b,
              cv_str(ctx, t->before), cv_str(ctx, t->after));
      for (int h = 0; h < t->nhost; h++) {
        host_call *hc = &t->host[h];
        us(a, sizeof a, hc->start - ctx->time_base), us(b, sizeof b, hc->end - hc->start);
        us(c, sizeof c, hc->overlap);
        fprintf(f, "         host: %s (tid %llu) at %s us for %s us, %s us in the gap\n",
                cv_str(ctx, hc->name), (unsigned long long)hc->tid, a, b, c);
      }
    }
    fputc('\n', f);
  }
  for (uint32_t i = 0; i < g->index.n; i++) {
    res *r = (res *)g->index.r[i];
    gt_free(&r->mixed);
    free(r->top);
  }
  gap_index_free(&g->index);
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
