/* The analysis as text (the verdicts and the tables) and as JSON (analyze.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "jsonw.h"

/* "1.20 s", "50.1 ms", "812 us", "40 ns": three significant digits. */
static const char *dur(uint64_t ns, char *buf, size_t cap) {
  static const struct {
    double div;
    const char *unit;
  } u[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "us"}};
  for (size_t i = 0; i < sizeof u / sizeof *u; i++)
    if ((double)ns >= u[i].div) {
      double v = (double)ns / u[i].div;
      snprintf(buf, cap, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, u[i].unit);
      return buf;
    }
  snprintf(buf, cap, "%" PRIu64 " ns", ns);
  return buf;
}

static double pct(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const char *name_of(const an_state *st, uint64_t id) {
  return id == UINT64_MAX ? "(others)" : cv_str(st->ctx, (uint32_t)id);
}

/* "longwork(float*, int) on GPU1 queue 0", "HostToDevice copy on GPU0": what
 * a dependency detail's barrier waited for (an_detail). */
static void awaited(const an_state *st, uint64_t key, char *buf, size_t cap) {
  const an_awaited *a = &st->awaited[key & ~AN_DETAIL_WAITS_FOR];
  char dev[16];
  rtg_device_name(a->device, dev, sizeof dev);
  if (a->queue == AN_NO_QUEUE)
    snprintf(buf, cap, "%s copy on %s", cv_str(st->ctx, a->name), dev);
  else
    snprintf(buf, cap, "%s on %s queue %u", cv_str(st->ctx, a->name), dev, a->queue);
}

static bool is_awaited(uint64_t key) {
  return key != UINT64_MAX && key & AN_DETAIL_WAITS_FOR;
}

/* "between hipGetLastError and hipLaunchKernel": the calls around a time
 * in no call (key: see an_detail). */
static void between(const an_state *st, uint64_t key, char *buf, size_t cap) {
  uint64_t b = key >> 32, a = key & 0xffffffffu;
  if (key == UINT64_MAX)
    snprintf(buf, cap, "between other calls");
  else if (b && a && b == a)
    snprintf(buf, cap, "between %s calls", name_of(st, b - 1));
  else if (b && a)
    snprintf(buf, cap, "between %s and %s", name_of(st, b - 1), name_of(st, a - 1));
  else if (a)
    snprintf(buf, cap, "before %s", name_of(st, a - 1));
  else if (b)
    snprintf(buf, cap, "after %s", name_of(st, b - 1));
  else
    snprintf(buf, cap, "in no call at all");
}

void an_detail_text(const an_state *st, int cause, uint64_t key, char *buf, size_t cap) {
  char what[512];
  switch (cause) {
  case AN_STARTUP:
    buf[0] = 0;
    return;
  case AN_HOST_OUTSIDE_API:
    between(st, key, buf, cap);
    return;
  case AN_HOST_SYNC:
  case AN_HOST_API:
    snprintf(buf, cap, "in %s", name_of(st, key));
    return;
  default:
    if (is_awaited(key)) {
      awaited(st, key, what, sizeof what);
      snprintf(buf, cap, "waiting for %s", what);
    } else {
      snprintf(buf, cap, "before %s", name_of(st, key));
    }
  }
}

/* "(tid 1234, 50.1 ms x 3 between hipLaunchKernel calls)": the largest
 * share of a cause. */
static void evidence(const an_state *st, const an_result *r, int c, char *buf, size_t cap) {
  if (!r->ndetail[c]) {
    buf[0] = 0;
    return;
  }
  const an_detail *d = &r->detail[c][0]; /* the largest named one (not the rest) */
  if (d->key == UINT64_MAX && r->ndetail[c] > 1) d++;
  char t[32], what[512];
  dur(d->ns / d->count, t, sizeof t);
  switch (c) {
  case AN_HOST_OUTSIDE_API:
    between(st, d->key, what, sizeof what);
    snprintf(buf, cap, " (tid %" PRIu64 ", %s x %" PRIu64 " %s)", d->tid, t, d->count, what);
    return;
  case AN_HOST_SYNC:
  case AN_HOST_API:
    snprintf(buf, cap, " (tid %" PRIu64 ", in %s, %s x %" PRIu64 ")", d->tid, name_of(st, d->key),
             t, d->count);
    return;
  default:
    if (is_awaited(d->key)) {
      awaited(st, d->key, what, sizeof what);
      snprintf(buf, cap, " (%s x %" PRIu64 " waiting for %s)", t, d->count, what);
    } else {
      snprintf(buf, cap, " (%s x %" PRIu64 " before %s)", t, d->count, name_of(st, d->key));
    }
  }
}

static void label(const an_state *st, const an_dev *d, char *buf, size_t cap) {
  char dev[16];
  rtg_device_name(d->device, dev, sizeof dev);
  snprintf(buf, cap, "%s (pid %u)", dev, st->ctx->procs[d->proc].pid);
}

/* The cause that took the most idle time after startup; -1: none. */
static int top_cause(const uint64_t cause[AN_NCAUSES]) {
  int top = -1;
  for (int c = AN_STARTUP + 1; c < AN_NCAUSES; c++)
    if (cause[c] && (top < 0 || cause[c] > cause[top])) top = c;
  return top;
}

static void verdict(const an_state *st, const an_dev *d, FILE *f) {
  const an_result *r = &d->res;
  char lb[64], t[32], ev[768];
  label(st, d, lb, sizeof lb);
  uint64_t span = r->span - r->cause[AN_STARTUP], idle = r->idle - r->cause[AN_STARTUP];
  fprintf(f, "%s: idle %.0f %% of %s", lb, pct(idle, span), dur(span, t, sizeof t));
  int top = top_cause(r->cause);
  if (top >= 0) {
    evidence(st, r, top, ev, sizeof ev);
    fprintf(f, ": %s %.0f %%%s", an_cause_names[top], pct(r->cause[top], idle), ev);
    if (top == AN_HOST_OUTSIDE_API && d->proc < st->nprocs && !st->procs[d->proc].ncalls)
      fprintf(f, "; no runtime call of this process is in the trace: trace HIP, or HSA with "
                 "RTG_HSA_API_FILTER=all, to tell its waits and calls from its own work");
  }
  fprintf(f, "\n");
}

static void by_call(const an_state *st, const an_result *r, int c, FILE *f) {
  if (!r->ndetail[c]) return;
  fprintf(f, "  %s by call:", an_cause_names[c]);
  char t[32];
  for (int i = 0; i < r->ndetail[c] && i < 5; i++) {
    const an_detail *d = &r->detail[c][i];
    fprintf(f, "%s %s %s x %" PRIu64 " (tid %" PRIu64 ")", i ? "," : "", name_of(st, d->key),
            dur(d->ns, t, sizeof t), d->count, d->tid);
  }
  fprintf(f, "\n");
}

/* "queue 3: idle 40 % of 1.20 s: dependency 80 %" for each queue */
static void queues_text(const an_state *st, const an_dev *d, FILE *f) {
  (void)st;
  if (d->nqueues < 2) return;
  fprintf(f, "  by queue (each queue's own ops, from the process's start):\n");
  char t[32];
  for (size_t i = 0; i < d->nqueues; i++) {
    const an_queue *q = &d->queues[i];
    if (!q->ok) continue;
    const an_result *r = &q->res;
    uint64_t span = r->span - r->cause[AN_STARTUP], idle = r->idle - r->cause[AN_STARTUP];
    fprintf(f, "    queue %-4u %8" PRIu64 " kernels  idle %5.1f %% of %s", q->queue, r->kernels,
            pct(idle, span), dur(span, t, sizeof t));
    int top = top_cause(r->cause);
    char ev[768] = "";
    if (top == AN_DEPENDENCY && r->ndetail[top] && is_awaited(r->detail[top][0].key))
      evidence(st, r, top, ev, sizeof ev);
    if (top >= 0) fprintf(f, ": %s %.0f %%%s", an_cause_names[top], pct(r->cause[top], idle), ev);
    fprintf(f, "\n");
  }
}

/* "  dependency by what it waited for: longwork on GPU0 queue 1 100 ms x 5" */
static void by_awaited(const an_state *st, const an_result *r, FILE *f) {
  const int c = AN_DEPENDENCY;
  bool any = false;
  char t[32], what[512];
  for (int i = 0, n = 0; i < r->ndetail[c] && n < 5; i++) {
    const an_detail *d = &r->detail[c][i];
    if (!is_awaited(d->key)) continue;
    awaited(st, d->key, what, sizeof what);
    fprintf(f, "%s %s %s x %" PRIu64, any ? "," : "  dependency by what it waited for:", what,
            dur(d->ns, t, sizeof t), d->count);
    any = true, n++;
  }
  if (any) fprintf(f, "\n");
}

static void dist_text(const an_dist *d, FILE *f) {
  char a[32], b[32], c[32];
  if (!d->n)
    fprintf(f, "  %28s", "-");
  else
    fprintf(f, "  %9s %9s %9s", dur(d->median, a, sizeof a), dur(d->p95, b, sizeof b),
            dur(d->max, c, sizeof c));
}

/* The launch decomposition of the kernels that take the most time. */
static void launch_text(const an_state *st, const an_dev *d, FILE *f) {
  const an_launch *l = &d->launch;
  if (!l->nname) return;
  fprintf(f, "  launch decomposition (median, p95, max; api: the launching call; queue: its\n"
             "  enqueue to the kernel's start):\n");
  fprintf(f, "    %8s  %-28s  %-28s  %-28s  %s\n", "kernels", "api", "queue", "kernel", "name");
  for (size_t i = 0; i < l->nname && i < 10; i++) {
    const an_launch_row *r = &l->by_name[i];
    fprintf(f, "    %8" PRIu64, r->count);
    dist_text(&r->api, f);
    dist_text(&r->queue, f);
    dist_text(&r->kernel, f);
    fprintf(f, "  %s", cv_str(st->ctx, r->key));
    if (r->launch_bound) fprintf(f, " (%" PRIu64 " launch-bound)", r->launch_bound);
    fprintf(f, "\n");
  }
  if (l->nname > 10) fprintf(f, "    (%zu more kernel names)\n", l->nname - 10);
}

static void table(const an_state *st, const an_dev *d, FILE *f) {
  const an_result *r = &d->res;
  char lb[160], dev[96];
  cv_device_label(st->ctx, d->proc, d->device, dev, sizeof dev);
  snprintf(lb, sizeof lb, "%s, pid %u, host %s", dev, st->ctx->procs[d->proc].pid,
           cv_str(st->ctx, st->ctx->hosts[st->ctx->procs[d->proc].host]));
  fprintf(f, "\n%s\n", lb);
  fprintf(f, "  %-18s %16.3f us  process start to its last op on the GPU\n", "span",
          (double)r->span / 1e3);
  fprintf(f, "  %-18s %16.3f us  %.1f %% (kernels, %" PRIu64 ")\n", "busy", (double)r->busy / 1e3,
          pct(r->busy, r->span), r->kernels);
  fprintf(f, "  %-18s %16.3f us  %.1f %% (copies, %" PRIu64 "; beside busy, not in it)\n",
          "copy busy", (double)r->copy_busy / 1e3, pct(r->copy_busy, r->span), r->copies);
  fprintf(f, "  %-18s %16.3f us  %.1f %%\n", "idle", (double)r->idle / 1e3, pct(r->idle, r->span));
  fprintf(f, "  %-18s %16s     %9s  %s\n", "cause", "time", "% of idle", "% after startup");
  uint64_t sum = 0, after = r->idle - r->cause[AN_STARTUP];
  for (int c = 0; c < AN_NCAUSES; c++) {
    sum += r->cause[c];
    fprintf(f, "  %-18s %16.3f us  %9.1f", an_cause_names[c], (double)r->cause[c] / 1e3,
            pct(r->cause[c], r->idle));
    if (c == AN_STARTUP)
      fprintf(f, "  -\n");
    else
      fprintf(f, "  %.1f\n", pct(r->cause[c], after));
  }
  fprintf(f, "  %-18s %16.3f us  %9.1f\n", "sum", (double)sum / 1e3, pct(sum, r->idle));
  by_call(st, r, AN_HOST_SYNC, f);
  by_call(st, r, AN_HOST_API, f);
  by_awaited(st, r, f);
  queues_text(st, d, f);
  launch_text(st, d, f);
}

/* microseconds from nanoseconds, exactly */
static void us(FILE *f, const char *key, uint64_t ns, const char *sep) {
  if (key) fprintf(f, "\"%s\":", key);
  fprintf(f, "%" PRIu64 ".%03" PRIu64 "%s", ns / 1000, ns % 1000, sep);
}

/* "host_api":{"hipMalloc":1234.567,...}: a host cause by call (the
 * threads' shares summed). */
static void calls_json(const an_state *st, FILE *f, const an_result *r, int c, const char *sep) {
  fprintf(f, "\"%s\":{", an_cause_names[c]);
  bool done[AN_MAX_DETAILS] = {0};
  bool first = true;
  for (int i = 0; i < r->ndetail[c]; i++) {
    if (done[i]) continue;
    uint64_t ns = 0;
    for (int j = i; j < r->ndetail[c]; j++)
      if (r->detail[c][j].key == r->detail[c][i].key) ns += r->detail[c][j].ns, done[j] = true;
    if (!first) fputc(',', f);
    rtg_json_fputs(f, name_of(st, r->detail[c][i].key));
    fputc(':', f);
    us(f, NULL, ns, "");
    first = false;
  }
  fprintf(f, "}%s", sep);
}

/* What an instance is: its call or kernel, or the busy share of a window. */
static void what(const an_state *st, int rule, const an_instance *in, char *buf, size_t cap) {
  if (in->name != AN_NO_NAME)
    snprintf(buf, cap, "%s", cv_str(st->ctx, in->name));
  else if (rule == AN_RULE_LOW_UTILIZATION)
    snprintf(buf, cap, "%.1f %% busy", pct(in->value, in->dur));
  else if (rule == AN_RULE_STARTUP)
    snprintf(buf, cap, "the process's start to the GPU's first op");
  else
    snprintf(buf, cap, "-");
}

/* "idle_causes":{"startup":1.000,...} */
static void causes_json(FILE *f, const an_result *r) {
  fprintf(f, "\"idle_causes\":{");
  for (int c = 0; c < AN_NCAUSES; c++)
    us(f, an_cause_names[c], r->cause[c], c + 1 < AN_NCAUSES ? "," : "");
  fprintf(f, "}");
}

static void span_json(FILE *f, const an_result *r) {
  us(f, "span_us", r->span, ",");
  us(f, "busy_us", r->busy, ",");
  us(f, "copy_busy_us", r->copy_busy, ",");
  us(f, "idle_us", r->idle, ",");
  causes_json(f, r);
}

/* "pid":1,"host":"h","gpu":"GPU0" */
static void who_json(const an_state *st, FILE *f, uint32_t proc, const an_dev *d) {
  fprintf(f, "\"pid\":%u,\"host\":", st->ctx->procs[proc].pid);
  rtg_json_fputs(f, cv_str(st->ctx, st->ctx->hosts[st->ctx->procs[proc].host]));
  if (d) {
    char dev[16];
    fprintf(f, ",\"gpu\":");
    rtg_json_fputs(f, rtg_device_name(d->device, dev, sizeof dev));
  }
}

/* ,"dependency_on":{"longwork on GPU0 queue 1":100000.000}: the dependency
 * time by what it waited for, where known. */
static void awaited_json(const an_state *st, FILE *f, const an_result *r) {
  fprintf(f, ",\"dependency_on\":{");
  bool first = true;
  char what[512];
  for (int i = 0; i < r->ndetail[AN_DEPENDENCY]; i++) {
    const an_detail *d = &r->detail[AN_DEPENDENCY][i];
    if (!is_awaited(d->key)) continue;
    awaited(st, d->key, what, sizeof what);
    if (!first) fputc(',', f);
    rtg_json_fputs(f, what);
    fputc(':', f);
    us(f, NULL, d->ns, "");
    first = false;
  }
  fprintf(f, "}");
}

static void queues_json(const an_state *st, FILE *f, const an_dev *d) {
  fprintf(f, ",\"queues\":[");
  bool first = true;
  for (size_t i = 0; i < d->nqueues; i++) {
    const an_queue *q = &d->queues[i];
    if (!q->ok) continue;
    fprintf(f, "%s{\"queue\":%u,\"kernels\":%" PRIu64 ",", first ? "" : ",", q->queue,
            q->res.kernels);
    span_json(f, &q->res);
    awaited_json(st, f, &q->res);
    fprintf(f, "}");
    first = false;
  }
  fprintf(f, "]");
}

static void dist_json(FILE *f, const char *key, const an_dist *d, const char *sep) {
  fprintf(f, "\"%s\":{\"n\":%" PRIu64 ",", key, d->n);
  us(f, "median", d->median, ",");
  us(f, "p95", d->p95, ",");
  us(f, "max", d->max, ",");
  us(f, "total", d->total, "");
  fprintf(f, "}%s", sep);
}

static void launch_json(const an_state *st, FILE *f, const char *key, bool queues) {
  fprintf(f, ",\n\"%s\":[", key);
  bool first = true;
  for (uint32_t i = 0; i < st->ndevs; i++) {
    const an_dev *d = &st->devs[i];
    if (!d->ok) continue;
    const an_launch *l = &d->launch;
    size_t n = queues ? l->nqueue : l->nname;
    for (size_t k = 0; k < n; k++) {
      const an_launch_row *r = queues ? &l->by_queue[k] : &l->by_name[k];
      fprintf(f, "%s\n{", first ? "" : ",");
      who_json(st, f, d->proc, d);
      if (queues)
        fprintf(f, ",\"queue\":%u", r->key);
      else
        fprintf(f, ",\"kernel\":"), rtg_json_fputs(f, cv_str(st->ctx, r->key));
      fprintf(f, ",\"count\":%" PRIu64 ",\"launch_bound\":%" PRIu64 ",", r->count, r->launch_bound);
      dist_json(f, "api_us", &r->api, ",");
      dist_json(f, "queue_us", &r->queue, ",");
      dist_json(f, "kernel_us", &r->kernel, "}");
      first = false;
    }
  }
  fprintf(f, "]");
}

static void rule_json(const an_state *st, FILE *f, int id, const an_rule *r, uint32_t proc,
                      const an_dev *d, bool *first) {
  fprintf(f, "%s\n{\"id\":\"%s\",", *first ? "" : ",", an_rules[id].id);
  *first = false;
  who_json(st, f, proc, d);
  fprintf(f, ",\"title\":");
  rtg_json_fputs(f, an_rules[id].title);
  fprintf(f, ",\"advice\":");
  rtg_json_fputs(f, an_rules[id].advice);
  fprintf(f, ",\"fired\":%s,\"count\":%" PRIu64 ",\"of\":%" PRIu64 ",\"unchecked\":%" PRIu64 ",",
          r->fired ? "true" : "false", r->count, r->of, r->unchecked);
  us(f, "cost_us", r->cost, ",");
  fprintf(f, "\"instances\":[");
  char w[512];
  for (int i = 0; i < r->nworst; i++) {
    const an_instance *in = &r->worst[i];
    what(st, id, in, w, sizeof w);
    fprintf(f, "%s{\"start_ns\":%" PRIu64 ",", i ? "," : "", in->start);
    us(f, "dur_us", in->dur, ",");
    fprintf(f, "\"tid\":%" PRIu64 ",\"what\":", in->tid);
    rtg_json_fputs(f, w);
    fprintf(f, "}");
  }
  fprintf(f, "]}");
}

static void rules_json(const an_state *st, FILE *f) {
  fprintf(f, ",\n\"rules\":[");
  bool first = true;
  for (uint32_t p = 0; p < st->nprocs; p++)
    for (int id = 0; id < AN_FIRST_GPU_RULE; id++)
      if (st->procs[p].rules[id].evaluated)
        rule_json(st, f, id, &st->procs[p].rules[id], p, NULL, &first);
  for (uint32_t i = 0; i < st->ndevs; i++)
    if (st->devs[i].ok)
      for (int id = AN_FIRST_GPU_RULE; id < AN_NRULES; id++)
        rule_json(st, f, id, &st->devs[i].rules[id], st->devs[i].proc, &st->devs[i], &first);
  fprintf(f, "]");
}

/* A process across its GPUs: when its last op ends, its GPUs' busy and
 * idle time after startup, and the cause that took the most of that. */
typedef struct proc_sum {
  uint32_t proc, gpus;
  uint64_t start, end, busy, idle;
  uint64_t cause[AN_NCAUSES];
} proc_sum;

static uint32_t proc_sums(const an_state *st, proc_sum *out) {
  uint32_t n = 0;
  for (uint32_t p = 0; p < st->nprocs; p++) {
    proc_sum ps = {.proc = p, .start = UINT64_MAX};
    for (uint32_t i = 0; i < st->ndevs; i++) {
      const an_dev *d = &st->devs[i];
      if (d->proc != p || !d->ok) continue;
      const an_result *r = &d->res;
      ps.gpus++;
      if (r->span_start < ps.start) ps.start = r->span_start;
      if (r->span_end > ps.end) ps.end = r->span_end;
      ps.busy += r->busy;
      ps.idle += r->idle - r->cause[AN_STARTUP];
      for (int c = AN_STARTUP + 1; c < AN_NCAUSES; c++) ps.cause[c] += r->cause[c];
    }
    if (ps.gpus) out[n++] = ps;
  }
  return n;
}

/* the process whose GPU work ends last, and the one whose GPUs wait most */
static void extremes(const proc_sum *v, uint32_t n, uint32_t *last, uint32_t *waits) {
  *last = *waits = 0;
  for (uint32_t i = 1; i < n; i++) {
    if (v[i].end > v[*last].end) *last = i;
    if (v[i].idle > v[*waits].idle) *waits = i;
  }
}

static void processes_text(const an_state *st, FILE *f) {
  proc_sum *v = calloc(st->nprocs ? st->nprocs : 1, sizeof *v);
  if (!v) return;
  uint32_t n = proc_sums(st, v), last, waits;
  if (n > 1) {
    uint64_t t0 = UINT64_MAX;
    for (uint32_t i = 0; i < n; i++)
      if (v[i].start < t0) t0 = v[i].start;
    extremes(v, n, &last, &waits);
    char t[32];
    fprintf(f,
            "\n%u processes: GPU work ends last in pid %u (+%.6f s); the GPUs of pid %u wait most "
            "(%s)\n",
            n, st->ctx->procs[v[last].proc].pid, (double)(v[last].end - t0) / 1e9,
            st->ctx->procs[v[waits].proc].pid, dur(v[waits].idle, t, sizeof t));
    fprintf(f, "  %8s  %-12s %4s  %12s  %12s  %6s  %s\n", "pid", "host", "gpus", "ends at (s)",
            "idle", "idle %", "top cause");
    for (uint32_t i = 0; i < n; i++) {
      int top = top_cause(v[i].cause);
      fprintf(f, "  %8u  %-12s %4u  %+12.6f  %12s  %6.1f  %s\n", st->ctx->procs[v[i].proc].pid,
              cv_str(st->ctx, st->ctx->hosts[st->ctx->procs[v[i].proc].host]), v[i].gpus,
              (double)(v[i].end - t0) / 1e9, dur(v[i].idle, t, sizeof t),
              pct(v[i].idle, v[i].idle + v[i].busy), top >= 0 ? an_cause_names[top] : "-");
    }
  }
  free(v);
}

static void processes_json(const an_state *st, FILE *f) {
  proc_sum *v = calloc(st->nprocs ? st->nprocs : 1, sizeof *v);
  if (!v) return;
  uint32_t n = proc_sums(st, v), last, waits;
  fprintf(f, ",\n\"processes\":[");
  for (uint32_t i = 0; i < n; i++) {
    int top = top_cause(v[i].cause);
    fprintf(f, "%s\n{", i ? "," : "");
    who_json(st, f, v[i].proc, NULL);
    fprintf(f, ",\"gpus\":%u,\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64 ",", v[i].gpus,
            v[i].start, v[i].end);
    us(f, "busy_us", v[i].busy, ",");
    us(f, "idle_after_startup_us", v[i].idle, ",");
    fprintf(f, "\"top_cause\":\"%s\"}", top >= 0 ? an_cause_names[top] : "");
  }
  fprintf(f, "]");
  if (n) {
    extremes(v, n, &last, &waits);
    fprintf(f, ",\n\"finishes_last\":%u,\"waits_most\":%u", st->ctx->procs[v[last].proc].pid,
            st->ctx->procs[v[waits].proc].pid);
  }
  free(v);
}

/* "work(float*, int)" or "every copy" */
static const char *whatif_name(const an_state *st, uint32_t name) {
  return name == AN_CP_ALL_COPIES ? "every copy" : cv_str(st->ctx, name);
}

static void shares_json(const an_state *st, FILE *f, const char *key, const an_cp_share *v, int n) {
  fprintf(f, ",\"%s\":[", key);
  for (int i = 0; i < n; i++) {
    fprintf(f, "%s{\"name\":", i ? "," : "");
    rtg_json_fputs(f, cv_str(st->ctx, v[i].name));
    fprintf(f, ",");
    us(f, "us", v[i].ns, "}");
  }
  fprintf(f, "]");
}

static void critical_json(const an_state *st, FILE *f) {
  fprintf(f, ",\n\"critical_path\":[");
  bool first = true;
  for (uint32_t p = 0; p < st->nprocs; p++) {
    const an_proc *pr = &st->procs[p];
    if (!pr->has_cp) continue;
    const an_cp_result *r = &pr->cp;
    fprintf(f, "%s\n{", first ? "" : ",");
    first = false;
    who_json(st, f, p, NULL);
    fprintf(f, ",\"start_ns\":%" PRIu64 ",\"end_ns\":%" PRIu64 ",\"steps\":%" PRIu64 ",", r->start,
            r->end, r->steps);
    us(f, "length_us", r->length, ",");
    fprintf(f, "\"parts_us\":{");
    for (int c = 0; c < AN_CP_NCATS; c++)
      us(f, an_cp_cat_names[c], r->cat[c], c + 1 < AN_CP_NCATS ? "," : "}");
    shares_json(st, f, "kernels", r->kernels, r->nkernels);
    shares_json(st, f, "calls", r->calls, r->ncalls);
    fprintf(f, ",\"whatif\":[");
    for (int i = 0; i < r->nwhatif; i++) {
      const an_cp_whatif *w = &r->whatif[i];
      fprintf(f, "%s{\"twice_as_fast\":", i ? "," : "");
      rtg_json_fputs(f, whatif_name(st, w->name));
      fprintf(f, ",");
      us(f, "length_us", w->length, "}");
    }
    fprintf(f, "]}");
  }
  fprintf(f, "]");
}

void an_write_json(const an_state *st, FILE *f) {
  fprintf(f, "{\"gpus\":[");
  bool first = true;
  for (uint32_t i = 0; i < st->ndevs; i++) {
    const an_dev *d = &st->devs[i];
    if (!d->ok) continue;
    const an_result *r = &d->res;
    fprintf(f, "%s\n{", first ? "" : ",");
    who_json(st, f, d->proc, d);
    fprintf(f, ",");
    fprintf(f, "\"span_start_ns\":%" PRIu64 ",\"span_end_ns\":%" PRIu64 ",", r->span_start,
            r->span_end);
    span_json(f, r);
    fprintf(f, ",\"host_by_call\":{");
    calls_json(st, f, r, AN_HOST_SYNC, ",");
    calls_json(st, f, r, AN_HOST_API, "");
    fprintf(f, "}");
    awaited_json(st, f, r);
    queues_json(st, f, d);
    fprintf(f, "}");
    first = false;
  }
  fprintf(f, "]");
  launch_json(st, f, "launch", false);
  launch_json(st, f, "launch_queues", true);
  rules_json(st, f);
  critical_json(st, f);
  processes_json(st, f);
  if (st->occ.n) {
    fprintf(f, ",\n\"kernel_occupancy\":");
    cv_occ_json(st->ctx, &st->occ, f);
  }
  cv_clock_json(st->ctx, f); /* several hosts: each one's offset */
  cv_mpi_json(st->ctx, f);   /* MPI calls: stragglers, time per rank */
  fprintf(f, "\n}\n");
}

static void rule_text(const an_state *st, int id, const an_rule *r, const char *who, uint64_t t0,
                      FILE *f) {
  char t[32], w[512];
  fprintf(f, "%s: %s: %s: %" PRIu64, who, an_rules[id].id, an_rules[id].title, r->count);
  if (r->of) fprintf(f, " of %" PRIu64, r->of);
  fprintf(f, ", %s\n", dur(r->cost, t, sizeof t));
  for (int i = 0; i < r->nworst; i++) {
    const an_instance *in = &r->worst[i];
    what(st, id, in, w, sizeof w);
    fprintf(f, "    %s at %+.6f s", dur(in->dur, t, sizeof t),
            ((double)in->start - (double)t0) / 1e9);
    if (in->tid) fprintf(f, " tid %" PRIu64, in->tid);
    fprintf(f, " %s\n", w);
  }
  fprintf(f, "  -> %s\n", an_rules[id].advice);
}

static void rules_text(const an_state *st, FILE *f) {
  bool any = false;
  char lb[64];
  for (uint32_t p = 0; p < st->nprocs; p++)
    for (int id = 0; id < AN_FIRST_GPU_RULE; id++)
      if (st->procs[p].rules[id].evaluated && st->procs[p].rules[id].fired) {
        if (!any) fprintf(f, "\nRules that fired:\n");
        any = true;
        snprintf(lb, sizeof lb, "pid %u", st->ctx->procs[p].pid);
        rule_text(st, id, &st->procs[p].rules[id], lb, st->procs[p].start, f);
      }
  for (uint32_t i = 0; i < st->ndevs; i++)
    for (int id = AN_FIRST_GPU_RULE; id < AN_NRULES; id++)
      if (st->devs[i].ok && st->devs[i].rules[id].fired) {
        if (!any) fprintf(f, "\nRules that fired:\n");
        any = true;
        label(st, &st->devs[i], lb, sizeof lb);
        rule_text(st, id, &st->devs[i].rules[id], lb, st->procs[st->devs[i].proc].start, f);
      }
  for (uint32_t p = 0; p < st->nprocs; p++) {
    const an_rule *r = &st->procs[p].rules[AN_RULE_PAGEABLE_COPY];
    if (r->unchecked)
      fprintf(f, "%spid %u: %s: not checked for %" PRIu64 " async copies: %s\n", any ? "" : "\n",
              st->ctx->procs[p].pid, an_rules[AN_RULE_PAGEABLE_COPY].id, r->unchecked,
              st->ctx->window_start ? "--start drops the allocations before it"
                                    : "the trace has no HIP arguments (RTG_HIP_API_ARGS=1)");
    any = any || r->unchecked;
  }
}

static void critical_text(const an_state *st, FILE *f) {
  char t[32], t2[32];
  for (uint32_t p = 0; p < st->nprocs; p++) {
    const an_proc *pr = &st->procs[p];
    if (!pr->has_cp) continue;
    const an_cp_result *r = &pr->cp;
    fprintf(f, "\nCritical path of pid %u: %s (%" PRIu64 " steps):", st->ctx->procs[p].pid,
            dur(r->length, t, sizeof t), r->steps);
    for (int c = 0; c < AN_CP_NCATS; c++)
      if (r->cat[c]) fprintf(f, " %s %.1f %%", an_cp_cat_names[c], pct(r->cat[c], r->length));
    fprintf(f, "\n");
    for (int i = 0; i < r->nkernels && i < 5; i++)
      fprintf(f, "  kernel %s: %s, %.1f %%\n", cv_str(st->ctx, r->kernels[i].name),
              dur(r->kernels[i].ns, t, sizeof t), pct(r->kernels[i].ns, r->length));
    for (int i = 0; i < r->ncalls && i < 5; i++)
      fprintf(f, "  call %s: %s, %.1f %%\n", cv_str(st->ctx, r->calls[i].name),
              dur(r->calls[i].ns, t, sizeof t), pct(r->calls[i].ns, r->length));
    for (int i = 0; i < r->nwhatif; i++) {
      const an_cp_whatif *w = &r->whatif[i];
      fprintf(f, "  what if %s ran twice as fast: %s -> %s, %.1f %% shorter\n",
              whatif_name(st, w->name), dur(r->length, t, sizeof t), dur(w->length, t2, sizeof t2),
              r->length > w->length ? pct(r->length - w->length, r->length) : 0.0);
    }
  }
}

void an_write_text(const an_state *st, FILE *f) {
  cv_clock_text(st->ctx, f, false); /* several hosts: each one's offset */
  cv_mpi_text(st->ctx, f);          /* MPI calls: stragglers, time per rank */
  bool any = false;
  for (uint32_t i = 0; i < st->ndevs; i++)
    if (st->devs[i].ok) verdict(st, &st->devs[i], f), any = true;
  if (!any) fprintf(f, "no GPU ops: nothing to analyze\n");
  rules_text(st, f);
  processes_text(st, f);
  critical_text(st, f);
  for (uint32_t i = 0; i < st->ndevs; i++)
    if (st->devs[i].ok) table(st, &st->devs[i], f);
  if (st->occ.n) {
    fputc('\n', f);
    cv_occ_text(st->ctx, &st->occ, f);
  }
  if (any)
    fprintf(f, "\nEach idle nanosecond has one cause, the first that holds: startup, copy_only,\n"
               "dependency, launch_latency, then what the thread that enqueued the GPU's next op\n"
               "was doing: host_sync, host_api, host_outside_api.\n");
}
