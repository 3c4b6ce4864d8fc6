/* The analysis as text (the verdicts and the tables) and as JSON (analyze.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"

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

/* "(tid 1234, 50.1 ms x 3 between hipLaunchKernel calls)": the largest
 * share of a cause. */
static void evidence(const an_state *st, const an_result *r, int c, char *buf, size_t cap) {
  if (!r->ndetail[c]) {
    buf[0] = 0;
    return;
  }
  const an_detail *d = &r->detail[c][0];
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
    snprintf(buf, cap, " (%s x %" PRIu64 " before %s)", t, d->count, name_of(st, d->key));
  }
}

static void label(const an_state *st, const an_dev *d, char *buf, size_t cap) {
  char dev[16];
  rtg_device_name(d->device, dev, sizeof dev);
  snprintf(buf, cap, "%s (pid %u)", dev, st->ctx->procs[d->proc].pid);
}

static void verdict(const an_state *st, const an_dev *d, FILE *f) {
  const an_result *r = &d->res;
  char lb[64], t[32], ev[768];
  label(st, d, lb, sizeof lb);
  uint64_t span = r->span - r->cause[AN_STARTUP], idle = r->idle - r->cause[AN_STARTUP];
  fprintf(f, "%s: idle %.0f %% of %s", lb, pct(idle, span), dur(span, t, sizeof t));
  int top = -1;
  for (int c = AN_STARTUP + 1; c < AN_NCAUSES; c++)
    if (r->cause[c] && (top < 0 || r->cause[c] > r->cause[top])) top = c;
  if (top >= 0) {
    evidence(st, r, top, ev, sizeof ev);
    fprintf(f, ": %s %.0f %%%s", an_cause_names[top], pct(r->cause[top], idle), ev);
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
}

/* microseconds from nanoseconds, exactly */
static void us(FILE *f, const char *key, uint64_t ns, const char *sep) {
  if (key) fprintf(f, "\"%s\":", key);
  fprintf(f, "%" PRIu64 ".%03" PRIu64 "%s", ns / 1000, ns % 1000, sep);
}

static void json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
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
    json_str(f, name_of(st, r->detail[c][i].key));
    fputc(':', f);
    us(f, NULL, ns, "");
    first = false;
  }
  fprintf(f, "}%s", sep);
}

void an_write_json(const an_state *st, FILE *f) {
  fprintf(f, "{\"gpus\":[");
  bool first = true;
  for (uint32_t i = 0; i < st->ndevs; i++) {
    const an_dev *d = &st->devs[i];
    if (!d->ok) continue;
    const an_result *r = &d->res;
    char dev[16];
    fprintf(f, "%s\n{\"pid\":%u,\"host\":", first ? "" : ",", st->ctx->procs[d->proc].pid);
    json_str(f, cv_str(st->ctx, st->ctx->hosts[st->ctx->procs[d->proc].host]));
    fprintf(f, ",\"gpu\":");
    json_str(f, rtg_device_name(d->device, dev, sizeof dev));
    fprintf(f, ",");
    us(f, "span_us", r->span, ",");
    us(f, "busy_us", r->busy, ",");
    us(f, "copy_busy_us", r->copy_busy, ",");
    us(f, "idle_us", r->idle, ",");
    fprintf(f, "\"idle_causes\":{");
    for (int c = 0; c < AN_NCAUSES; c++)
      us(f, an_cause_names[c], r->cause[c], c + 1 < AN_NCAUSES ? "," : "");
    fprintf(f, "},\"host_by_call\":{");
    calls_json(st, f, r, AN_HOST_SYNC, ",");
    calls_json(st, f, r, AN_HOST_API, "");
    fprintf(f, "}}");
    first = false;
  }
  fprintf(f, "\n]}\n");
}

void an_write_text(const an_state *st, FILE *f) {
  bool any = false;
  for (uint32_t i = 0; i < st->ndevs; i++)
    if (st->devs[i].ok) verdict(st, &st->devs[i], f), any = true;
  if (!any) fprintf(f, "no GPU ops: nothing to analyze\n");
  for (uint32_t i = 0; i < st->ndevs; i++)
    if (st->devs[i].ok) table(st, &st->devs[i], f);
  if (any)
    fprintf(f, "\nEach idle nanosecond has one cause, the first that holds: startup, dependency,\n"
               "copy_only, launch_latency, then what the thread that enqueued the GPU's next op\n"
               "was doing: host_sync, host_api, host_outside_api.\n");
}
