/* --stats and --summary: per-name statistics of kernels, HIP calls, HSA
 * calls and memory copies, in rocprof's CSV layout
 *   "Name","Calls","TotalDurationNs","AverageNs","Percentage","MinNs","MaxNs","StdDev","MedianNs"
 * sorted by total duration (then name).  StdDev is the sample standard
 * deviation (n-1).  The median is exact while the durations fit a global
 * budget of samples; a name whose samples no longer fit switches to a
 * log-linear histogram (median within 1/64 of the true value).  A record
 * of N repeated HSA calls (polls:N) counts N calls and the sum of their
 * durations (busy:); the calls of one such record count as equally long
 * (to the ns) for the other columns.
 *
 * mpi_api_stats.csv (an MPI_API table), only for a trace of MPI calls: the
 * MPI calls by function, in the same layout (a record of N repeated tests,
 * polls:N, counts N calls, as an HSA one).
 *
 * graph_stats.csv, only for a trace of HIP graph launches: the kernels and
 * copies of each graph exec ("pid P graph G"), then of each of its nodes
 * ("pid P graph G node N: NAME"), in the same layout; Percentage is of
 * all graph ops' time, so the graphs' rows add up to 100 and so do the
 * nodes'.
 *
 * Beside them, gpu_time_stats.csv (and a GPU_TIME table): per (process,
 * GPU) the span, busy, copy busy and idle of the time model
 * (shared/timemodel.h); busy and idle add up to the span; and
 * kernel_occupancy.csv (a KERNEL_OCCUPANCY table): per kernel and launch
 * shape, the waves per SIMD its registers and LDS allow
 * (shared/occupancy.h).
 *
 * And memory_stats.csv (and a MEMORY table): per (process, agent) the
 * allocations and frees of its memory records (shared/memuse.h: HSA pool,
 * virtual-memory and managed allocations, HIP's among them), the peak bytes in use, and the
 * allocations never freed (leaks, with their bytes); frees of addresses
 * with no allocation are counted per process (Agent empty). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "convert.h"
#include "outfile.h"
#include "shared/feed.h"
#include "shared/memuse.h"
#include "shared/occupancy.h"
#include "shared/timemodel.h"
#include "xalloc.h"

#define SAMPLE_BUDGET (2u << 20) /* exact durations kept, all names together */
#define SUB 64                   /* histogram buckets per power of two */
#define NBUCKETS (64 * SUB)

enum { ST_KERNEL, ST_HIP, ST_HSA, ST_COPY, ST_GRAPH, ST_MPI, ST_N };
static const char *const file_names[ST_N] = {"kernel_stats.csv",  "hip_api_stats.csv",
                                             "hsa_api_stats.csv", "memory_copy_stats.csv",
                                             "graph_stats.csv",   "mpi_api_stats.csv"};
static const char *const titles[ST_N] = {"KERNEL_DISPATCH", "HIP_API",   "HSA_API",
                                         "MEMORY_COPY",     "HIP_GRAPH", "MPI_API"};

typedef struct stat_entry {
  uint32_t name;
  uint64_t calls, total, min, max;
  double mean, m2; /* Welford */
  uint64_t *samples;
  uint32_t nsamples, cap;
  uint64_t *hist; /* when the samples did not fit */
} stat_entry;

typedef struct table {
  stat_entry *e;
  uint32_t n, cap;
  rtg_u64map index; /* name id -> entry */
  uint64_t grand;
} table;

typedef struct stats {
  cv_ctx *ctx;
  cv_feed *feed; /* to the worker that counts (NULL: counted as they come) */
  table t[ST_N];
  uint64_t samples_held;
  tm_index model;
  cv_occ occ;      /* per kernel and launch shape */
  const char *dir; /* where the CSV files are made (outfile.h); NULL: --summary only */
} stats;

static void count_block(void *arg, const unsigned char *data, size_t used);

static void *stats_open(cv_ctx *ctx) {
  stats *s = rtg_xcalloc(1, sizeof *s, "the statistics");
  s->ctx = ctx;
  tm_init(&s->model, ctx, 0, false, NULL, NULL);
  if (ctx->opt.stats_dir && !(s->dir = rtg_out_dir(ctx->opt.stats_dir, NULL))) {
    rtg_error("cannot create directory: path=%s: %s", ctx->opt.stats_dir, strerror(errno));
    tm_free(&s->model);
    free(s);
    return NULL;
  }
  s->feed = cv_feed_start(count_block, s, 16);
  return s;
}

static uint32_t bucket_of(uint64_t v) {
  if (v < SUB) return (uint32_t)v;
  int msb = 63 - __builtin_clzll(v);
  int shift = msb - 6; /* keep 7 significant bits: 64 sub-buckets per octave */
  return (uint32_t)((shift + 1) * SUB + ((v >> shift) & (SUB - 1)));
}

static uint64_t bucket_mid(uint32_t b) {
  if (b < SUB) return b;
  int shift = (int)(b / SUB) - 1;
  uint64_t lo = ((uint64_t)(SUB + b % SUB)) << shift;
  return lo + ((1ull << shift) >> 1);
}

static void to_hist(stats *s, stat_entry *e) {
  e->hist = rtg_xcalloc(NBUCKETS, sizeof *e->hist, "a histogram of durations");
  for (uint32_t i = 0; i < e->nsamples; i++) e->hist[bucket_of(e->samples[i])]++;
  s->samples_held -= e->nsamples;
  free(e->samples);
  e->samples = NULL;
  e->nsamples = e->cap = 0;
}

/* k calls of the name interned as id, each dur long. */
static void add_n(stats *s, int which, uint32_t id, uint64_t dur, uint64_t k) {
  table *t = &s->t[which];
  bool added;
  uint64_t *ix = rtg_u64map_put(&t->index, id, t->n, &added);
  if (added) {
    if (t->n == t->cap) {
      t->cap = t->cap ? t->cap * 2 : 64;
      t->e = rtg_xrealloc(t->e, t->cap * sizeof *t->e, "a table of statistics");
    }
    t->e[t->n++] = (stat_entry){.name = id, .min = UINT64_MAX};
  }
  stat_entry *e = &t->e[*ix];
  uint64_t before = e->calls;
  e->calls += k;
  e->total += dur * k;
  t->grand += dur * k;
  if (dur < e->min) e->min = dur;
  if (dur > e->max) e->max = dur;
  /* Welford, k equal values at once (Chan et al.'s merge of a group
   * whose own m2 is 0) */
  double d = (double)dur - e->mean;
  if (k == 1) {
    e->mean += d / (double)e->calls;
    e->m2 += d * ((double)dur - e->mean);
  } else {
    e->mean += d * (double)k / (double)e->calls;
    e->m2 += d * d * (double)before * (double)k / (double)e->calls;
  }
  for (; k && !e->hist; k--) {
    if (e->nsamples == e->cap) {
      if (s->samples_held + e->cap > SAMPLE_BUDGET) {
        to_hist(s, e);
        break;
      }
      uint32_t nc = e->cap ? e->cap * 2 : 8;
      uint64_t *ns = rtg_xrealloc(e->samples, nc * sizeof *ns, "the durations of a name");
      s->samples_held += nc - e->cap;
      e->samples = ns;
      e->cap = nc;
    }
    e->samples[e->nsamples++] = dur;
  }
  if (k) e->hist[bucket_of(dur)] += k;
}

/* What the dispatching thread hands the worker for one event: the time
 * model's part of it (a call's start, or a GPU op's GPU, kind and times
 * within the window) and one add to a table.  The names are interned on
 * the dispatching thread (their ids, which other outputs use, do not
 * depend on the worker); the worker counts the records in their order. */
enum { R_CALL = 1, R_OP = 2, R_ADD = 4, R_UNGRAND = 8 };
typedef struct count_rec {
  uint8_t flags, table;
  uint32_t proc;
  uint32_t name;    /* R_ADD's */
  uint32_t op_name; /* R_OP's: the kernel's, else UINT32_MAX */
  uint64_t queue;
  tm_clipped op;       /* R_OP */
  uint64_t call_start; /* R_CALL */
  uint64_t dur, k;     /* R_ADD: k calls of dur; R_UNGRAND: not in the table's total */
} count_rec;

static void count(stats *s, const count_rec *r) {
  if (r->flags & R_CALL) tm_call(&s->model, r->proc, r->call_start);
  if (r->flags & R_OP) tm_add(&s->model, r->proc, r->queue, &r->op, r->op_name);
  if (r->flags & R_ADD) {
    add_n(s, r->table, r->name, r->dur, r->k);
    if (r->flags & R_UNGRAND) s->t[r->table].grand -= r->dur * r->k;
  }
}

static void count_block(void *arg, const unsigned char *data, size_t used) {
  for (size_t at = 0; at + sizeof(count_rec) <= used; at += sizeof(count_rec)) {
    count_rec r;
    memcpy(&r, data + at, sizeof r);
    count(arg, &r);
  }
}

static void put(stats *s, const count_rec *r) {
  if (s->feed)
    memcpy(cv_feed_put(s->feed, sizeof *r), r, sizeof *r);
  else
    count(s, r);
}

/* An add of k calls of dur to a table under the name interned as id,
 * with what r holds already. */
static void put_add_id(stats *s, count_rec *r, int which, uint32_t id, uint64_t dur, uint64_t k) {
  r->flags |= R_ADD;
  r->table = (uint8_t)which;
  r->name = id;
  r->dur = dur, r->k = k;
  put(s, r);
  *r = (count_rec){0};
}

static void put_add(stats *s, count_rec *r, int which, const char *name, uint64_t dur, uint64_t k) {
  put_add_id(s, r, which, cv_intern(s->ctx, name), dur, k);
}

/* A record of n repeated calls that took busy ns in all: n calls of
 * busy / n ns, the remainder spread one ns a call. */
static void put_polls(stats *s, count_rec *r, int which, const char *name, uint64_t busy,
                      uint64_t n) {
  uint64_t q = busy / n, rem = busy % n;
  put_add(s, r, which, name, q, n - rem);
  if (rem) put_add(s, r, which, name, q + 1, rem);
}

/* A kernel or copy of a graph launch: its graph's row and its node's. */
static void put_graph_op(stats *s, count_rec *r, const cv_event *ev, const char *name,
                         uint64_t dur) {
  char g[512];
  uint32_t pid = s->ctx->procs[ev->proc].pid;
  snprintf(g, sizeof g, "pid %u graph %u", pid, ev->graph);
  put_add(s, r, ST_GRAPH, g, dur, 1);
  snprintf(g, sizeof g, "pid %u graph %u node %u: %s", pid, ev->graph, ev->node, name);
  r->flags = R_UNGRAND; /* percentages: of the graphs' time, each op counted once */
  put_add(s, r, ST_GRAPH, g, dur, 1);
}

static void stats_event(void *st, const cv_event *ev) {
  stats *s = st;
  uint64_t dur = ev->end - ev->start;
  count_rec r = {.proc = ev->proc};
  uint32_t kernel = UINT32_MAX; /* the kernel's name, once interned */
  if (ev->type == CV_HIP_API || ev->type == CV_HSA_API) {
    r.flags = R_CALL;
    r.call_start = ev->start;
  } else if (tm_clip(s->ctx, ev, &r.op)) {
    r.flags = R_OP;
    r.queue = ev->queue;
    if (r.op.kind == TM_KERNEL) kernel = cv_intern(s->ctx, ev->name);
    r.op_name = kernel;
  }
  if (ev->graph && (ev->type == CV_KERNEL || ev->type == CV_COPY))
    put_graph_op(s, &r, ev, ev->name ? ev->name : "", dur);
  switch (ev->type) {
  case CV_KERNEL:
    put_add_id(s, &r, ST_KERNEL, kernel != UINT32_MAX ? kernel : cv_intern(s->ctx, ev->name), dur,
               1);
    cv_occ_add(s->ctx, &s->occ, ev);
    break;
  case CV_HIP_API:
    put_add(s, &r, ST_HIP, ev->name, dur, 1);
    break;
  case CV_HSA_API:
    if (ev->polls)
      put_polls(s, &r, ST_HSA, ev->name, ev->busy, ev->polls);
    else
      put_add(s, &r, ST_HSA, ev->name, dur, 1);
    break;
  case CV_COPY:
    put_add(s, &r, ST_COPY, ev->name, dur, 1);
    break;
  case CV_MPI:
    if (ev->polls)
      put_polls(s, &r, ST_MPI, ev->name, ev->busy, ev->polls);
    else
      put_add(s, &r, ST_MPI, ev->name, dur, 1);
    break;
  default:
    break;
  }
  if (r.flags) put(s, &r);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* The k-th smallest of v[0..n) (k < n), v reordered so that v[0..k) are
 * no larger and v(k..n) no smaller: what sorting would put at v[k], in
 * linear time on average (a median is taken once per name, of up to
 * SAMPLE_BUDGET durations); after many poor pivots the rest is sorted. */
static uint64_t select_kth(uint64_t *v, uint32_t n, uint32_t k) {
  int64_t lo = 0, hi = (int64_t)n - 1;
  unsigned rounds = 0;
  while (lo < hi) {
    if (++rounds > 64) {
      qsort(v + lo, (size_t)(hi - lo + 1), sizeof *v, cmp_u64);
      break;
    }
    uint64_t a = v[lo], b = v[lo + (hi - lo) / 2], c = v[hi]; /* the median of three */
    uint64_t pivot = a < b ? (b < c ? b : a < c ? c : a) : (a < c ? a : b < c ? c : b);
    int64_t i = lo, j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) {
        uint64_t t = v[i];
        v[i++] = v[j];
        v[j--] = t;
      }
    }
    /* v[lo..j] <= pivot <= v[i..hi], and what lies between equals it */
    if ((int64_t)k <= j)
      hi = j;
    else if ((int64_t)k >= i)
      lo = i;
    else
      break;
  }
  return v[k];
}

static double median(stat_entry *e) {
  if (e->hist) {
    uint64_t want = (e->calls - 1) / 2, seen = 0;
    for (uint32_t b = 0; b < NBUCKETS; b++) {
      seen += e->hist[b];
      if (seen > want) return (double)bucket_mid(b);
    }
    return 0;
  }
  if (!e->nsamples) return 0;
  uint32_t n = e->nsamples;
  uint64_t *v = e->samples, hi = select_kth(v, n, n / 2);
  if (n % 2) return (double)hi;
  uint64_t lo = v[0]; /* the largest of the lower half */
  for (uint32_t i = 1; i < n / 2; i++)
    if (v[i] > lo) lo = v[i];
  return ((double)lo + (double)hi) / 2.0;
}

static const cv_ctx *sort_ctx;
static int cmp_entry(const void *a, const void *b) {
  const stat_entry *x = a, *y = b;
  if (x->total != y->total) return x->total > y->total ? -1 : 1;
  return strcmp(cv_str(sort_ctx, x->name), cv_str(sort_ctx, y->name));
}

/* rocprof prints two decimals, four below 1% */
static void fmt_pct(char *buf, size_t cap, double pct) {
  snprintf(buf, cap, pct >= 1.0 || pct == 0 ? "%.2f" : "%.4f", pct);
}

static void csv_name(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static bool write_csv(stats *s, int which, const char *dir, double *medians) {
  table *t = &s->t[which];
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, file_names[which]);
  FILE *f = fopen(path, "w");
  if (!f) {
    rtg_error("cannot create output: path=%s/%s: %s", s->ctx->opt.stats_dir, file_names[which],
              strerror(errno));
    return false;
  }
  fputs("\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\","
        "\"MaxNs\",\"StdDev\",\"MedianNs\"\n",
        f);
  for (uint32_t i = 0; i < t->n; i++) {
    stat_entry *e = &t->e[i];
    char pct[32];
    fmt_pct(pct, sizeof pct, t->grand ? (double)e->total * 100.0 / (double)t->grand : 0);
    double sd = e->calls > 1 ? sqrt(e->m2 / (double)(e->calls - 1)) : 0;
    csv_name(f, cv_str(s->ctx, e->name));
    fprintf(f, ",%llu,%llu,%.6f,%s,%llu,%llu,%.6f,%.6f\n", (unsigned long long)e->calls,
            (unsigned long long)e->total, (double)e->total / (double)e->calls, pct,
            (unsigned long long)e->min, (unsigned long long)e->max, sd, medians[i]);
  }
  if (!rtg_out_close(f)) {
    rtg_error("cannot write output: path=%s/%s: %s", s->ctx->opt.stats_dir, file_names[which],
              rtg_out_why());
    return false;
  }
  return true;
}

static void print_summary(stats *s, int which, double *medians) {
  table *t = &s->t[which];
  if (!t->n) return;
  FILE *f = s->ctx->report;
  uint64_t calls = 0;
  for (uint32_t i = 0; i < t->n; i++) calls += t->e[i].calls;
  fprintf(f, "%s: %u names, %llu calls, %.3f us total\n", titles[which], t->n,
          (unsigned long long)calls, (double)t->grand / 1000.0);
  fprintf(f, "  %8s %14s %8s %12s %12s %12s %12s %12s  %s\n", "Total(%)", "Time(us)", "Calls",
          "Avg(us)", "Min(us)", "Max(us)", "StdDev(us)", "Median(us)", "Name");
  for (uint32_t i = 0; i < t->n; i++) {
    stat_entry *e = &t->e[i];
    double sd = e->calls > 1 ? sqrt(e->m2 / (double)(e->calls - 1)) : 0;
    fprintf(f, "  %7.2f%% %14.3f %8llu %12.3f %12.3f %12.3f %12.3f %12.3f  %s\n",
            t->grand ? (double)e->total * 100.0 / (double)t->grand : 0, (double)e->total / 1000.0,
            (unsigned long long)e->calls, (double)e->total / (double)e->calls / 1000.0,
            (double)e->min / 1000.0, (double)e->max / 1000.0, sd / 1000.0, medians[i] / 1000.0,
            cv_str(s->ctx, e->name));
  }
  fputc('\n', f);
}

/* Busy and idle as shares of the span that add up to 100.00 as printed:
 * busy rounded to 0.01, idle the rest. */
static void busy_idle_pct(const tm_totals *t, double *busy, double *idle) {
  *busy = t->span ? round((double)t->busy * 10000.0 / (double)t->span) / 100.0 : 0;
  *idle = t->span ? 100.0 - *busy : 0;
}

static bool write_gpu_time(stats *s, const char *dir) {
  char path[4096];
  snprintf(path, sizeof path, "%s/gpu_time_stats.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    rtg_error("cannot create output: path=%s/gpu_time_stats.csv: %s", s->ctx->opt.stats_dir,
              strerror(errno));
    return false;
  }
  fputs("\"Pid\",\"Host\",\"Gpu\",\"SpanStartNs\",\"SpanEndNs\",\"SpanNs\",\"BusyNs\","
        "\"CopyBusyNs\",\"IdleNs\",\"BusyPercentage\",\"IdlePercentage\"\n",
        f);
  for (uint32_t i = 0; i < s->model.x.n; i++) {
    const tm_res *r = (const tm_res *)s->model.x.r[i];
    if (!r->ok) continue;
    const cv_proc *p = &s->ctx->procs[r->base.proc];
    char dev[64];
    double b, id;
    busy_idle_pct(&r->t, &b, &id);
    fprintf(f, "%u,", p->pid);
    csv_name(f, cv_str(s->ctx, s->ctx->hosts[p->host]));
    fprintf(f, ",\"%s\",%llu,%llu,%llu,%llu,%llu,%llu,%.2f,%.2f\n",
            rtg_device_name(r->base.device, dev, sizeof dev), (unsigned long long)r->t.span_start,
            (unsigned long long)r->t.span_end, (unsigned long long)r->t.span,
            (unsigned long long)r->t.busy, (unsigned long long)r->t.copy_busy,
            (unsigned long long)r->t.idle, b, id);
  }
  if (!rtg_out_close(f)) {
    rtg_error("cannot write output: path=%s/gpu_time_stats.csv: %s", s->ctx->opt.stats_dir,
              rtg_out_why());
    return false;
  }
  return true;
}

/* kernel_occupancy.csv: written when a kernel had a KERNEL record. */
static bool write_occupancy(stats *s, const char *dir) {
  if (!s->occ.n) return true;
  char path[4096];
  snprintf(path, sizeof path, "%s/kernel_occupancy.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    rtg_error("cannot create output: path=%s/kernel_occupancy.csv: %s", s->ctx->opt.stats_dir,
              strerror(errno));
    return false;
  }
  cv_occ_csv(s->ctx, &s->occ, f);
  if (!rtg_out_close(f)) {
    rtg_error("cannot write output: path=%s/kernel_occupancy.csv: %s", s->ctx->opt.stats_dir,
              rtg_out_why());
    return false;
  }
  return true;
}

static void print_gpu_time(stats *s) {
  FILE *f = s->ctx->report;
  bool head = false;
  for (uint32_t i = 0; i < s->model.x.n; i++) {
    const tm_res *r = (const tm_res *)s->model.x.r[i];
    if (!r->ok) continue;
    if (!head) {
      fprintf(f, "GPU_TIME: busy = kernels, idle = span - busy, copy busy beside busy\n");
      fprintf(f, "  %8s %-16s %14s %14s %8s %14s %8s %14s\n", "Pid", "GPU", "Span(us)", "Busy(us)",
              "Busy(%)", "Idle(us)", "Idle(%)", "CopyBusy(us)");
      head = true;
    }
    const cv_proc *p = &s->ctx->procs[r->base.proc];
    char label[300];
    double b, id;
    busy_idle_pct(&r->t, &b, &id);
    cv_device_label(s->ctx, r->base.proc, r->base.device, label, sizeof label);
    fprintf(f, "  %8u %-16s %14.3f %14.3f %7.2f%% %14.3f %7.2f%% %14.3f\n", p->pid, label,
            (double)r->t.span / 1000.0, (double)r->t.busy / 1000.0, b, (double)r->t.idle / 1000.0,
            id, (double)r->t.copy_busy / 1000.0);
  }
  if (head) fputc('\n', f);
}

/* ------------------------------------------------------------ memory */

typedef struct mem_row {
  uint32_t proc, agent;
  rtg_device device;
  bool has_agent;
  uint64_t allocs, bytes, frees, peak, leaks, leaked_bytes, unknown_frees;
} mem_row;

static mem_row *mem_row_of(mem_row **rows, size_t *n, uint32_t proc, bool has_agent, uint32_t agent,
                           rtg_device device) {
  for (size_t i = *n; i-- > 0;)
    if ((*rows)[i].proc == proc && (*rows)[i].has_agent == has_agent &&
        (!has_agent || (*rows)[i].agent == agent))
      return &(*rows)[i];
  *rows = rtg_xrealloc(*rows, (*n + 1) * sizeof **rows, "the memory statistics");
  mem_row *r = &(*rows)[(*n)++];
  *r = (mem_row){.proc = proc, .agent = agent, .device = device, .has_agent = has_agent};
  return r;
}

static int cmp_mem_row(const void *a, const void *b) {
  const mem_row *x = a, *y = b;
  if (x->proc != y->proc) return x->proc < y->proc ? -1 : 1;
  if (x->has_agent != y->has_agent) return x->has_agent ? -1 : 1;
  return x->agent < y->agent ? -1 : x->agent > y->agent;
}

/* The rows of every (process, agent) with pool allocations or frees. */
static mem_row *mem_rows(const cv_ctx *ctx, size_t *n) {
  const cv_mem *mem = ctx->mem;
  mem_row *rows = NULL;
  *n = 0;
  for (size_t i = 0; mem && i < mem->n; i++) {
    const cv_mem_rec *m = &mem->v[i];
    if (m->op != CV_MEM_ALLOC && m->op != CV_MEM_FREE) continue;
    mem_row *r = mem_row_of(&rows, n, m->proc, m->has_agent, m->agent, m->device);
    if (m->op == CV_MEM_ALLOC) {
      r->allocs++;
      r->bytes += m->size;
      if (m->leaked) r->leaks++, r->leaked_bytes += m->size;
    } else if (m->matched) {
      r->frees++;
    } else {
      r->unknown_frees++;
    }
    if (m->in_use > r->peak) r->peak = m->in_use;
  }
  if (*n) qsort(rows, *n, sizeof *rows, cmp_mem_row);
  return rows;
}

static bool write_memory(stats *s, const char *dir) {
  size_t n;
  mem_row *rows = mem_rows(s->ctx, &n);
  if (!n) return true;
  char path[4096];
  snprintf(path, sizeof path, "%s/memory_stats.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    rtg_error("cannot create output: path=%s/memory_stats.csv: %s", s->ctx->opt.stats_dir,
              strerror(errno));
    free(rows);
    return false;
  }
  fputs("\"Pid\",\"Host\",\"Agent\",\"Allocations\",\"AllocatedBytes\",\"Frees\","
        "\"PeakBytes\",\"LeakedAllocations\",\"LeakedBytes\",\"UnknownFrees\"\n",
        f);
  for (size_t i = 0; i < n; i++) {
    const mem_row *r = &rows[i];
    const cv_proc *p = &s->ctx->procs[r->proc];
    char dev[64] = "";
    if (r->has_agent) rtg_device_name(r->device, dev, sizeof dev);
    fprintf(f, "%u,", p->pid);
    csv_name(f, cv_str(s->ctx, s->ctx->hosts[p->host]));
    fprintf(f, ",\"%s\",%llu,%llu,%llu,%llu,%llu,%llu,%llu\n", dev, (unsigned long long)r->allocs,
            (unsigned long long)r->bytes, (unsigned long long)r->frees, (unsigned long long)r->peak,
            (unsigned long long)r->leaks, (unsigned long long)r->leaked_bytes,
            (unsigned long long)r->unknown_frees);
  }
  free(rows);
  if (!rtg_out_close(f)) {
    rtg_error("cannot write output: path=%s/memory_stats.csv: %s", s->ctx->opt.stats_dir,
              rtg_out_why());
    return false;
  }
  return true;
}

/* --summary: one line per (process, agent), leaks at exit included. */
static void print_memory(stats *s) {
  size_t n;
  mem_row *rows = mem_rows(s->ctx, &n);
  FILE *f = s->ctx->report;
  if (n)
    fprintf(f, "MEMORY: HSA pool, virtual-memory and managed allocations (HIP's among "
               "them), not freed at exit = leaked\n");
  for (size_t i = 0; i < n; i++) {
    const mem_row *r = &rows[i];
    unsigned pid = s->ctx->procs[r->proc].pid;
    if (!r->has_agent) {
      fprintf(f, "  %8u frees of unknown addresses: %llu\n", pid,
              (unsigned long long)r->unknown_frees);
      continue;
    }
    char label[300];
    cv_device_label(s->ctx, r->proc, r->device, label, sizeof label);
    fprintf(f,
            "  %8u %-16s %llu allocations, %llu bytes, %llu freed, peak %llu bytes in use; leaked: "
            "%llu allocations, %llu bytes\n",
            pid, label, (unsigned long long)r->allocs, (unsigned long long)r->bytes,
            (unsigned long long)r->frees, (unsigned long long)r->peak, (unsigned long long)r->leaks,
            (unsigned long long)r->leaked_bytes);
  }
  if (n) fputc('\n', f);
  free(rows);
}

static bool stats_close(void *st) {
  stats *s = st;
  bool ok = true;
  cv_feed_end(s->feed);
  sort_ctx = s->ctx;
  tm_finish(&s->model);
  for (int w = 0; w < ST_N; w++) {
    table *t = &s->t[w];
    if (t->n) qsort(t->e, t->n, sizeof *t->e, cmp_entry);
    double *med = rtg_xcalloc(t->n, sizeof *med, "the medians of a table");
    for (uint32_t i = 0; i < t->n; i++) med[i] = median(&t->e[i]);
    if (s->dir && ((w != ST_GRAPH && w != ST_MPI) || t->n)) ok &= write_csv(s, w, s->dir, med);
    if (s->ctx->opt.summary) print_summary(s, w, med);
    free(med);
    for (uint32_t i = 0; i < t->n; i++) {
      free(t->e[i].samples);
      free(t->e[i].hist);
    }
    free(t->e);
    rtg_u64map_free(&t->index);
  }
  if (s->dir) ok &= write_gpu_time(s, s->dir);
  if (s->ctx->opt.summary) print_gpu_time(s);
  cv_occ_finish(s->ctx, &s->occ);
  if (s->dir) ok &= write_occupancy(s, s->dir);
  if (s->ctx->opt.summary) cv_occ_text(s->ctx, &s->occ, s->ctx->report);
  cv_occ_free(&s->occ);
  if (s->dir) ok &= write_memory(s, s->dir);
  if (s->ctx->opt.summary) print_memory(s);
  tm_free(&s->model);
  free(s);
  return ok;
}

const cv_sink cv_stats_sink = {
    .name = "stats",
    .open = stats_open,
    .event = stats_event,
    .close = stats_close,
};
